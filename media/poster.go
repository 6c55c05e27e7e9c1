package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/gen2brain/webp"
)

// PosterWidth is the widest a stored video poster is. A portfolio card is
// at most ~430 CSS pixels wide (one card on a phone, a third of the
// container on a desktop), so 960 pixels cover two device pixels per CSS
// pixel. A video's poster attribute takes one URL, no srcset, so this
// one size is what every screen gets.
const PosterWidth = 960

// MaxPosterBytes caps a poster upload whatever MAX_UPLOAD_BYTES says: a
// captured frame is well under 1 MB and a phone photo the owner picks
// instead is under 15 MB. The pixels are bounded separately, by
// DecodeBudget and MaxPixels.
const MaxPosterBytes = 20 << 20

// Poster is a processed video poster: a WebP no wider than PosterWidth,
// made from the decoded image, so nothing of the uploaded file but its
// pixels is kept.
type Poster struct {
	Width, Height int
	Data          []byte
}

// ErrNotPoster is an upload that cannot be a poster: anything but a still
// JPEG, PNG or WebP. A GIF may be animated; a video, markup, script or SVG
// is not a picture at all.
type ErrNotPoster struct{ Detected string }

func (e *ErrNotPoster) Error() string {
	return fmt.Sprintf("a poster must be a JPEG, PNG or WebP image (this file is %s)", e.Detected)
}

// SniffPoster types a poster upload from its first bytes, as Sniff does,
// and accepts only the poster types.
func SniffPoster(head []byte) (Type, error) {
	t, err := Sniff(head)
	if err != nil {
		var u *ErrUnsupported
		if errors.As(err, &u) {
			return Type{}, &ErrNotPoster{Detected: u.Detected}
		}
		return Type{}, err
	}
	switch t.MIME {
	case "image/jpeg", "image/png", "image/webp":
		return t, nil
	}
	return Type{}, &ErrNotPoster{Detected: t.MIME}
}

// ProcessPoster decodes an image the browser or the owner sent as a video
// poster, within the same decode budget as a photo (the budget counts a
// photo's full processing, which is more than a poster's), applies its
// EXIF orientation and encodes it as one WebP at most PosterWidth wide.
// The upload is untrusted: it is decoded by the decoder of its sniffed
// type and re-encoded, so no metadata, script or trailing bytes survive.
func ProcessPoster(r io.ReaderAt, size int64, t Type) (*Poster, error) {
	switch t.MIME {
	case "image/jpeg", "image/png", "image/webp":
	default:
		return nil, &ErrNotPoster{Detected: t.MIME}
	}
	img, err := decodeWithinBudget(r, size, t)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	w := min(PosterWidth, b.Dx())
	h := max(1, b.Dy()*w/b.Dx())
	var out bytes.Buffer
	if err := webp.Encode(&out, scaleToYUVA420(img, w, h), webp.Options{Quality: 78}); err != nil {
		return nil, fmt.Errorf("poster cannot be encoded: %w", err)
	}
	return &Poster{Width: w, Height: h, Data: out.Bytes()}, nil
}

// PosterKey is a new storage key for a poster of the video stored at
// videoKey: beside it, named after it, with a random part so that a
// replaced poster gets a new URL (media is cached for a year, immutable).
func PosterKey(videoKey string) string {
	base := strings.TrimSuffix(videoKey, path.Ext(videoKey))
	return base + "-poster-" + randomString(8) + ".webp"
}

var posterKey = regexp.MustCompile(`-poster-[a-z0-9]{8}\.webp$`)

// IsPosterKey reports whether key has the shape PosterKey makes. Only the
// media table says whether it is one: the shape just spares other keys
// the lookup.
func IsPosterKey(key string) bool { return posterKey.MatchString(key) }

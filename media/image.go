package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // decoder
	"image/jpeg"
	"image/png"
	"io"

	"github.com/gen2brain/webp"
	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decoder
)

// VariantWidths are the responsive widths made for every photo.
var VariantWidths = []int{480, 960, 1600}

// MaxPixels bounds a photo's decoded size (and so the memory one upload
// can take): 40 megapixels is beyond any phone camera.
const MaxPixels = 40_000_000

// ErrTooManyPixels is returned for photos larger than MaxPixels.
var ErrTooManyPixels = errors.New("photo is larger than 40 megapixels")

// Processed is a photo ready to store: the cleaned original and variants.
type Processed struct {
	Original      []byte
	Width, Height int
	Variants      []Variant
}

// Variant is one WebP rendition.
type Variant struct {
	Width int
	Data  []byte
}

// ProcessImage decodes a photo, applies its EXIF orientation and
// re-encodes it, which drops every metadata block (GPS location included),
// then makes WebP variants no wider than the photo.
func ProcessImage(r io.ReaderAt, size int64, t Type) (*Processed, error) {
	sr := io.NewSectionReader(r, 0, size)
	cfg, _, err := image.DecodeConfig(sr)
	if err != nil {
		return nil, fmt.Errorf("photo cannot be read: %w", err)
	}
	if cfg.Width*cfg.Height > MaxPixels {
		return nil, ErrTooManyPixels
	}
	orientation := 1
	if t.MIME == "image/jpeg" {
		orientation = jpegOrientation(io.NewSectionReader(r, 0, size))
	}
	img, _, err := image.Decode(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, fmt.Errorf("photo cannot be decoded: %w", err)
	}
	img = orient(img, orientation)
	b := img.Bounds()
	p := &Processed{Width: b.Dx(), Height: b.Dy()}
	var buf bytes.Buffer
	switch t.MIME {
	case "image/png":
		err = png.Encode(&buf, img)
	case "image/gif":
		// GIF carries no EXIF block; storing the bytes as sent keeps
		// animation.
		_, err = io.Copy(&buf, io.NewSectionReader(r, 0, size))
	case "image/webp":
		err = webp.Encode(&buf, img, webp.Options{Quality: 90})
	default:
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		return nil, fmt.Errorf("photo cannot be re-encoded: %w", err)
	}
	p.Original = buf.Bytes()
	widths := []int{}
	for _, w := range VariantWidths {
		if w < p.Width {
			widths = append(widths, w)
		}
	}
	if len(widths) == 0 || widths[len(widths)-1] < p.Width && p.Width < VariantWidths[len(VariantWidths)-1] {
		widths = append(widths, p.Width)
	}
	for _, w := range widths {
		h := max(1, p.Height*w/p.Width)
		dst := image.NewNRGBA(image.Rect(0, 0, w, h))
		xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		var vb bytes.Buffer
		if err := webp.Encode(&vb, dst, webp.Options{Quality: 78}); err != nil {
			return nil, fmt.Errorf("webp variant %d: %w", w, err)
		}
		p.Variants = append(p.Variants, Variant{Width: w, Data: vb.Bytes()})
	}
	return p, nil
}

// jpegOrientation reads the EXIF orientation tag (1-8) of a JPEG, or 1.
func jpegOrientation(r io.Reader) int {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || hdr != [2]byte{0xFF, 0xD8} {
		return 1
	}
	for {
		var m [4]byte
		if _, err := io.ReadFull(r, m[:]); err != nil || m[0] != 0xFF {
			return 1
		}
		n := int(binary.BigEndian.Uint16(m[2:])) - 2
		if n < 0 || m[1] == 0xDA { // start of scan: no EXIF before the image data
			return 1
		}
		seg := make([]byte, n)
		if _, err := io.ReadFull(r, seg); err != nil {
			return 1
		}
		if m[1] == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
	}
}

func tiffOrientation(t []byte) int {
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int(bo.Uint32(t[4:8]))
	if off+2 > len(t) {
		return 1
	}
	n := int(bo.Uint16(t[off:]))
	for i := 0; i < n; i++ {
		e := off + 2 + i*12
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			v := int(bo.Uint16(t[e+8:]))
			if v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}

// orient returns img transformed so that orientation 1 displays it right.
func orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			dst.Set(dx, dy, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return dst
}

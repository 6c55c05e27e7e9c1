package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"sync"

	"github.com/gen2brain/webp"
	xwebp "golang.org/x/image/webp"
)

// VariantWidths are the responsive widths made for every photo.
var VariantWidths = []int{480, 960, 1600}

// MaxPixels bounds a photo's size whatever its format: 40 megapixels is
// beyond any phone camera.
const MaxPixels = 40_000_000

// DecodeBudget bounds the memory one photo may take while it is decoded,
// turned, re-encoded and made into WebP variants: 256 MB. The need is
// estimated from the header alone (size, colour model and bit depth, JPEG
// sampling and progressive mode, PNG interlacing, the variants to make)
// before a pixel is decoded, so a small file that inflates to gigabytes
// (a 322 KB 16-bit PNG of one flat colour is 320 MB decoded) is refused
// without being decoded. The server processes one photo at a time, so
// this is also the most photo processing adds to the process. See ADR 008.
const DecodeBudget = 256 << 20

// ErrTooManyPixels matches every TooLargeError.
var ErrTooManyPixels = errors.New("photo is too large to process")

// TooLargeError is a photo whose processing would exceed MaxPixels or
// DecodeBudget. MaxMegapixels is the size accepted for a photo of the
// same kind (format, bit depth, shape).
type TooLargeError struct {
	Width, Height int
	MaxMegapixels float64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("photo is too large to process (%d×%d pixels); photos up to %g megapixels are accepted", e.Width, e.Height, e.MaxMegapixels)
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooManyPixels }

// warmEncoder compiles the WebP encoder's WebAssembly module, once per
// process (~35 MB allocated, ~1 s), before the first photo is measured and
// decoded, so that one-off cost never adds to a photo's.
var warmEncoder = sync.OnceFunc(func() {
	webp.Encode(io.Discard, image.NewNYCbCrA(image.Rect(0, 0, 16, 16), image.YCbCrSubsampleRatio420))
})

// Processed is a processed photo: its size and WebP variants.
type Processed struct {
	Width, Height int
	Variants      []Variant
}

// Variant is one WebP rendition.
type Variant struct {
	Width int
	Data  []byte
}

// ProcessImage checks a photo's decode cost, decodes it, applies its EXIF
// orientation and writes the cleaned original to original (re-encoded, or
// for WebP its image chunks only), which drops every metadata block (GPS
// location included); then it makes WebP variants no wider than the
// photo. The decoder is the one of the sniffed type t, never a guess.
func ProcessImage(r io.ReaderAt, size int64, t Type, original io.Writer) (*Processed, error) {
	img, err := decodeWithinBudget(r, size, t)
	if err != nil {
		return nil, err
	}
	p := &Processed{Width: img.Bounds().Dx(), Height: img.Bounds().Dy()}
	switch t.MIME {
	case "image/png":
		err = png.Encode(original, img)
	case "image/gif":
		// GIF carries no EXIF block; storing the bytes as sent keeps
		// animation. It is served as image/gif only (see the server).
		_, err = io.Copy(original, io.NewSectionReader(r, 0, size))
	case "image/webp":
		err = stripWebP(original, r, size)
	default:
		err = jpeg.Encode(original, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		return nil, fmt.Errorf("photo cannot be re-encoded: %w", err)
	}
	for _, w := range variantWidths(p.Width) {
		h := max(1, p.Height*w/p.Width)
		var vb bytes.Buffer
		if err := webp.Encode(&vb, scaleToYUVA420(img, w, h), webp.Options{Quality: 78}); err != nil {
			return nil, fmt.Errorf("webp variant %d: %w", w, err)
		}
		p.Variants = append(p.Variants, Variant{Width: w, Data: vb.Bytes()})
	}
	return p, nil
}

// decodeWithinBudget checks a photo's decode cost from its header, then
// decodes it with the decoder of the sniffed type t (never a guess), turns
// it by its EXIF orientation and brings it to 8 bits a channel. The cost
// counted is ProcessImage's whole work, so anything that makes less from
// the decoded photo (a poster) stays within DecodeBudget too.
func decodeWithinBudget(r io.ReaderAt, size int64, t Type) (image.Image, error) {
	cfg, err := decodeConfig(io.NewSectionReader(r, 0, size), t.MIME)
	if err != nil {
		return nil, fmt.Errorf("photo cannot be read: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, errors.New("photo cannot be read: it has no pixels")
	}
	h := readHeader(r, size, t.MIME)
	warmEncoder()
	if err := checkCost(cfg, t.MIME, h, false); err != nil {
		return nil, err
	}
	img, err := decode(io.NewSectionReader(r, 0, size), t.MIME)
	if err != nil {
		return nil, fmt.Errorf("photo cannot be decoded: %w", err)
	}
	// Transparency makes the variants' encoding dearer; whether a photo
	// has any is known only now.
	if o, ok := img.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		if err := checkCost(cfg, t.MIME, h, true); err != nil {
			return nil, err
		}
	}
	return to8Bit(orient(img, h.orientation)), nil
}

// checkCost refuses a photo larger than MaxPixels or whose processing
// would allocate more than DecodeBudget.
func checkCost(cfg image.Config, mime string, h header, alpha bool) error {
	if cfg.Width*cfg.Height > MaxPixels || cost(cfg, mime, h, alpha) > DecodeBudget {
		return &TooLargeError{Width: cfg.Width, Height: cfg.Height, MaxMegapixels: maxMegapixels(cfg, mime, h, alpha)}
	}
	return nil
}

// variantWidths are the variant widths for a photo width wide: the
// standard widths below it, and the photo's own width when it is narrower
// than the largest.
func variantWidths(width int) []int {
	widths := []int{}
	for _, w := range VariantWidths {
		if w < width {
			widths = append(widths, w)
		}
	}
	if len(widths) == 0 || widths[len(widths)-1] < width && width < VariantWidths[len(VariantWidths)-1] {
		widths = append(widths, width)
	}
	return widths
}

func decodeConfig(r io.Reader, mime string) (image.Config, error) {
	switch mime {
	case "image/jpeg":
		return jpeg.DecodeConfig(r)
	case "image/png":
		return png.DecodeConfig(r)
	case "image/gif":
		return gif.DecodeConfig(r)
	case "image/webp":
		return xwebp.DecodeConfig(r)
	}
	return image.Config{}, fmt.Errorf("%s is not a photo type", mime)
}

// decode uses golang.org/x/image/webp for WebP: pure Go, so its memory is
// what Cost counts (the libwebp decoder registered by gen2brain/webp
// decodes every frame of an animation inside WebAssembly).
func decode(r io.Reader, mime string) (image.Image, error) {
	switch mime {
	case "image/jpeg":
		return jpeg.Decode(r)
	case "image/png":
		return png.Decode(r)
	case "image/gif":
		return gif.Decode(r)
	case "image/webp":
		return xwebp.Decode(r)
	}
	return nil, fmt.Errorf("%s is not a photo type", mime)
}

// header is what the cost estimate needs beyond image.DecodeConfig, read
// from the file's first segments or chunks.
type header struct {
	orientation int      // EXIF orientation of a JPEG (1-8), 1 otherwise
	progressive bool     // JPEG: the decoder keeps every block's coefficients
	sampling    [][2]int // JPEG: each component's sampling factors; nil if unknown
	interlaced  bool     // PNG: Adam7 passes decode through a second image
}

func readHeader(r io.ReaderAt, size int64, mime string) header {
	h := header{orientation: 1}
	switch mime {
	case "image/jpeg":
		scanJPEG(io.NewSectionReader(r, 0, size), &h)
	case "image/png":
		var b [1]byte
		if _, err := r.ReadAt(b[:], 28); err == nil { // IHDR's interlace method
			h.interlaced = b[0] != 0
		}
	}
	return h
}

// scanJPEG reads the markers before the image data: the EXIF orientation
// (APP1) and the frame header (SOF: progressive or not, and the sampling
// factors). What it cannot read it leaves at the cautious default:
// progressive, sampling unknown.
func scanJPEG(r io.Reader, h *header) {
	h.progressive = true
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || hdr != [2]byte{0xFF, 0xD8} {
		return
	}
	for {
		var m [4]byte
		if _, err := io.ReadFull(r, m[:]); err != nil || m[0] != 0xFF {
			return
		}
		n := int(binary.BigEndian.Uint16(m[2:])) - 2
		if n < 0 || m[1] == 0xDA { // start of scan: the image data follows
			return
		}
		seg := make([]byte, n)
		if _, err := io.ReadFull(r, seg); err != nil {
			return
		}
		switch {
		case m[1] == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" && h.orientation == 1:
			h.orientation = tiffOrientation(seg[6:])
		case m[1] >= 0xC0 && m[1] <= 0xCF && m[1] != 0xC4 && m[1] != 0xC8 && m[1] != 0xCC: // SOFn
			if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
				return
			}
			h.progressive = m[1] == 0xC2 || m[1] == 0xC6 || m[1] == 0xCA || m[1] == 0xCE
			for i := 0; i < int(seg[5]); i++ {
				hv := seg[6+3*i+1]
				h.sampling = append(h.sampling, [2]int{max(1, int(hv>>4)), max(1, int(hv&0x0F))})
			}
			return
		}
	}
}

// jpegOrientation reads the EXIF orientation tag (1-8) of a JPEG, or 1.
func jpegOrientation(r io.Reader) int {
	h := header{orientation: 1}
	scanJPEG(r, &h)
	return h.orientation
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

// to8Bit turns a 16-bit PNG image into its 8-bit form, which is all a web
// page shows. The PNG encoder and the scaler read 16-bit pixels one
// interface value at a time, an allocation each: a 10 megapixel photo made
// over 400 MB of garbage and doubled the peak heap. cost counts the copy.
func to8Bit(img image.Image) image.Image {
	switch m := img.(type) {
	case *image.Gray16:
		out := image.NewGray(m.Rect)
		for i := range out.Pix {
			y, x := i/out.Stride, i%out.Stride
			out.Pix[i] = m.Pix[y*m.Stride+2*x]
		}
		return out
	case *image.RGBA64:
		out := image.NewRGBA(m.Rect)
		for i := range out.Pix {
			y, x := i/out.Stride, i%out.Stride
			out.Pix[i] = m.Pix[y*m.Stride+2*x]
		}
		return out
	case *image.NRGBA64:
		out := image.NewNRGBA(m.Rect)
		for i := range out.Pix {
			y, x := i/out.Stride, i%out.Stride
			out.Pix[i] = m.Pix[y*m.Stride+2*x]
		}
		return out
	}
	return img
}

// orient returns img transformed so that orientation 1 displays it right.
// A JPEG's YCbCr and Gray images are turned plane by plane into the same
// kind of image (1.5 bytes a pixel for 4:2:0, not 4); other images become
// RGBA. Pixels are read from the planes, never through an interface
// value, which would allocate once a pixel. cost counts the copy.
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
	// from maps a pixel of the turned image back to the photo's.
	from := func(dx, dy int) (x, y int) {
		switch o {
		case 2:
			x, y = w-1-dx, dy
		case 3:
			x, y = w-1-dx, h-1-dy
		case 4:
			x, y = dx, h-1-dy
		case 5:
			x, y = dy, dx
		case 6:
			x, y = dy, h-1-dx
		case 7:
			x, y = w-1-dy, h-1-dx
		default: // 8
			x, y = w-1-dy, dx
		}
		return b.Min.X + x, b.Min.Y + y
	}
	switch m := img.(type) {
	case *image.YCbCr:
		if ratio, ok := turnedRatio(m.SubsampleRatio, o >= 5); ok {
			dst := image.NewYCbCr(image.Rect(0, 0, dw, dh), ratio)
			for dy := 0; dy < dh; dy++ {
				for dx := 0; dx < dw; dx++ {
					x, y := from(dx, dy)
					dst.Y[dst.YOffset(dx, dy)] = m.Y[m.YOffset(x, y)]
				}
			}
			sx, sy := subsampling(ratio)
			for cy := 0; cy*sy < dh; cy++ {
				for cx := 0; cx*sx < dw; cx++ {
					x, y := from(cx*sx, cy*sy)
					si, di := m.COffset(x, y), dst.COffset(cx*sx, cy*sy)
					dst.Cb[di], dst.Cr[di] = m.Cb[si], m.Cr[si]
				}
			}
			return dst
		}
	case *image.Gray:
		dst := image.NewGray(image.Rect(0, 0, dw, dh))
		for dy := 0; dy < dh; dy++ {
			for dx := 0; dx < dw; dx++ {
				x, y := from(dx, dy)
				dst.Pix[dst.PixOffset(dx, dy)] = m.Pix[m.PixOffset(x, y)]
			}
		}
		return dst
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for dy := 0; dy < dh; dy++ {
		for dx := 0; dx < dw; dx++ {
			x, y := from(dx, dy)
			r, g, bl, a := img.At(x, y).RGBA()
			i := dst.PixOffset(dx, dy)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = uint8(r>>8), uint8(g>>8), uint8(bl>>8), uint8(a>>8)
		}
	}
	return dst
}

// turnedRatio is the chroma subsampling of a YCbCr image after a turn
// (transpose: a quarter turn or a transposition swaps the axes).
func turnedRatio(r image.YCbCrSubsampleRatio, transpose bool) (image.YCbCrSubsampleRatio, bool) {
	switch r {
	case image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio420:
		return r, true
	case image.YCbCrSubsampleRatio422:
		if transpose {
			return image.YCbCrSubsampleRatio440, true
		}
		return r, true
	case image.YCbCrSubsampleRatio440:
		if transpose {
			return image.YCbCrSubsampleRatio422, true
		}
		return r, true
	}
	return r, false
}

// subsampling is how many pixels, across and down, share a chroma sample.
func subsampling(r image.YCbCrSubsampleRatio) (sx, sy int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	}
	return 1, 1
}

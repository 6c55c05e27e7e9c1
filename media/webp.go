package media

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"io"

	xdraw "golang.org/x/image/draw"
)

// stripWebP writes a still WebP with only the chunks that draw it (VP8X,
// ALPH, VP8, VP8L), so its EXIF, XMP and ICC blocks and anything after the
// RIFF data are dropped without re-encoding: no quality is lost and no
// encoder memory is spent on the full-size photo.
func stripWebP(w io.Writer, r io.ReaderAt, size int64) error {
	var hdr [12]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil || string(hdr[:4]) != "RIFF" || string(hdr[8:]) != "WEBP" {
		return errors.New("webp: no RIFF header")
	}
	end := min(size, 8+int64(binary.LittleEndian.Uint32(hdr[4:])))
	type chunk struct {
		fourcc string
		off, n int64
	}
	var keep []chunk
	total := int64(4) // "WEBP"
	for off := int64(12); off+8 <= end; {
		var ch [8]byte
		if _, err := r.ReadAt(ch[:], off); err != nil {
			return err
		}
		n := int64(binary.LittleEndian.Uint32(ch[4:]))
		if off+8+n > end {
			return errors.New("webp: chunk runs past the end")
		}
		switch fourcc := string(ch[:4]); fourcc {
		case "VP8X", "ALPH", "VP8 ", "VP8L":
			keep = append(keep, chunk{fourcc, off, n})
			total += 8 + n + n%2
		case "ANIM", "ANMF":
			return errors.New("webp: animations are not accepted")
		}
		off += 8 + n + n%2
	}
	if total > 1<<32-1 {
		return errors.New("webp: too large")
	}
	head := make([]byte, 12)
	copy(head, "RIFF")
	binary.LittleEndian.PutUint32(head[4:], uint32(total))
	copy(head[8:], "WEBP")
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, c := range keep {
		buf := make([]byte, 8+c.n+c.n%2)
		if _, err := r.ReadAt(buf[:8+c.n], c.off); err != nil {
			return fmt.Errorf("webp: %w", err)
		}
		if c.fourcc == "VP8X" && c.n >= 1 {
			buf[8] &^= 0x20 | 0x08 | 0x04 // the ICC, EXIF and XMP flags: those chunks are gone
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// scaleToYUVA420 scales img to w x h straight into the YUV and alpha
// planes the WebP encoder takes, through an RGBA strip of 64 rows, so no
// full-size RGBA copy of the variant is made.
func scaleToYUVA420(img image.Image, w, h int) *image.NYCbCrA {
	out := image.NewNYCbCrA(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	const rows = 64 // even: chroma rows pair up inside a strip
	strip := image.NewRGBA(image.Rect(0, 0, w, min(rows, h)))
	for y0 := 0; y0 < h; y0 += rows {
		// A strip with the full variant as its target rectangle: the
		// scaler draws only the rows inside the strip's bounds, exactly
		// as it would draw them in a full-size image.
		s := &image.RGBA{Pix: strip.Pix, Stride: strip.Stride, Rect: image.Rect(0, y0, w, min(y0+rows, h))}
		xdraw.ApproxBiLinear.Scale(s, out.Rect, img, img.Bounds(), draw.Src, nil)
		fillYUVA(out, s)
	}
	return out
}

// fillYUVA writes m's pixels into out at the same place, with libwebp's
// own formulas (BT.601, limited range; chroma averaged over 2x2 pixels,
// weighted by alpha), so colours come out as they did when the encoder
// converted RGBA itself. m must start on an even row. The encoder then
// needs ~15 bytes a pixel where RGBA input costs ~115 (webpEncodeBPP).
func fillYUVA(out *image.NYCbCrA, m *image.RGBA) {
	b := m.Rect
	const fix, half = 16, 1 << 15
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := m.PixOffset(x, y)
			r, g, bl, a := int(m.Pix[i]), int(m.Pix[i+1]), int(m.Pix[i+2]), int(m.Pix[i+3])
			if a != 0 && a != 255 { // RGBA is premultiplied
				r, g, bl = r*255/a, g*255/a, bl*255/a
			}
			out.Y[out.YOffset(x, y)] = uint8((16839*r + 33059*g + 6420*bl + half + 16<<fix) >> fix)
			out.A[out.AOffset(x, y)] = uint8(a)
		}
	}
	for cy := b.Min.Y; cy < b.Max.Y; cy += 2 {
		for cx := b.Min.X; cx < b.Max.X; cx += 2 {
			var r, g, bl, a int
			for _, p := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				x, y := min(cx+p[0], b.Max.X-1), min(cy+p[1], b.Max.Y-1)
				i := m.PixOffset(x, y)
				r, g, bl, a = r+int(m.Pix[i]), g+int(m.Pix[i+1]), bl+int(m.Pix[i+2]), a+int(m.Pix[i+3])
			}
			if a == 0 {
				continue // fully transparent: any colour will do
			}
			// Sums of premultiplied values over the summed alpha: the
			// alpha-weighted average colour, times 4 as libwebp expects.
			r, g, bl = r*255*4/a, g*255*4/a, bl*255*4/a
			ci := out.COffset(cx, cy)
			out.Cb[ci] = clipUV(-9719*r - 19081*g + 28800*bl)
			out.Cr[ci] = clipUV(28800*r - 24116*g - 4684*bl)
		}
	}
}

func clipUV(v int) uint8 {
	v = (v + 1<<17 + 128<<18) >> 18
	return uint8(min(255, max(0, v)))
}

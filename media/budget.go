package media

import (
	"image"
	"image/color"
)

// What the WebP encoder (libwebp in WebAssembly, gen2brain/webp) allocates
// for one variant, its memory's growth included, measured on noise (the
// worst case) at 0.2 to 13 megapixels: ~15 bytes a pixel for an opaque
// YUV 4:2:0 input, 60-90 when there is an alpha channel to compress, and
// a few MB for the module. The constants keep a margin. Fed RGBA the
// encoder took ~115 bytes a pixel, which is why variants are scaled into
// YUVA planes first (scaleToYUVA420).
const (
	webpEncodeBPP      = 18
	webpEncodeAlphaBPP = 96
	webpEncodeFixed    = 8 << 20
)

// costOverhead covers what does not grow with the photo: the decoders'
// and PNG/JPEG encoders' buffers, the EXIF segment, slack.
const costOverhead = 16 << 20

// cost estimates the bytes ProcessImage allocates for a photo, from its
// header alone: the decoded image, the turned copy, and for each variant
// its YUVA planes and the encoder's memory (more when
// the photo has transparency, which is known only once it is decoded).
// Every buffer is counted as if none were freed before the end, so the
// estimate bounds the total allocated, and the peak heap with it,
// whatever the garbage collector's timing.
func cost(cfg image.Config, mime string, h header, alpha bool) int64 {
	w, ht := int64(cfg.Width), int64(cfg.Height)
	c := decodeCost(cfg, mime, h)
	if h.orientation >= 2 {
		c += orientCost(cfg, h)
		if h.orientation >= 5 {
			w, ht = ht, w
		}
	}
	enc := int64(webpEncodeBPP)
	if alpha {
		enc = webpEncodeAlphaBPP
	}
	for _, vw := range variantWidths(int(w)) {
		pv := int64(vw) * max(1, ht*int64(vw)/w)
		c += pv*(3+enc) + webpEncodeFixed // YUVA planes (2.5), encoder
	}
	return c + costOverhead
}

// orientCost is the size of orient's copy of a JPEG: its planes when they
// can be turned as they are (YCbCr 4:4:4, 4:2:2, 4:4:0, 4:2:0, or gray),
// else an RGBA image.
func orientCost(cfg image.Config, h header) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch len(h.sampling) {
	case 1:
		return px
	case 3:
		planes, ratio := jpegPlanes(cfg, h)
		switch ratio {
		case 0x11, 0x12, 0x21, 0x22:
			return planes
		}
	}
	return 4 * px
}

// decodeCost is what the decoder of mime allocates for the image.
func decodeCost(cfg image.Config, mime string, h header) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch mime {
	case "image/jpeg":
		return jpegDecodeCost(cfg, h)
	case "image/png":
		bpp := pngBPP(cfg.ColorModel)
		c := px * bpp
		if h.interlaced {
			c *= 2
		}
		if bpp == 8 {
			c += 4 * px // to8Bit's copy
		}
		return c
	case "image/gif":
		return px // the first frame, paletted; later frames are not decoded
	case "image/webp":
		switch cfg.ColorModel {
		case color.YCbCrModel: // lossy: 4:2:0 planes
			return 2 * px
		case color.NYCbCrAModel: // lossy with alpha, decoded through an NRGBA image
			return 8 * px
		}
		return 12 * px // lossless: ARGB pixels and their transforms
	}
	return 8 * px
}

// pngBPP is the bytes per pixel of the image the PNG decoder returns. A
// transparency chunk turns gray into NRGBA (or NRGBA64), which the header
// does not say, so gray counts as the larger.
func pngBPP(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.RGBAModel, color.NRGBAModel:
		return 4
	case color.Gray16Model, color.RGBA64Model, color.NRGBA64Model:
		return 8 // to8Bit's copy is added by decodeCost
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// jpegDecodeCost follows image/jpeg: one plane per component, padded to
// whole MCUs and sized by its sampling factors; a progressive file also
// keeps every block's coefficients (64 int32 per 64 pixels: 4 bytes per
// plane byte); four components are interleaved into a CMYK image.
func jpegDecodeCost(cfg image.Config, h header) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	planes, _ := jpegPlanes(cfg, h)
	c := planes
	if h.progressive {
		c += 4 * planes
	}
	if len(h.sampling) == 4 || cfg.ColorModel == color.CMYKModel {
		c += 4 * px
	}
	return c
}

// jpegPlanes is the size of a JPEG's decoded planes, and its luma to
// chroma sampling ratio (across<<4 | down; 0x22 is 4:2:0, 0 if unknown).
func jpegPlanes(cfg image.Config, h header) (int64, int) {
	px := int64(cfg.Width) * int64(cfg.Height)
	if len(h.sampling) == 0 {
		if cfg.ColorModel == color.CMYKModel {
			return 4 * px, 0
		}
		return 3 * px, 0
	}
	hmax, vmax := 1, 1
	for _, s := range h.sampling {
		hmax, vmax = max(hmax, s[0]), max(vmax, s[1])
	}
	mxx := (int64(cfg.Width) + int64(8*hmax) - 1) / int64(8*hmax)
	myy := (int64(cfg.Height) + int64(8*vmax) - 1) / int64(8*vmax)
	var planes int64
	for _, s := range h.sampling {
		planes += 64 * int64(s[0]) * mxx * int64(s[1]) * myy
	}
	ratio := 0
	if len(h.sampling) >= 2 {
		ratio = h.sampling[0][0]/h.sampling[1][0]<<4 | h.sampling[0][1]/h.sampling[1][1]
	}
	return planes, ratio
}

// maxMegapixels is the largest photo of the same shape and kind that fits
// both MaxPixels and DecodeBudget, in megapixels rounded down to a tenth,
// for the message. (The cost is not quite monotonic in the width, as the
// set of variants changes at their widths; the search may answer a little
// low, never high.)
func maxMegapixels(cfg image.Config, mime string, h header, alpha bool) float64 {
	fits := func(w int) bool {
		c := cfg
		c.Width, c.Height = w, max(1, cfg.Height*w/cfg.Width)
		return c.Width*c.Height <= MaxPixels && cost(c, mime, h, alpha) <= DecodeBudget
	}
	lo, hi := 1, cfg.Width // lo fits (or is the smallest width), hi does not
	if fits(hi) {
		lo = hi
	}
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	px := lo * max(1, cfg.Height*lo/cfg.Width)
	return float64(px/100_000) / 10
}

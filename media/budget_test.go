package media

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gen2brain/webp"
)

// noise is the worst case for every encoder: nothing compresses.
func noise(w, h int, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8((i*7919 + i/4093) % 251)
		if i%4 == 3 && !alpha {
			img.Pix[i] = 255
		}
	}
	return img
}

// flatPNG makes a PNG of one flat colour (all zero) without holding its
// pixels: w x h at 16 bits a channel, RGBA (colour type 6) or gray (0).
func flatPNG(t *testing.T, w, h int, rgba bool) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		out.Write(c)
		binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ct, bpp := byte(0), 2
	if rgba {
		ct, bpp = 6, 8
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	chunk("IHDR", append(ihdr, 16, ct, 0, 0, 0))
	chunk("IDAT", zeroZlib(h*(1+w*bpp))) // each row: filter byte 0, then zero pixels
	chunk("IEND", nil)
	return out.Bytes()
}

// zeroZlib is a zlib stream of n zero bytes, written directly (deflate
// with fixed codes: one literal 0, then copies of 258 bytes at distance
// 1), which takes milliseconds where compress/zlib takes seconds.
func zeroZlib(n int) []byte {
	out := []byte{0x78, 0x01}
	var acc uint64
	var nbits uint
	put := func(v uint64, bits uint) { // LSB first
		acc |= v << nbits
		nbits += bits
		for nbits >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	code := func(c uint64, bits uint) { // Huffman codes go MSB first
		var r uint64
		for i := uint(0); i < bits; i++ {
			r = r<<1 | c>>i&1
		}
		put(r, bits)
	}
	put(1, 1) // final block
	put(1, 2) // fixed Huffman codes
	code(0x30, 8)
	left := n - 1
	for ; left >= 258; left -= 258 {
		code(0xC5, 8) // length 258 (code 285)
		code(0, 5)    // distance 1
	}
	for ; left > 0; left-- {
		code(0x30, 8)
	}
	code(0, 7) // end of block
	if nbits > 0 {
		put(0, 8-nbits)
	}
	return binary.BigEndian.AppendUint32(out, uint32(n%65521)<<16|1) // Adler-32 of zeros
}

func TestZeroZlib(t *testing.T) {
	for _, n := range []int{1, 3, 258, 259, 1000, 1 << 20} {
		r, err := zlib.NewReader(bytes.NewReader(zeroZlib(n)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil || len(b) != n || bytes.Count(b, []byte{0}) != n {
			t.Fatalf("n=%d: %d bytes, %v", n, len(b), err)
		}
	}
}

// TestDecompressionBombRefusedBeforeDecoding: a small 16-bit PNG within
// the 40 megapixel cap (2 MB here, 300 KB with a better deflate) decodes
// to 320 MB. It is refused from its header: the decoded size counts, not
// the pixel count.
func TestDecompressionBombRefusedBeforeDecoding(t *testing.T) {
	for _, rgba := range []bool{true, false} {
		bomb := flatPNG(t, 8000, 5000, rgba)
		t.Logf("bomb: %d KB for 8000x5000 16-bit (rgba %v)", len(bomb)>>10, rgba)
		ty, err := Sniff(bomb)
		if err != nil {
			t.Fatal(err)
		}
		warmEncoder()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = ProcessImage(bytes.NewReader(bomb), int64(len(bomb)), ty, io.Discard)
		runtime.ReadMemStats(&after)
		var tl *TooLargeError
		if !errors.As(err, &tl) || !errors.Is(err, ErrTooManyPixels) || tl.Width != 8000 || tl.Height != 5000 {
			t.Fatalf("bomb: %v", err)
		}
		if tl.MaxMegapixels <= 0 || tl.MaxMegapixels >= 40 || !strings.Contains(err.Error(), "8000×5000 pixels") {
			t.Errorf("message: %v", err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
			t.Errorf("refusing the bomb allocated %d MB: it was decoded", grew>>20)
		}
	}
}

// TestCostCountsBytesNotPixels: the same size is accepted at 8 bits and
// refused at 16, and a tall photo is refused for its large variants.
func TestCostCountsBytesNotPixels(t *testing.T) {
	h := header{orientation: 1}
	ok := image.Config{Width: 6000, Height: 4000, ColorModel: color.NRGBAModel}
	deep := image.Config{Width: 6000, Height: 4000, ColorModel: color.NRGBA64Model}
	if c := cost(ok, "image/png", h, false); c > DecodeBudget {
		t.Errorf("24 MP 8-bit PNG: cost %d MB", c>>20)
	}
	if c := cost(deep, "image/png", h, false); c <= DecodeBudget {
		t.Errorf("24 MP 16-bit PNG: cost %d MB, within the budget", c>>20)
	}
	tall := image.Config{Width: 2000, Height: 19000, ColorModel: color.YCbCrModel}
	jh := header{orientation: 1, sampling: [][2]int{{2, 2}, {1, 1}, {1, 1}}}
	if c := cost(tall, "image/jpeg", jh, false); c <= DecodeBudget {
		t.Errorf("2000x19000 JPEG (a 1600x15200 variant): cost %d MB, within the budget", c>>20)
	}
	// An ordinary phone photo, turned, progressive or not, fits.
	phone := image.Config{Width: 4032, Height: 3024, ColorModel: color.YCbCrModel}
	for _, p := range []bool{false, true} {
		ph := header{orientation: 6, progressive: p, sampling: [][2]int{{2, 2}, {1, 1}, {1, 1}}}
		if c := cost(phone, "image/jpeg", ph, false); c > DecodeBudget {
			t.Errorf("12 MP phone JPEG (progressive %v): cost %d MB", p, c>>20)
		}
	}
}

// TestProcessImageStaysWithinCost measures what processing really
// allocates (all of it, garbage included, so the peak heap is lower) and
// checks the estimate is above it, for each format and the dear cases:
// turned, 16-bit, transparent, incompressible.
func TestProcessImageStaysWithinCost(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("encodes several photos; measures allocations, which the race detector changes")
	}
	enc := func(f func(w io.Writer) error) []byte {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	deep := image.NewRGBA64(image.Rect(0, 0, 1200, 900))
	for i := range deep.Pix {
		deep.Pix[i] = uint8(i * 13 % 253)
		if i%8 >= 6 {
			deep.Pix[i] = 255
		}
	}
	pal := image.NewPaletted(image.Rect(0, 0, 1500, 1000), color.Palette{color.Black, color.White, color.RGBA{200, 30, 30, 255}})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i * 7 % 3)
	}
	cases := map[string][]byte{
		"jpeg turned": jpegBytes(t, 2000, 1500, 6),
		"jpeg noise":  enc(func(w io.Writer) error { return jpeg.Encode(w, noise(2000, 1500, false), &jpeg.Options{Quality: 95}) }),
		"png":         enc(func(w io.Writer) error { return png.Encode(w, noise(1500, 1000, false)) }),
		"png alpha":   enc(func(w io.Writer) error { return png.Encode(w, noise(1200, 800, true)) }),
		"png 16-bit":  enc(func(w io.Writer) error { return png.Encode(w, deep) }),
		"gif":         enc(func(w io.Writer) error { return gif.Encode(w, pal, nil) }),
		"webp":        enc(func(w io.Writer) error { return webp.Encode(w, noise(1500, 1000, false), webp.Options{Quality: 85}) }),
		"webp alpha":  enc(func(w io.Writer) error { return webp.Encode(w, noise(1000, 700, true), webp.Options{Quality: 85}) }),
		"webp lossless": enc(func(w io.Writer) error {
			return webp.Encode(w, noise(1000, 700, false), webp.Options{Lossless: true})
		}),
	}
	warmEncoder()
	for name, src := range cases {
		ty, err := Sniff(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg, _ := decodeConfig(bytes.NewReader(src), ty.MIME)
		img, _ := decode(bytes.NewReader(src), ty.MIME)
		o, isOpaque := img.(interface{ Opaque() bool })
		est := cost(cfg, ty.MIME, readHeader(bytes.NewReader(src), int64(len(src)), ty.MIME), !isOpaque || !o.Opaque())
		img = nil
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = ProcessImage(bytes.NewReader(src), int64(len(src)), ty, io.Discard)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := int64(after.TotalAlloc - before.TotalAlloc)
		t.Logf("%-13s %dx%d: allocated %3d MB, estimated %3d MB", name, cfg.Width, cfg.Height, got>>20, est>>20)
		if got > est {
			t.Errorf("%s: allocated %d MB, more than the %d MB estimate", name, got>>20, est>>20)
		}
	}
}

// TestOrientPlanes: turning YCbCr and gray images plane by plane gives
// the same pixels as the generic path, for every orientation.
func TestOrientPlanes(t *testing.T) {
	ycc := image.NewYCbCr(image.Rect(0, 0, 7, 4), image.YCbCrSubsampleRatio444)
	for i := range ycc.Y {
		ycc.Y[i], ycc.Cb[i], ycc.Cr[i] = uint8(i*9), uint8(255-i*5), uint8(i*3+40)
	}
	gray := image.NewGray(image.Rect(0, 0, 5, 3))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 17)
	}
	type hidden struct{ image.Image } // hides the type: the generic path
	for _, src := range []image.Image{ycc, gray} {
		for o := 2; o <= 8; o++ {
			fast, slow := orient(src, o), orient(hidden{src}, o)
			if fast.Bounds() != slow.Bounds() {
				t.Fatalf("%T o=%d: bounds %v, want %v", src, o, fast.Bounds(), slow.Bounds())
			}
			for y := 0; y < slow.Bounds().Dy(); y++ {
				for x := 0; x < slow.Bounds().Dx(); x++ {
					if a, b := color.RGBAModel.Convert(fast.At(x, y)), slow.At(x, y); a != b {
						t.Fatalf("%T o=%d (%d,%d): %v, want %v", src, o, x, y, a, b)
					}
				}
			}
		}
	}
}

// TestVariantColours: the YUV conversion feeding the WebP encoder keeps
// colours.
func TestVariantColours(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 64, 16))
	want := []color.RGBA{{220, 20, 20, 255}, {20, 200, 40, 255}, {30, 40, 210, 255}, {250, 250, 250, 255}}
	for x := 0; x < 64; x++ {
		for y := 0; y < 16; y++ {
			m.SetRGBA(x, y, want[x/16])
		}
	}
	var b bytes.Buffer
	if err := webp.Encode(&b, scaleToYUVA420(m, 64, 16), webp.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	// gen2brain's decoder hands back libwebp's YUV planes; turn them into
	// RGB with libwebp's formulas, as a browser does (Go's YCbCr colour
	// model is full range, WebP's is not).
	got, err := webp.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	yuv := got.(*image.NYCbCrA)
	hi := func(v, c int) int { return v * c >> 8 }
	clip := func(v int) int { return min(255, max(0, v>>6)) }
	for i, w := range want {
		x, y := i*16+8, 8
		Y, U, V := int(yuv.Y[yuv.YOffset(x, y)]), int(yuv.Cb[yuv.COffset(x, y)]), int(yuv.Cr[yuv.COffset(x, y)])
		r := clip(hi(Y, 19077) + hi(V, 26149) - 14234)
		g := clip(hi(Y, 19077) - hi(U, 6419) - hi(V, 13320) + 8708)
		bl := clip(hi(Y, 19077) + hi(U, 33050) - 17685)
		if d := max(abs(r-int(w.R)), abs(g-int(w.G)), abs(bl-int(w.B))); d > 8 {
			t.Errorf("patch %d: got %d,%d,%d, want %v", i, r, g, bl, w)
		}
	}
}

func abs(v int) int { return max(v, -v) }

// TestWebPMetadataDropped: a WebP's EXIF block (GPS location) is not in
// the stored original, which still decodes, with VP8X's flags cleared.
func TestWebPMetadataDropped(t *testing.T) {
	var simple bytes.Buffer
	webp.Encode(&simple, noise(40, 30, false), webp.Options{Quality: 80})
	vp8 := simple.Bytes()[12:]                             // the VP8 chunk of a simple-format file
	vp8x := []byte("VP8X\x0a\x00\x00\x00\x08\x00\x00\x00") // flags: EXIF
	vp8x = append(vp8x, 39, 0, 0, 29, 0, 0)
	exif := []byte("EXIF\x1a\x00\x00\x00GPS-SECRET 33.75N 84.39W..")
	body := append(append(append([]byte("WEBP"), vp8x...), vp8...), exif...)
	src := append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
	src = append(src, "<script>trailing</script>"...)
	ty, err := Sniff(src)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p, err := ProcessImage(bytes.NewReader(src), int64(len(src)), ty, &out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte("GPS-SECRET")) || bytes.Contains(out.Bytes(), []byte("script")) {
		t.Error("metadata or trailing bytes kept")
	}
	if out.Bytes()[20]&0x08 != 0 {
		t.Error("VP8X still flags an EXIF chunk")
	}
	if cfg, err := webp.DecodeConfig(bytes.NewReader(out.Bytes())); err != nil || cfg.Width != 40 || p.Width != 40 {
		t.Errorf("stored original: %v %v", cfg, err)
	}
}

package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"strings"
	"testing"
	"time"
)

func TestFolderSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Kitchen Fire Repair":         "kitchen-fire-repair",
		"  Smith's Basement -- 2026!": "smith-s-basement-2026",
		"../../etc/passwd":            "etc-passwd",
		"..":                          "",
		"Roof/Repair\\Marietta":       "roof-repair-marietta",
		"ÉCOLE Café":                  "cole-caf",
	} {
		if got := FolderSlug(in); got != want {
			t.Errorf("FolderSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStoredName(t *testing.T) {
	now := time.UnixMilli(1732262400123)
	for _, ext := range []string{"jpg", "mov", "gif", "webm"} {
		got := StoredName(ext, now)
		if !strings.HasPrefix(got, "1732262400123-") || !strings.HasSuffix(got, "."+ext) || strings.ContainsAny(got, "/\\ ") || len(got) != len("1732262400123-abcdefgh.")+len(ext) {
			t.Errorf("StoredName(%q) = %q", ext, got)
		}
	}
	if StoredName("jpg", now) == StoredName("jpg", now) {
		t.Error("two names in the same millisecond collide")
	}
}

func TestSniff(t *testing.T) {
	jpg := jpegBytes(t, 4, 2, 0)
	mp4 := append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2")...)
	mov := append([]byte{0, 0, 0, 0x14}, []byte("ftypqt  \x00\x00\x02\x00qt  ")...)
	heic := append([]byte{0, 0, 0, 0x18}, []byte("ftypheic\x00\x00\x00\x00mif1heic")...)
	webm := []byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, 'w', 'e', 'b', 'm'}
	mkv := []byte{0x1A, 0x45, 0xDF, 0xA3, 0xA3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88, 'm', 'a', 't', 'r', 'o', 's', 'k', 'a'}
	avi := []byte("RIFF\x00\x00\x00\x00AVI LIST")
	cases := []struct {
		name string
		head []byte
		mime string
	}{
		{"jpeg", jpg, "image/jpeg"}, {"mp4", mp4, "video/mp4"}, {"mov", mov, "video/quicktime"},
		{"webm", webm, "video/webm"}, {"mkv", mkv, "video/x-matroska"}, {"avi", avi, "video/x-msvideo"},
		{"text", []byte("hello, this is not an image"), ""}, {"html", []byte("<!doctype html><script>"), ""},
		{"svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script/></svg>`), ""},
		{"heic", heic, ""}, {"exe", []byte("MZ\x90\x00\x03"), ""},
	}
	for _, c := range cases {
		got, err := Sniff(c.head)
		if c.mime == "" {
			var eu *ErrUnsupported
			if !errors.As(err, &eu) {
				t.Errorf("%s: accepted as %v", c.name, got)
			}
			continue
		}
		if err != nil || got.MIME != c.mime {
			t.Errorf("%s: %v %v, want %s", c.name, got, err, c.mime)
		}
	}
}

// jpegBytes encodes a w x h JPEG whose left half is red, with an EXIF
// block holding the orientation (when non-zero) and a fake GPS marker.
func jpegBytes(t *testing.T, w, h, orientation int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{0, 0, 255, 255}
			if x < w/2 {
				c = color.RGBA{255, 0, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95})
	if orientation == 0 {
		return buf.Bytes()
	}
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2a")
	binary.Write(&tiff, binary.BigEndian, uint32(8))
	binary.Write(&tiff, binary.BigEndian, uint16(1))
	binary.Write(&tiff, binary.BigEndian, []uint16{0x0112, 3})
	binary.Write(&tiff, binary.BigEndian, uint32(1))
	binary.Write(&tiff, binary.BigEndian, []uint16{uint16(orientation), 0})
	binary.Write(&tiff, binary.BigEndian, uint32(0))
	tiff.WriteString("GPS-SECRET-LOCATION 33.7515N 84.7477W")
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	out := append([]byte{0xFF, 0xD8}, seg...)
	out = append(out, payload...)
	return append(out, buf.Bytes()[2:]...)
}

func TestProcessImageOrientsAndStripsMetadata(t *testing.T) {
	src := jpegBytes(t, 2000, 1000, 6) // 6: rotate 90° clockwise to display
	if o := jpegOrientation(bytes.NewReader(src)); o != 6 {
		t.Fatalf("orientation read %d, want 6", o)
	}
	ty, _ := Sniff(src)
	var orig bytes.Buffer
	p, err := ProcessImage(bytes.NewReader(src), int64(len(src)), ty, &orig)
	if err != nil {
		t.Fatal(err)
	}
	if p.Width != 1000 || p.Height != 2000 {
		t.Errorf("size %dx%d, want 1000x2000 after rotation", p.Width, p.Height)
	}
	if bytes.Contains(orig.Bytes(), []byte("GPS-SECRET")) || bytes.Contains(orig.Bytes(), []byte("Exif")) {
		t.Error("stored original still carries the EXIF block")
	}
	// After a 90° clockwise turn the red left half is on top.
	img, _ := jpeg.Decode(bytes.NewReader(orig.Bytes()))
	if r, _, b, _ := img.At(500, 200).RGBA(); r < b {
		t.Error("top of the turned photo is not red")
	}
	var widths []int
	for _, v := range p.Variants {
		widths = append(widths, v.Width)
		if !bytes.HasPrefix(v.Data, []byte("RIFF")) || !bytes.Contains(v.Data[:16], []byte("WEBP")) {
			t.Errorf("variant %d is not WebP", v.Width)
		}
	}
	if len(widths) != 3 || widths[0] != 480 || widths[1] != 960 || widths[2] != 1000 {
		t.Errorf("variant widths %v, want [480 960 1000]", widths)
	}
}

func TestProcessImageRejectsHugeAndBroken(t *testing.T) {
	var buf bytes.Buffer
	// A PNG header claiming 10000x10000 pixels (the pixels never come).
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, []uint32{10000, 10000})
	ihdr.Write([]byte{8, 2, 0, 0, 0})
	buf.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"))
	buf.Write(ihdr.Bytes())
	binary.Write(&buf, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	if _, err := ProcessImage(bytes.NewReader(buf.Bytes()), int64(buf.Len()), Type{MIME: "image/png"}, io.Discard); !errors.Is(err, ErrTooManyPixels) {
		t.Errorf("huge PNG: %v", err)
	}
	junk := append(jpegBytes(t, 8, 8, 0)[:40], []byte("garbage")...)
	if _, err := ProcessImage(bytes.NewReader(junk), int64(len(junk)), Type{MIME: "image/jpeg"}, io.Discard); err == nil {
		t.Error("truncated JPEG accepted")
	}
}

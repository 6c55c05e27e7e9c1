package media

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// bombPNG is a 16-bit RGBA PNG of one flat colour: ~300 KB on disk, w*h*8
// bytes decoded. It is streamed, never held as pixels.
func bombPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		out.Write(c)
		binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	chunk("IHDR", append(ihdr, 16, 6, 0, 0, 0))
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, 1+w*8)
	for y := 0; y < h; y++ {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// TestUploadPNGBombRejected: a 16-bit PNG within the 40 megapixel cap
// that decodes to 320 MB is refused with 413 from its header, without
// being decoded; an ordinary photo still goes through.
func TestUploadPNGBombRejected(t *testing.T) {
	// Not parallel: it measures the process's allocations.
	mr := newRoom(t)
	store := mr.store
	bomb := bombPNG(t, 8000, 5000)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := mr.upload(t, "Bomb", "flat.png", bomb)
	runtime.ReadMemStats(&after)
	if r.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(r.Body, "too large to process (8000×5000 pixels)") || !strings.Contains(r.Body, "megapixels are accepted") {
		t.Fatalf("bomb (%d KB): %d %s", len(bomb)>>10, r.StatusCode, r.Body)
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("bomb: %d KB file, 320 MB decoded; the request allocated %d MB in all", len(bomb)>>10, grew>>20)
	if grew > 64<<20 {
		t.Errorf("the rejected bomb allocated %d MB: it was decoded", grew>>20)
	}
	if rows, _ := store.ListMedia(context.Background()); len(rows) != 0 {
		t.Errorf("%d rows after the bomb", len(rows))
	}
	if r := mr.upload(t, "Bomb", "ordinary.jpg", testJPEG(t, 1600, 1200)); r.StatusCode != http.StatusCreated {
		t.Errorf("ordinary photo after the bomb: %d %s", r.StatusCode, r.Body)
	}
}

// TestUploadLongProjectName: a 10,000-character project name is a 400
// with a message, not a 500; 100 characters are accepted.
func TestUploadLongProjectName(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	r := mr.upload(t, strings.Repeat("a", 10_000), "a.jpg", testJPEG(t, 20, 20))
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "at most 100 characters") {
		t.Errorf("10,000 characters: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.upload(t, "  "+strings.Repeat("é", 101)+"  ", "a.jpg", testJPEG(t, 20, 20)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("101 characters: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.upload(t, "  "+strings.Repeat("Kitchen ", 12)+"Job", "a.jpg", testJPEG(t, 20, 20)); r.StatusCode != http.StatusCreated {
		t.Errorf("99 characters: %d %s", r.StatusCode, r.Body)
	}
}

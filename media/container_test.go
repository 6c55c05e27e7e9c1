package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// box is one ISO BMFF box: 32-bit size, type, payload.
func box(typ string, payload []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(8+len(payload)))
	return append(append(b, typ...), payload...)
}

// ebml is one EBML element with a one-byte size (payloads under 127).
func ebml(id []byte, payload []byte) []byte {
	return append(append(append([]byte{}, id...), 0x80|byte(len(payload))), payload...)
}

func webmHead(docType string) []byte {
	hdr := ebml([]byte{0x42, 0x86}, []byte{1})
	hdr = append(hdr, ebml([]byte{0x42, 0x82}, []byte(docType))...)
	hdr = append(hdr, ebml([]byte{0x42, 0x87}, []byte{4})...)
	out := ebml([]byte{0x1A, 0x45, 0xDF, 0xA3}, hdr)
	return append(out, 0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF) // Segment, unknown size
}

func aviHead() []byte {
	avih := append([]byte("avih"), binary.LittleEndian.AppendUint32(nil, 56)...)
	avih = append(avih, make([]byte, 56)...)
	list := append([]byte("LIST"), binary.LittleEndian.AppendUint32(nil, uint32(4+len(avih)))...)
	list = append(append(list, "hdrl"...), avih...)
	movi := append([]byte("LIST"), binary.LittleEndian.AppendUint32(nil, 4)...)
	movi = append(movi, "movi"...)
	body := append(append([]byte("AVI "), list...), movi...)
	return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
}

var (
	ftypISOM = box("ftyp", []byte("isom\x00\x00\x02\x00isomiso2avc1mp41"))
	ftypQT   = box("ftyp", []byte("qt  \x20\x05\x03\x00qt  \x00\x00\x00\x00\x00\x00\x00\x00"))
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestCheckVideoAcceptsRealContainers(t *testing.T) {
	big := bytes.Repeat([]byte{0x5A}, SniffLen)
	cases := []struct {
		name  string
		head  []byte
		whole bool
	}{
		{"mp4 whole", cat(ftypISOM, box("free", nil), box("mdat", []byte("frames")), box("moov", box("mvhd", make([]byte, 100)))), true},
		{"mp4 fast start, cut", cat(ftypISOM, box("moov", big))[:SniffLen], false},
		{"mp4 mdat to the end", cat(ftypISOM, []byte{0, 0, 0, 0}, []byte("mdat"), big)[:SniffLen], false},
		{"mp4 64-bit mdat", cat(ftypISOM, []byte{0, 0, 0, 1}, []byte("mdat"), binary.BigEndian.AppendUint64(nil, 1<<33), big)[:SniffLen], false},
		{"mov", cat(ftypQT, box("wide", nil), box("mdat", big))[:SniffLen], false},
		{"webm", cat(webmHead("webm"), big)[:SniffLen], false},
		{"mkv", cat(webmHead("matroska"), big)[:SniffLen], false},
		{"avi", aviHead(), true},
	}
	for _, c := range cases {
		ty, err := Sniff(c.head)
		if err != nil || ty.Kind != "video" {
			t.Errorf("%s: sniffed %v %v", c.name, ty, err)
			continue
		}
		if err := CheckVideo(ty, c.head, c.whole); err != nil {
			t.Errorf("%s (%s): %v", c.name, ty.MIME, err)
		}
	}
}

// TestCheckVideoRejectsPolyglots: bytes that sniff as a video but are
// markup or script behind a fake header fail the container check.
func TestCheckVideoRejectsPolyglots(t *testing.T) {
	script := []byte("<html><body><script>alert(document.domain)</script></body></html>")
	long := bytes.Repeat(script, SniffLen/len(script)+1)
	cases := []struct {
		name  string
		head  []byte
		whole bool
	}{
		{"ftyp then html", cat(ftypISOM, script), true},
		{"ftyp then html, long", cat(ftypISOM, long)[:SniffLen], false},
		{"bare ftyp header then script", cat([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2"), script), true},
		{"script in the brands", cat(box("ftyp", []byte("isom\x00\x00\x02\x00<scr")), script), true},
		{"ftyp too short", cat([]byte{0, 0, 0, 0x0C}, []byte("ftypisom"), script), true},
		{"ftyp claims the whole file", cat([]byte{0, 0x10, 0, 0}, []byte("ftypisom\x00\x00\x02\x00"), long)[:SniffLen], false},
		{"whole mp4 without moov", cat(ftypISOM, box("mdat", []byte("x"))), true},
		{"box past the end", cat(ftypISOM, box("moov", nil), []byte{0, 0, 1, 0}, []byte("mdat")), true},
		{"quicktime then html", cat(ftypQT, script), true},
		{"ebml then html", cat(webmHead("webm")[:len(webmHead("webm"))-12], script), false},
		{"ebml doctype html", cat(webmHead("html"), long)[:SniffLen], false},
		{"ebml header cut", []byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84, 'w', 'e', 'b', 'm'}, true},
		{"riff avi then html", cat([]byte("RIFF\x00\x10\x00\x00AVI "), long)[:SniffLen], false},
	}
	for _, c := range cases {
		ty, err := Sniff(c.head)
		if err != nil {
			t.Errorf("%s: not even sniffed as a video (%v): the case tests nothing", c.name, err)
			continue
		}
		err = CheckVideo(ty, c.head, c.whole)
		var em *ErrMalformed
		if !errors.As(err, &em) {
			t.Errorf("%s: accepted as %s", c.name, ty.MIME)
			continue
		}
		t.Logf("%s: %v", c.name, err)
		if !strings.Contains(err.Error(), ty.MIME) {
			t.Errorf("%s: message %q", c.name, err)
		}
	}
}

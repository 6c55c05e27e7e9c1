package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// SniffLen is how much of an upload is peeked before anything is stored:
// enough for the container check below to walk the first boxes or
// elements, small enough that the rest still streams.
const SniffLen = 64 << 10

// ErrMalformed is a file that starts like a video but whose container does
// not hold together: a polyglot (a fake "ftyp" header in front of HTML or
// script) or a damaged file.
type ErrMalformed struct{ Detected, Reason string }

func (e *ErrMalformed) Error() string {
	return fmt.Sprintf("this file starts like a video (%s) but is not a valid one (%s)", e.Detected, e.Reason)
}

// CheckVideo checks the container structure of a file Sniff called a
// video, from its first bytes. whole says head is the entire file; when it
// is not, structures that run past head are accepted as far as they go.
// The check is cheap and structural, not a full parse: it keeps bytes that
// are not a video at all (HTML, script) from being stored as one.
func CheckVideo(t Type, head []byte, whole bool) error {
	var reason string
	switch t.MIME {
	case "video/mp4", "video/quicktime":
		reason = checkBMFF(head, whole)
	case "video/webm", "video/x-matroska":
		reason = checkEBML(head, t.MIME)
	case "video/x-msvideo":
		reason = checkAVI(head, whole)
	default:
		reason = "unknown video type"
	}
	if reason != "" {
		return &ErrMalformed{Detected: t.MIME, Reason: reason}
	}
	return nil
}

// checkBMFF walks the top-level boxes of an MP4 or QuickTime file (ISO
// base media file format): each is a 32-bit size and a four-character
// type, the first is "ftyp" with a plausible brand, and the sizes chain
// exactly. A whole file must also hold the movie header ("moov").
func checkBMFF(head []byte, whole bool) string {
	off, sawMoov := 0, false
	for off < len(head) {
		if len(head)-off < 8 {
			if whole {
				return "truncated box header"
			}
			break
		}
		size := uint64(binary.BigEndian.Uint32(head[off:]))
		typ := head[off+4 : off+8]
		hdr := uint64(8)
		if !boxType(typ) {
			return fmt.Sprintf("box type %q at byte %d", typ, off)
		}
		switch size {
		case 0: // the box runs to the end of the file
			if off == 0 {
				return "empty ftyp box"
			}
			size = uint64(len(head) - off)
			if !whole {
				size = 1<<63 - 1
			}
		case 1: // a 64-bit size follows the type
			if len(head)-off < 16 {
				if whole {
					return "truncated box header"
				}
				return ""
			}
			size, hdr = binary.BigEndian.Uint64(head[off+8:]), 16
		}
		if size < hdr {
			return fmt.Sprintf("box size %d at byte %d", size, off)
		}
		if off == 0 {
			if string(typ) != "ftyp" {
				return "first box is not ftyp"
			}
			if r := checkFtyp(head, size); r != "" {
				return r
			}
		}
		if string(typ) == "moov" {
			sawMoov = true
		}
		if size > uint64(len(head)-off) {
			if whole {
				return fmt.Sprintf("box %q runs past the end of the file", typ)
			}
			break // the rest of this box is beyond what was peeked
		}
		off += int(size)
	}
	if whole && !sawMoov {
		return "no movie header (moov box)"
	}
	return ""
}

// checkFtyp checks the file-type box: a major brand, a minor version and
// whole compatible brands, all made of letters, digits and spaces (a
// compatible brand of four zero bytes occurs in QuickTime files).
func checkFtyp(head []byte, size uint64) string {
	if size < 16 || size > 1024 || (size-16)%4 != 0 {
		return fmt.Sprintf("ftyp box size %d", size)
	}
	if uint64(len(head)) < size {
		return "truncated ftyp box"
	}
	if !brand(head[8:12], false) {
		return fmt.Sprintf("major brand %q", head[8:12])
	}
	for i := uint64(16); i < size; i += 4 {
		if !brand(head[i:i+4], true) {
			return fmt.Sprintf("compatible brand %q", head[i:i+4])
		}
	}
	return ""
}

func brand(b []byte, zeroOK bool) bool {
	if zeroOK && bytes.Equal(b, []byte{0, 0, 0, 0}) {
		return true
	}
	for _, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ') {
			return false
		}
	}
	return b[0] != ' '
}

// boxType reports a plausible box type: letters, digits, space or
// underscore, so markup ("<htm", "ipt>") is never one.
func boxType(b []byte) bool {
	for _, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '_') {
			return false
		}
	}
	return b[0] != ' '
}

// checkEBML checks a WebM or Matroska file: the EBML header element is
// whole, its children chain exactly, its DocType is "webm" or "matroska"
// (and matches what Sniff said), and a Segment element follows it.
func checkEBML(head []byte, mime string) string {
	if !bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}) {
		return "no EBML header"
	}
	size, n := ebmlVint(head[4:], false)
	if n == 0 || size > 4096 {
		return "EBML header size"
	}
	start := 4 + n
	end := start + int(size)
	if end > len(head) {
		return "truncated EBML header"
	}
	docType := ""
	for off := start; off < end; {
		id, idn := ebmlVint(head[off:end], true)
		if idn == 0 {
			return fmt.Sprintf("element id at byte %d", off)
		}
		sz, szn := ebmlVint(head[off+idn:end], false)
		if szn == 0 || uint64(end-off-idn-szn) < sz {
			return fmt.Sprintf("element size at byte %d", off)
		}
		data := head[off+idn+szn : off+idn+szn+int(sz)]
		if id == 0x4282 {
			docType = string(bytes.TrimRight(data, "\x00"))
		}
		off += idn + szn + int(sz)
	}
	want := map[string]string{"webm": "video/webm", "matroska": "video/x-matroska"}[docType]
	if want == "" {
		return fmt.Sprintf("DocType %q", docType)
	}
	if want != mime {
		return fmt.Sprintf("DocType %q for %s", docType, mime)
	}
	if len(head) >= end+4 && !bytes.Equal(head[end:end+4], []byte{0x18, 0x53, 0x80, 0x67}) {
		return "no Segment after the EBML header"
	}
	if len(head) < end+4 && len(head) > end {
		return "truncated Segment"
	}
	return ""
}

// ebmlVint reads an EBML variable-length integer: the count of leading
// zero bits of the first byte gives its length. Element ids keep their
// length marker (that is how they are written down); sizes drop it. It
// returns n == 0 when the bytes do not hold one.
func ebmlVint(b []byte, keepMarker bool) (v uint64, n int) {
	if len(b) == 0 || b[0] == 0 {
		return 0, 0
	}
	n = 1
	for mask := byte(0x80); b[0]&mask == 0; mask >>= 1 {
		n++
	}
	if n > 8 || len(b) < n || (keepMarker && n > 4) {
		return 0, 0
	}
	v = uint64(b[0])
	if !keepMarker {
		v &= uint64(0xFF >> n)
	}
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(b[i])
	}
	return v, n
}

// checkAVI checks a RIFF AVI file: "RIFF", a size, "AVI ", and first a
// "LIST" chunk of type "hdrl" starting with the main header "avih".
func checkAVI(head []byte, whole bool) string {
	if len(head) < 32 || string(head[:4]) != "RIFF" || string(head[8:12]) != "AVI " {
		return "no RIFF AVI header"
	}
	riff := binary.LittleEndian.Uint32(head[4:])
	if riff < 4+8+4 || (whole && uint64(riff)+8 > uint64(len(head))+1) {
		return fmt.Sprintf("RIFF size %d", riff)
	}
	if string(head[12:16]) != "LIST" || string(head[20:24]) != "hdrl" || string(head[24:28]) != "avih" {
		return "no hdrl header list"
	}
	if list := binary.LittleEndian.Uint32(head[16:]); list < 4+8 || list > riff-4 {
		return fmt.Sprintf("hdrl size %d", list)
	}
	return ""
}

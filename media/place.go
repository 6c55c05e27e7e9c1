package media

import (
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"time"
)

// Place is where and when a photo was taken, as its EXIF said before the
// metadata was stripped (ADR 061). The position is rounded to 0.01 degree
// (about 1 km) as it is read: the exact one is never kept, returned or
// logged. HasPosition is false when the photo said nothing possible (no
// GPS block, a value outside -90..90 / -180..180, 0,0, not a number);
// Month ('YYYY-MM') is "" when it had no possible DateTimeOriginal.
type Place struct {
	Lat, Lng    float64
	HasPosition bool
	Month       string
}

// maxEXIF bounds the metadata block read from a WebP's EXIF chunk (a
// JPEG's APP1 segment is at most 64 KB by its format).
const maxEXIF = 1 << 20

// ReadPlace reads a photo's EXIF position and time: JPEG (the APP1 Exif
// segment) and WebP (the EXIF chunk). Other types, and anything it cannot
// read, give the zero Place: a photo without a place is still a photo.
func ReadPlace(r io.ReaderAt, size int64, t Type) Place {
	var tiff []byte
	switch t.MIME {
	case "image/jpeg":
		tiff = jpegEXIF(io.NewSectionReader(r, 0, size))
	case "image/webp":
		tiff = webpEXIF(r, size)
	}
	if tiff == nil {
		return Place{}
	}
	return placeFromTIFF(tiff, time.Now().UTC())
}

// jpegEXIF returns the TIFF block of a JPEG's Exif APP1 segment, or nil.
func jpegEXIF(r io.Reader) []byte {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || hdr != [2]byte{0xFF, 0xD8} {
		return nil
	}
	for {
		var m [4]byte
		if _, err := io.ReadFull(r, m[:]); err != nil || m[0] != 0xFF {
			return nil
		}
		n := int(binary.BigEndian.Uint16(m[2:])) - 2
		if n < 0 || m[1] == 0xDA {
			return nil
		}
		seg := make([]byte, n)
		if _, err := io.ReadFull(r, seg); err != nil {
			return nil
		}
		if m[1] == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return seg[6:]
		}
	}
}

// webpEXIF returns the TIFF block of a WebP's EXIF chunk, or nil.
func webpEXIF(r io.ReaderAt, size int64) []byte {
	var hdr [12]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil || string(hdr[:4]) != "RIFF" || string(hdr[8:]) != "WEBP" {
		return nil
	}
	for off := int64(12); off+8 <= size; {
		var ch [8]byte
		if _, err := r.ReadAt(ch[:], off); err != nil {
			return nil
		}
		n := int64(binary.LittleEndian.Uint32(ch[4:]))
		if string(ch[:4]) == "EXIF" {
			if n > maxEXIF || off+8+n > size {
				return nil
			}
			b := make([]byte, n)
			if _, err := r.ReadAt(b, off+8); err != nil {
				return nil
			}
			if len(b) > 6 && string(b[:6]) == "Exif\x00\x00" {
				b = b[6:]
			}
			return b
		}
		off += 8 + n + n%2
	}
	return nil
}

// tiffReader reads entries of a TIFF block's IFDs, bounds-checked.
type tiffReader struct {
	b  []byte
	bo binary.ByteOrder
}

type ifdEntry struct {
	tag, typ uint16
	count    uint32
	at       int // offset of the entry's 4-byte value field
}

// ifd reads the entries of the IFD at off, or nil.
func (t tiffReader) ifd(off int) map[uint16]ifdEntry {
	if off < 8 || off+2 > len(t.b) {
		return nil
	}
	n := int(t.bo.Uint16(t.b[off:]))
	out := make(map[uint16]ifdEntry, n)
	for i := 0; i < n; i++ {
		e := off + 2 + i*12
		if e+12 > len(t.b) {
			break
		}
		out[t.bo.Uint16(t.b[e:])] = ifdEntry{tag: t.bo.Uint16(t.b[e:]), typ: t.bo.Uint16(t.b[e+2:]), count: t.bo.Uint32(t.b[e+4:]), at: e + 8}
	}
	return out
}

// long is a LONG entry's value (an IFD pointer), or 0.
func (t tiffReader) long(e ifdEntry, ok bool) int {
	if !ok || e.typ != 4 || e.count != 1 {
		return 0
	}
	return int(t.bo.Uint32(t.b[e.at:]))
}

// data is where an entry's values are: in the value field when they fit
// in 4 bytes, else at the offset it holds; nil when out of bounds.
func (t tiffReader) data(e ifdEntry, size int) []byte {
	if size <= 0 || size > 1<<16 {
		return nil
	}
	if size <= 4 {
		return t.b[e.at : e.at+size]
	}
	off := int(t.bo.Uint32(t.b[e.at:]))
	if off < 0 || off+size > len(t.b) {
		return nil
	}
	return t.b[off : off+size]
}

// ascii is an ASCII entry's text without its NUL, or "".
func (t tiffReader) ascii(e ifdEntry, ok bool) string {
	if !ok || e.typ != 2 {
		return ""
	}
	b := t.data(e, int(e.count))
	for i, c := range b {
		if c == 0 {
			b = b[:i]
			break
		}
	}
	return string(b)
}

// degrees is a GPS coordinate entry (three RATIONALs: degrees, minutes,
// seconds) in degrees, or NaN.
func (t tiffReader) degrees(e ifdEntry, ok bool) float64 {
	if !ok || e.typ != 5 || e.count != 3 {
		return math.NaN()
	}
	b := t.data(e, 24)
	if b == nil {
		return math.NaN()
	}
	var v [3]float64
	for i := range v {
		num, den := t.bo.Uint32(b[i*8:]), t.bo.Uint32(b[i*8+4:])
		if den == 0 {
			return math.NaN()
		}
		v[i] = float64(num) / float64(den)
	}
	if v[1] >= 60 || v[2] > 60 {
		return math.NaN()
	}
	return v[0] + v[1]/60 + v[2]/3600
}

// placeFromTIFF reads the GPS position (IFD0 -> GPS IFD) and
// DateTimeOriginal (IFD0 -> Exif IFD) of a TIFF block. now bounds the
// year a photo can have been taken in.
func placeFromTIFF(b []byte, now time.Time) Place {
	if len(b) < 8 {
		return Place{}
	}
	t := tiffReader{b: b}
	switch string(b[:2]) {
	case "II":
		t.bo = binary.LittleEndian
	case "MM":
		t.bo = binary.BigEndian
	default:
		return Place{}
	}
	ifd0 := t.ifd(int(t.bo.Uint32(b[4:8])))
	var p Place
	if gps := t.ifd(t.long(entry(ifd0, 0x8825))); gps != nil {
		lat, lng := t.degrees(entry(gps, 0x0002)), t.degrees(entry(gps, 0x0004))
		switch t.ascii(entry(gps, 0x0001)) {
		case "S":
			lat = -lat
		case "N":
		default:
			lat = math.NaN()
		}
		switch t.ascii(entry(gps, 0x0003)) {
		case "W":
			lng = -lng
		case "E":
		default:
			lng = math.NaN()
		}
		p.Lat, p.Lng, p.HasPosition = PossiblePlace(lat, lng)
	}
	if ex := t.ifd(t.long(entry(ifd0, 0x8769))); ex != nil {
		p.Month = exifMonth(t.ascii(entry(ex, 0x9003)), now)
	}
	return p
}

func entry(ifd map[uint16]ifdEntry, tag uint16) (ifdEntry, bool) {
	e, ok := ifd[tag]
	return e, ok
}

// PossiblePlace rounds a position to 0.01 degree, and says whether it is
// a place at all: inside -90..90 and -180..180, a number, and not 0,0
// (a camera's empty GPS fix).
func PossiblePlace(lat, lng float64) (float64, float64, bool) {
	if math.IsNaN(lat) || math.IsNaN(lng) || math.IsInf(lat, 0) || math.IsInf(lng, 0) || lat < -90 || lat > 90 || lng < -180 || lng > 180 {
		return 0, 0, false
	}
	lat, lng = math.Round(lat*100)/100, math.Round(lng*100)/100
	if lat == 0 && lng == 0 {
		return 0, 0, false
	}
	return lat + 0, lng + 0, true // + 0 turns -0 into 0
}

// exifMonth is the 'YYYY-MM' of an EXIF date ("2026:10:14 15:04:05"), or
// "" when it is not a date from 1990 to next year.
func exifMonth(s string, now time.Time) string {
	if len(s) < 10 || s[4] != ':' || s[7] != ':' {
		return ""
	}
	y, err1 := strconv.Atoi(s[:4])
	m, err2 := strconv.Atoi(s[5:7])
	if err1 != nil || err2 != nil || y < 1990 || y > now.Year()+1 || m < 1 || m > 12 {
		return ""
	}
	return s[:4] + "-" + s[5:7]
}

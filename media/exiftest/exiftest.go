// Package exiftest makes photos with an EXIF block for tests: a JPEG
// (image/jpeg) carrying a GPS position and a DateTimeOriginal in an APP1
// Exif segment, written as a camera writes it.
package exiftest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"math"
)

// EXIF is what the block says. Lat and Lng are signed degrees (south and
// west negative); NoGPS leaves the GPS IFD out; Taken is the
// DateTimeOriginal text ("2026:10:14 15:04:05"), "" for none.
type EXIF struct {
	Lat, Lng  float64
	NoGPS     bool
	Taken     string
	BigEndian bool
}

// JPEG is a w x h JPEG with e's APP1 Exif segment right after its SOI.
func JPEG(w, h int, e EXIF) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		panic(err)
	}
	app1 := append([]byte("Exif\x00\x00"), TIFF(e)...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(app1)+2))
	out := append([]byte{0xFF, 0xD8}, seg...)
	out = append(out, app1...)
	return append(out, b.Bytes()[2:]...)
}

// TIFF is the TIFF block of e: IFD0 with pointers to a GPS IFD and an
// Exif IFD, and their values after them.
func TIFF(e EXIF) []byte {
	var bo binary.ByteOrder = binary.LittleEndian
	head := []byte("II*\x00\x08\x00\x00\x00")
	if e.BigEndian {
		bo = binary.BigEndian
		head = []byte("MM\x00*\x00\x00\x00\x08")
	}
	type ent struct {
		tag, typ uint16
		count    uint32
		value    []byte // inline when <= 4 bytes, else stored after the IFD
	}
	u32 := func(v uint32) []byte { b := make([]byte, 4); bo.PutUint32(b, v); return b }
	rational := func(v float64) []byte {
		// whole degrees and minutes, seconds in 1/100 (as phones write)
		cs := uint64(math.Round(math.Abs(v) * 3600 * 100))
		d, m, s := cs/360000, cs/6000%60, cs%6000
		var b []byte
		b = append(b, u32(uint32(d))...)
		b = append(b, u32(1)...)
		b = append(b, u32(uint32(m))...)
		b = append(b, u32(1)...)
		b = append(b, u32(uint32(s))...)
		return append(b, u32(100)...)
	}
	buf := append([]byte{}, head...)
	// writeIFD appends an IFD at the end of buf and returns its offset and
	// the offsets of each entry's value field.
	writeIFD := func(es []ent) (int, []int) {
		off := len(buf)
		dataAt := off + 2 + 12*len(es) + 4
		var data []byte
		fields := make([]int, len(es))
		b := make([]byte, 2)
		bo.PutUint16(b, uint16(len(es)))
		buf = append(buf, b...)
		for i, x := range es {
			e := make([]byte, 12)
			bo.PutUint16(e, x.tag)
			bo.PutUint16(e[2:], x.typ)
			bo.PutUint32(e[4:], x.count)
			if len(x.value) <= 4 {
				copy(e[8:], x.value)
			} else {
				bo.PutUint32(e[8:], uint32(dataAt+len(data)))
				data = append(data, x.value...)
			}
			fields[i] = off + 2 + 12*i + 8
			buf = append(buf, e...)
		}
		buf = append(buf, 0, 0, 0, 0) // no next IFD
		buf = append(buf, data...)
		return off, fields
	}
	var ifd0 []ent
	one := make([]byte, 4)
	bo.PutUint16(one, 1)
	ifd0 = append(ifd0, ent{0x0112, 3, 1, one}) // orientation 1
	if !e.NoGPS {
		ifd0 = append(ifd0, ent{0x8825, 4, 1, u32(0)})
	}
	if e.Taken != "" {
		ifd0 = append(ifd0, ent{0x8769, 4, 1, u32(0)})
	}
	_, fields := writeIFD(ifd0)
	i := 1
	if !e.NoGPS {
		latRef, lngRef := "N\x00", "E\x00"
		if e.Lat < 0 {
			latRef = "S\x00"
		}
		if e.Lng < 0 {
			lngRef = "W\x00"
		}
		off, _ := writeIFD([]ent{
			{0x0000, 1, 4, []byte{2, 3, 0, 0}},
			{0x0001, 2, 2, []byte(latRef)},
			{0x0002, 5, 3, rational(e.Lat)},
			{0x0003, 2, 2, []byte(lngRef)},
			{0x0004, 5, 3, rational(e.Lng)},
		})
		bo.PutUint32(buf[fields[i]:], uint32(off))
		i++
	}
	if e.Taken != "" {
		off, _ := writeIFD([]ent{{0x9003, 2, uint32(len(e.Taken) + 1), append([]byte(e.Taken), 0)}})
		bo.PutUint32(buf[fields[i]:], uint32(off))
	}
	return buf
}

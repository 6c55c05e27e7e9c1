package media

import (
	"bytes"
	"image/jpeg"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/media/exiftest"
)

var jpegType = Type{MIME: "image/jpeg", Ext: "jpg", Kind: "image"}

func TestReadPlaceFromJPEG(t *testing.T) {
	for _, c := range []struct {
		name     string
		e        exiftest.EXIF
		lat, lng float64
		has      bool
		month    string
	}{
		{"Marietta, little-endian", exiftest.EXIF{Lat: 33.95261, Lng: -84.54993, Taken: "2026:10:14 15:04:05"}, 33.95, -84.55, true, "2026-10"},
		{"Marietta, big-endian", exiftest.EXIF{Lat: 33.95261, Lng: -84.54993, Taken: "2025:03:01 08:00:00", BigEndian: true}, 33.95, -84.55, true, "2025-03"},
		{"south and east", exiftest.EXIF{Lat: -33.8688, Lng: 151.2093}, -33.87, 151.21, true, ""},
		{"rounds half a km", exiftest.EXIF{Lat: 33.756, Lng: -84.394}, 33.76, -84.39, true, ""},
		{"no GPS", exiftest.EXIF{NoGPS: true, Taken: "2026:01:02 03:04:05"}, 0, 0, false, "2026-01"},
		{"0,0 is no fix", exiftest.EXIF{Lat: 0, Lng: 0}, 0, 0, false, ""},
		{"latitude past 90", exiftest.EXIF{Lat: 95, Lng: -84}, 0, 0, false, ""},
		{"longitude past 180", exiftest.EXIF{Lat: 33, Lng: -190}, 0, 0, false, ""},
		{"impossible date", exiftest.EXIF{NoGPS: true, Taken: "0000:00:00 00:00:00"}, 0, 0, false, ""},
		{"date of the future", exiftest.EXIF{NoGPS: true, Taken: "2999:01:01 00:00:00"}, 0, 0, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := exiftest.JPEG(16, 8, c.e)
			if _, err := jpeg.Decode(bytes.NewReader(b)); err != nil {
				t.Fatalf("fixture is not a JPEG: %v", err)
			}
			p := ReadPlace(bytes.NewReader(b), int64(len(b)), jpegType)
			if p.HasPosition != c.has || p.Lat != c.lat || p.Lng != c.lng || p.Month != c.month {
				t.Errorf("ReadPlace = %+v, want %v,%v (%v) %q", p, c.lat, c.lng, c.has, c.month)
			}
		})
	}
}

// Broken blocks read as no place, never a panic: every prefix of a
// valid block, and garbage.
func TestReadPlaceHostile(t *testing.T) {
	tiff := exiftest.TIFF(exiftest.EXIF{Lat: 33.95, Lng: -84.55, Taken: "2026:10:14 15:04:05"})
	for i := range tiff {
		placeFromTIFF(tiff[:i], time.Now()) // no panic, no read past the end
	}
	if p := placeFromTIFF(tiff, time.Now()); !p.HasPosition || p.Month != "2026-10" {
		t.Errorf("the whole block gave %+v", p)
	}
	for _, b := range [][]byte{nil, []byte("II*\x00\xff\xff\xff\xff"), []byte("MM\x00*\x00\x00\x00\x08\xff\xff"), bytes.Repeat([]byte{0xFF}, 100)} {
		if p := placeFromTIFF(b, time.Now()); p != (Place{}) {
			t.Errorf("garbage %x gave %+v", b, p)
		}
	}
	if p := ReadPlace(bytes.NewReader([]byte("not a photo")), 11, jpegType); p != (Place{}) {
		t.Errorf("not a JPEG gave %+v", p)
	}
	png := Type{MIME: "image/png", Ext: "png", Kind: "image"}
	if p := ReadPlace(strings.NewReader("\x89PNG"), 4, png); p != (Place{}) {
		t.Errorf("PNG gave %+v", p)
	}
}

func TestReadPlaceFromWebP(t *testing.T) {
	tiff := append([]byte("Exif\x00\x00"), exiftest.TIFF(exiftest.EXIF{Lat: 34.0232, Lng: -84.3616, Taken: "2026:07:04 12:00:00"})...)
	vp8x := []byte("VP8X\x0a\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	chunk := append([]byte("EXIF\x00\x00\x00\x00"), tiff...)
	chunk[4] = byte(len(tiff))
	if len(tiff)%2 == 1 {
		chunk = append(chunk, 0)
	}
	body := append(append([]byte("WEBP"), vp8x...), chunk...)
	riff := append([]byte("RIFF\x00\x00\x00\x00"), body...)
	riff[4] = byte(len(body))
	riff[5] = byte(len(body) >> 8)
	p := ReadPlace(bytes.NewReader(riff), int64(len(riff)), Type{MIME: "image/webp", Ext: "webp", Kind: "image"})
	if !p.HasPosition || p.Lat != 34.02 || p.Lng != -84.36 || p.Month != "2026-07" {
		t.Errorf("WebP place %+v", p)
	}
}

func TestPossiblePlace(t *testing.T) {
	for _, c := range [][2]float64{{math.NaN(), 1}, {1, math.Inf(1)}, {0.001, -0.004}, {-91, 0}, {0, 181}} {
		if _, _, ok := PossiblePlace(c[0], c[1]); ok {
			t.Errorf("%v is a place", c)
		}
	}
	if lat, lng, ok := PossiblePlace(-0.001, 0.02); !ok || lat != 0 || lng != 0.02 || math.Signbit(lat) {
		t.Errorf("-0.001,0.02 = %v,%v,%v", lat, lng, ok)
	}
}

// The browser tests' photo taken in Marietta (tests/e2e/fixtures, made
// with exiftest) says what its name says.
func TestMariettaFixture(t *testing.T) {
	b, err := os.ReadFile("../tests/e2e/fixtures/marietta-gps.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if p := ReadPlace(bytes.NewReader(b), int64(len(b)), jpegType); !p.HasPosition || p.Lat != 33.95 || p.Lng != -84.55 || p.Month != "2026-10" {
		t.Errorf("marietta-gps.jpg reads %+v", p)
	}
}

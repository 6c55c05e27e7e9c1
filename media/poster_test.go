package media

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/gen2brain/webp"
)

func TestSniffPoster(t *testing.T) {
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, noise(20, 10, false))
	var webpBuf bytes.Buffer
	webp.Encode(&webpBuf, noise(20, 10, false), webp.Options{Quality: 80})
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	mp4 := append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2")...)
	cases := []struct {
		name     string
		head     []byte
		mime     string // "" when refused
		detected string
	}{
		{"jpeg", jpegBytes(t, 8, 8, 0), "image/jpeg", ""},
		{"png", pngBuf.Bytes(), "image/png", ""},
		{"webp", webpBuf.Bytes(), "image/webp", ""},
		{"gif", gif, "", "image/gif"},
		{"video", mp4, "", "video/mp4"},
		{"html", []byte("<!doctype html><html><script>alert(1)</script>"), "", "text/html; charset=utf-8"},
		{"svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), "", "image/svg+xml"},
		{"php", []byte("<?php system($_GET['c']); ?>"), "", "text/plain; charset=utf-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ty, err := SniffPoster(c.head)
			if c.mime != "" {
				if err != nil || ty.MIME != c.mime {
					t.Errorf("got %v %v, want %s", ty, err, c.mime)
				}
				return
			}
			var np *ErrNotPoster
			if !errors.As(err, &np) || np.Detected != c.detected {
				t.Errorf("got %v %v, want ErrNotPoster detecting %s", ty, err, c.detected)
			}
		})
	}
}

func TestProcessPoster(t *testing.T) {
	// A 2000x1000 JPEG turned by EXIF orientation 6 is 1000x2000: the
	// poster is 960 wide, its metadata gone.
	src := jpegBytes(t, 2000, 1000, 6)
	ty, _ := Sniff(src)
	p, err := ProcessPoster(bytes.NewReader(src), int64(len(src)), ty)
	if err != nil {
		t.Fatal(err)
	}
	if p.Width != 960 || p.Height != 1920 {
		t.Errorf("poster %dx%d, want 960x1920", p.Width, p.Height)
	}
	cfg, err := webp.DecodeConfig(bytes.NewReader(p.Data))
	if err != nil || cfg.Width != p.Width || cfg.Height != p.Height {
		t.Errorf("poster is not a %dx%d WebP: %v %v", p.Width, p.Height, cfg, err)
	}
	if bytes.Contains(p.Data, []byte("GPS-SECRET")) || bytes.Contains(p.Data, []byte("Exif")) {
		t.Error("the poster kept the EXIF block")
	}
	// A small frame is kept at its size, not enlarged.
	small := jpegBytes(t, 320, 180, 0)
	if p, err := ProcessPoster(bytes.NewReader(small), int64(len(small)), ty); err != nil || p.Width != 320 || p.Height != 180 {
		t.Errorf("small poster: %+v %v", p, err)
	}
	// Trailing markup after a real image is not carried into the poster.
	tail := append(append([]byte{}, small...), "<script>alert(1)</script>"...)
	if p, err := ProcessPoster(bytes.NewReader(tail), int64(len(tail)), ty); err != nil || bytes.Contains(p.Data, []byte("script")) {
		t.Errorf("JPEG with trailing script: %v", err)
	}
	// The decode budget applies: a 16-bit PNG of 8000x5000 is refused
	// from its header.
	bomb := flatPNG(t, 8000, 5000, true)
	if _, err := ProcessPoster(bytes.NewReader(bomb), int64(len(bomb)), Type{MIME: "image/png"}); !errors.Is(err, ErrTooManyPixels) {
		t.Errorf("PNG bomb: %v", err)
	}
	// A JPEG header with nothing behind it is refused, not half-drawn.
	if _, err := ProcessPoster(bytes.NewReader(small[:200]), 200, ty); err == nil {
		t.Error("truncated JPEG accepted")
	}
	// Types other than JPEG, PNG and WebP never reach a decoder.
	if _, err := ProcessPoster(bytes.NewReader(small), int64(len(small)), Type{MIME: "image/gif"}); err == nil {
		t.Error("GIF accepted as a poster")
	}
}

func TestPosterKey(t *testing.T) {
	video := "projects/kitchen/" + StoredName("mp4", time.UnixMilli(1732262400123))
	a, b := PosterKey(video), PosterKey(video)
	if a == b {
		t.Error("two posters of one video share a key: a replaced poster would keep its cached URL")
	}
	base := strings.TrimSuffix(video, ".mp4")
	if !strings.HasPrefix(a, base+"-poster-") || !strings.HasSuffix(a, ".webp") || !IsPosterKey(a) {
		t.Errorf("PosterKey(%q) = %q", video, a)
	}
	for _, k := range []string{video, base + "-480.webp", base + "-poster.webp", base + "-poster-ABCDEFGH.webp"} {
		if IsPosterKey(k) {
			t.Errorf("IsPosterKey(%q) = true", k)
		}
	}
}

package media

import (
	"bytes"
	"fmt"
	"net/http"
)

// Type is what the content says a file is.
type Type struct {
	MIME string
	Kind string // image or video
	Ext  string
}

// ErrUnsupported explains a rejected type in words a person can act on.
type ErrUnsupported struct{ Detected, Hint string }

func (e *ErrUnsupported) Error() string {
	msg := fmt.Sprintf("this file is not a photo or video we accept (detected %s)", e.Detected)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// Sniff identifies a file from its first bytes (512 are enough; uploads
// pass SniffLen for CheckVideo). The browser's Content-Type and the file
// name are never trusted: the stored name's extension and the served
// Content-Type both come from the Type returned here.
func Sniff(head []byte) (Type, error) {
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		brand := string(head[8:12])
		switch brand {
		case "qt  ":
			return Type{"video/quicktime", "video", "mov"}, nil
		case "heic", "heix", "mif1", "msf1", "heim", "heis", "hevc":
			return Type{}, &ErrUnsupported{"image/heic", "HEIC photos cannot be shown in most browsers: upload JPEG (on iPhone: Settings > Camera > Formats > Most Compatible)"}
		case "avif", "avis":
			return Type{}, &ErrUnsupported{"image/avif", "upload JPEG, PNG or WebP"}
		}
		return Type{"video/mp4", "video", "mp4"}, nil
	}
	if bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}) {
		// The DocType sits in the short EBML header; CheckVideo parses it.
		if bytes.Contains(head[:min(len(head), 256)], []byte("webm")) {
			return Type{"video/webm", "video", "webm"}, nil
		}
		return Type{"video/x-matroska", "video", "mkv"}, nil
	}
	switch ct := http.DetectContentType(head); ct {
	case "image/jpeg":
		return Type{ct, "image", "jpg"}, nil
	case "image/png":
		return Type{ct, "image", "png"}, nil
	case "image/gif":
		return Type{ct, "image", "gif"}, nil
	case "image/webp":
		return Type{ct, "image", "webp"}, nil
	case "video/avi":
		return Type{"video/x-msvideo", "video", "avi"}, nil
	case "video/webm":
		return Type{ct, "video", "webm"}, nil
	default:
		if bytes.Contains(head[:min(len(head), 256)], []byte("<svg")) {
			return Type{}, &ErrUnsupported{"image/svg+xml", "SVG files can carry scripts and are not accepted"}
		}
		return Type{}, &ErrUnsupported{Detected: ct}
	}
}

// servable are the types Sniff can return: the only ones ever served from
// /media/, plus image/webp for the variants.
var servable = map[string]bool{
	"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true,
	"video/mp4": true, "video/quicktime": true, "video/webm": true, "video/x-matroska": true, "video/x-msvideo": true,
}

// Servable reports whether a stored MIME type may be served: a photo or
// video type this package accepts, never markup, script or SVG.
func Servable(mime string) bool { return servable[mime] }

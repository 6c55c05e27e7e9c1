package ssr

import (
	"bytes"
	"io"
	"strings"
)

// helmetMarker is the attribute react-helmet-async's server output puts
// first in every tag it writes. Helmet in the browser finds the tags it
// manages by it.
const helmetMarker = ` data-rh="true"`

// writeHead writes the head markup of a render (react-helmet-async's
// server output, pages/server.tsx) as the document carries it (ADR 055):
//   - the data-rh marker is dropped unless keepMarkers: only a page whose
//     browser code runs Helmet (the admin app) needs it; on the other pages
//     nothing manages the head in the browser and it is 15 bytes a tag;
//   - a void element ends in ">", not Helmet's "/>".
//
// This is exact because every attribute value and the title are escaped
// (&, <, > and "; by the server entry, which tells Helmet not to escape
// again): outside a script element's text, "/>" ends a tag and the marker
// is an attribute. Script text (JSON-LD) is Helmet's innerHTML, which
// nobody escapes as HTML (components/head.tsx writes its "<" as \u003c),
// so it is copied untouched up to its end tag.
func writeHead(b headWriter, head string, keepMarkers bool) {
	for head != "" {
		i := strings.Index(head, "<script")
		if i < 0 {
			writeTidy(b, head, keepMarkers)
			return
		}
		// The script's start tag is tidied like any other tag.
		end := strings.IndexByte(head[i:], '>')
		if end < 0 {
			writeTidy(b, head, keepMarkers)
			return
		}
		end += i + 1
		writeTidy(b, head[:end], keepMarkers)
		head = head[end:]
		close := strings.Index(head, "</script>")
		if close < 0 {
			b.WriteString(head)
			return
		}
		close += len("</script>")
		b.WriteString(head[:close])
		head = head[close:]
	}
}

var (
	tidyKeep  = strings.NewReplacer("/>", ">")
	tidyStrip = strings.NewReplacer(helmetMarker, "", "/>", ">")
)

func writeTidy(b headWriter, s string, keepMarkers bool) {
	if keepMarkers {
		tidyKeep.WriteString(b, s)
	} else {
		tidyStrip.WriteString(b, s)
	}
}

type headWriter interface {
	io.Writer
	io.StringWriter
}

// tidyHead is writeHead into a new string.
func tidyHead(head string, keepMarkers bool) string {
	var b bytes.Buffer
	b.Grow(len(head))
	writeHead(&b, head, keepMarkers)
	return b.String()
}

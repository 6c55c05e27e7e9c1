package ssr

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
)

// MarshalProps serialises page props for the inline JSON script. Go's
// encoder escapes <, > and & as \u003c, \u003e and \u0026 (and U+2028/2029),
// so content holding "</script>" or "<!--" cannot end the script element.
func MarshalProps(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// DocumentOptions are the per-site parts of every document.
type DocumentOptions struct {
	// Hydrate loads the page's client script (islands, or the whole
	// page with its props for full-hydration kinds).
	Hydrate bool
	// ExtraHead is trusted markup appended to <head> (font preloads).
	ExtraHead string
}

// Assemble builds the HTML document: head tags from Helmet in <head>, the
// rendered tree in #root, the props, and the page's module script with its
// preloads. The inline CSS avoids a render-blocking request on slow links.
func Assemble(e Entry, r *Result, props []byte, o DocumentOptions) []byte {
	var b bytes.Buffer
	b.Grow(len(r.HTML) + len(props) + len(e.CSS) + 2048)
	b.WriteString("<!doctype html>")
	b.WriteString("<html")
	if strings.TrimSpace(r.HTMLAttrs) != "" {
		b.WriteString(" ")
		b.WriteString(r.HTMLAttrs)
	} else {
		b.WriteString(` lang="en"`)
	}
	b.WriteString(`><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=5">`)
	b.WriteString(r.Head)
	b.WriteString(`<link rel="icon" href="/favicon.ico" sizes="any"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="manifest" href="/site.webmanifest">`)
	b.WriteString(o.ExtraHead)
	if e.CSS != "" {
		b.WriteString("<style>")
		b.WriteString(strings.ReplaceAll(e.CSS, "</", `<\/`))
		b.WriteString("</style>")
	}
	if o.Hydrate {
		for _, p := range e.Preloads {
			b.WriteString(`<link rel="modulepreload" href="`)
			b.WriteString(html.EscapeString(p))
			b.WriteString(`">`)
		}
	}
	b.WriteString(`</head><body><div id="root">`)
	b.WriteString(r.HTML)
	b.WriteString(`</div>`)
	if o.Hydrate {
		if e.Props {
			b.WriteString(`<script id="__PROPS__" type="application/json">`)
			b.Write(props)
			b.WriteString(`</script>`)
		}
		b.WriteString(`<script type="module" src="`)
		b.WriteString(html.EscapeString(e.Script))
		b.WriteString(`"></script>`)
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

package ssr

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"strings"
)

// IslandsBoot is the inline script that starts an islands page's module
// once the first contentful paint is recorded (a "paint" performance
// entry; 3 s after load at the latest, as in a tab opened in the
// background, and at load where paint timing is missing) (ADR 016). Nothing the first paint
// needs is in the module, and requested from the HTML it is fetched and
// run while a slow phone is still laying out the page. Until the module
// runs, the boot script holds the first click on a button inside an
// island (a carousel or reviews button does nothing without React) and
// hands it over through window.__islandsBoot, so the tap is replayed, not
// lost. A button that opens a popover (the menu) works without React and
// is never held where the browser has popovers; a link of the open menu
// to a place on this page closes the menu, and the browser's own jump
// goes on (once the module runs, it lands there and holds the place; a
// slowed phone's tap before that left the menu open over the form). The
// module's address is the element's data-src, so the text never changes
// and the CSP allows it by hash (IslandsBootCSP).
const IslandsBoot = `(function(c){var d=document,w=window,b=null,p="popover"in HTMLElement.prototype,h=function(e){var t=e.target.closest&&e.target.closest("[data-island] button"),a=e.target.closest&&e.target.closest("[popover] a[href*='#']"),q=a&&a.closest("[popover]");if(t&&!(p&&t.hasAttribute("popovertarget"))){e.preventDefault();e.stopImmediatePropagation();b=b||t}else if(p&&q&&a.pathname==location.pathname&&a.search==location.search&&q.matches(":popover-open"))q.hidePopover()},go=function(){if(c){var s=d.createElement("script");s.type="module";s.src=c.getAttribute("data-src");c=null;d.body.appendChild(s)}},P=w.PerformanceObserver;d.addEventListener("click",h,true);w.__islandsBoot=function(){d.removeEventListener("click",h,true);var t=b;b=null;return t};if(P&&(P.supportedEntryTypes||[]).indexOf("paint")>=0){new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}}).observe({type:"paint",buffered:true});w.addEventListener("load",function(){setTimeout(go,3000)})}else w.addEventListener("load",go)})(document.currentScript)`

// IslandsBootCSP is the script-src source that allows IslandsBoot.
func IslandsBootCSP() string { return cspHash(IslandsBoot) }

// SpeculationRules is an islands page's resource hint (ADR 017): Chrome
// prefetches a page of the site when the visitor shows intent to open it
// (eagerness "moderate": the pointer rests on the link for 200 ms, or
// goes down on it), so the next page arrives before the tap ends. Nothing
// is fetched for the first paint: a <link rel="prefetch"> of the islands
// loader was, and Lighthouse's simulation counted that request against
// LCP. Admin, API and search addresses, downloads and links that open
// elsewhere are never prefetched. Browsers without speculation rules
// ignore the script.
const SpeculationRules = `{"prefetch":[{"source":"document","where":{"and":[{"href_matches":"/*"},{"not":{"href_matches":"/admin*"}},{"not":{"href_matches":"/api/*"}},{"not":{"href_matches":"/search*"}},{"not":{"selector_matches":"[download],[target=_blank],[rel~=nofollow],[rel~=external]"}}]},"eagerness":"moderate"}]}`

// SpeculationRulesCSP is the script-src source that allows SpeculationRules
// (an inline speculation-rules script obeys script-src like any other).
func SpeculationRulesCSP() string { return cspHash(SpeculationRules) }

func cspHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

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
	// Icons are the head's icon and manifest links (IconLinks).
	Icons string
	// ExtraHead is trusted markup appended to <head> (font preloads).
	ExtraHead string
}

// IconLinks are the links every page's head carries for its icons (ADR 018):
//   - the tab icon is the SVG itself in a data: URL, so the browser fetches
//     nothing for it. Chrome fetches a page's icons as soon as the page has
//     loaded, which on a page with no subresources is before its first
//     paint, and Lighthouse's simulation then counted the icon's round
//     trip against LCP (0.90 → 1.05 s);
//   - the apple-touch-icon is a URL, 192 px square: iOS uses it for the
//     home screen, and it is the crawlable icon Google Search takes from
//     the home page (a multiple of 48 px). Chrome does not fetch it;
//   - /favicon.ico and /favicon.svg are still served for clients that ask
//     for them by convention.
func IconLinks(faviconSVG []byte) string {
	var b strings.Builder
	if len(faviconSVG) > 0 {
		b.WriteString(`<link rel="icon" href="`)
		b.WriteString(SVGDataURL(faviconSVG))
		b.WriteString(`" type="image/svg+xml">`)
	}
	b.WriteString(`<link rel="apple-touch-icon" href="/apple-touch-icon.png"><link rel="manifest" href="/site.webmanifest">`)
	return b.String()
}

// SVGDataURL is svg as a data: URL that can stand in a double-quoted
// attribute: bytes that are not URL code points, and the ones HTML or a
// URL would read (" % # & < > and controls), and spaces are
// percent-encoded (a URL may not hold a literal space: the HTML checker
// refuses it).
func SVGDataURL(svg []byte) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("data:image/svg+xml,")
	for _, c := range bytes.TrimSpace(svg) {
		switch {
		case c <= 0x20 || c >= 0x7f || c == '"' || c == '%' || c == '#' || c == '&' || c == '<' || c == '>':
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Assemble builds the HTML document: head tags from Helmet in <head>
// (writeHead), the
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
	// Helmet's markers stay where Helmet runs in the browser: the pages
	// that hydrate whole (the admin app).
	writeHead(&b, r.Head, o.Hydrate && e.Props)
	b.WriteString(o.Icons)
	b.WriteString(o.ExtraHead)
	if e.CSS != "" {
		b.WriteString("<style>")
		b.WriteString(strings.ReplaceAll(e.CSS, "</", `<\/`))
		b.WriteString("</style>")
	}
	if o.Hydrate && e.Props {
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
		if e.Props {
			b.WriteString(`<script type="module" src="`)
			b.WriteString(html.EscapeString(e.Script))
			b.WriteString(`"></script>`)
		} else {
			b.WriteString(`<script type="speculationrules">`)
			b.WriteString(SpeculationRules)
			b.WriteString(`</script><script data-src="`)
			b.WriteString(html.EscapeString(e.Script))
			b.WriteString(`">`)
			b.WriteString(IslandsBoot)
			b.WriteString(`</script>`)
		}
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

package editor

import (
	"bytes"
	"html"
)

// PreviewBarText is what the preview's bar says: the draft is not what
// visitors see.
const PreviewBarText = "Draft preview, not live"

// withPreviewBar puts the draft's bar at the top of a preview's body,
// outside the React root (hydration never sees it), so it exists only in
// the answer of /admin/preview/{id}, never in a public page's render. It
// is a labelled region that stays at the top while the page scrolls and
// wraps on a phone; editURL leads back to the editor.
func withPreviewBar(page []byte, editURL string) []byte {
	i := bytes.Index(page, []byte("<body"))
	if i < 0 {
		return page
	}
	end := bytes.IndexByte(page[i:], '>')
	if end < 0 {
		return page
	}
	at := i + end + 1
	bar := `<aside class="draft-bar" aria-label="Draft preview" data-preview-bar style="position:sticky;top:0;z-index:1000;box-sizing:border-box;width:100%;` +
		`padding:.55rem 1rem;background:#fef3c7;color:#451a03;border-bottom:3px solid #b45309;font:600 15px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;` +
		`text-align:center;overflow-wrap:anywhere">` +
		`<strong>` + PreviewBarText + `</strong>` +
		`<span style="font-weight:400"> · Visitors see the published page until you publish. </span>` +
		`<a href="` + html.EscapeString(editURL) + `" style="color:#7c2d12;text-decoration:underline;white-space:nowrap">Back to the editor</a>` +
		`</aside>`
	out := make([]byte, 0, len(page)+len(bar))
	out = append(out, page[:at]...)
	out = append(out, bar...)
	return append(out, page[at:]...)
}

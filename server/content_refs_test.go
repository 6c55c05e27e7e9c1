package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	editorweb "github.com/atlanta-restoration/site/web/editor"
)

// cityItem finds a city's item through the content API.
func cityItem(t *testing.T, h http.Handler, tok, key string) editorweb.ItemDetail {
	t.Helper()
	r := jsonReq(t, h, "GET", "/api/admin/content?kind=city&q="+url.QueryEscape(key), tok, nil)
	var l editorweb.ItemList
	if err := json.Unmarshal([]byte(r.Body), &l); err != nil {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	for _, it := range l.Items {
		if it.Slug == key {
			return decodeItem(t, jsonReq(t, h, "GET", "/api/admin/content/"+it.ID, tok, nil))
		}
	}
	t.Fatalf("no city %s", key)
	return editorweb.ItemDetail{}
}

// Renaming Smyrna through the API: Vinings' page and the water landing
// page's areas link to its new address in the same publish, and the old
// address answers 301; taking Smyrna down is refused while it is listed
// and, asked to, removes it from the pages that list it, so no page
// links to one taken down. (What the content API answers on the way,
// Vinings' problems and republish, the referrers, is tested in the room:
// web/editor's TestRenameAndTakeDown.)
func TestRenameAndTakeDownThroughTheAPI(t *testing.T) {
	_, h, tok := editorServer(t)
	for _, p := range []string{"/areas/cobb/vinings", "/water-damage-restoration-atlanta"} {
		if r := get(t, h, p); r.StatusCode != 200 || !strings.Contains(r.Body, `href="/areas/cobb/smyrna"`) {
			t.Fatalf("%s before: %d", p, r.StatusCode)
		}
	}
	sm := cityItem(t, h, tok, "cobb/smyrna")
	var draft map[string]any
	json.Unmarshal(sm.Draft, &draft)
	draft["slug"] = "smyrna-ga"
	r := jsonReq(t, h, "PUT", "/api/admin/content/"+sm.ID, tok, map[string]any{"version": sm.Version, "data": draft})
	if r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	sm = decodeItem(t, r)
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+sm.ID+"/publish", tok, map[string]any{"version": sm.Version}); r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	sm = cityItem(t, h, tok, "cobb/smyrna-ga")
	for _, p := range []string{"/areas/cobb/vinings", "/areas/cobb/mableton", "/water-damage-restoration-atlanta"} {
		r := get(t, h, p)
		if r.StatusCode != 200 || !strings.Contains(r.Body, `href="/areas/cobb/smyrna-ga"`) || strings.Contains(r.Body, `href="/areas/cobb/smyrna"`) {
			t.Errorf("%s after the rename: %d, no link to the new address", p, r.StatusCode)
		}
	}
	if r := get(t, h, "/areas/cobb/smyrna"); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/areas/cobb/smyrna-ga" {
		t.Errorf("old address: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	// Taking Smyrna down is refused while pages list it (what the
	// refusal says is the room's test), and the page stays.
	r = jsonReq(t, h, "POST", "/api/admin/content/"+sm.ID+"/unpublish", tok, map[string]any{"version": sm.Version})
	if r.StatusCode != http.StatusConflict {
		t.Fatalf("unpublish a listed city: %d %s", r.StatusCode, r.Body)
	}
	if r := get(t, h, "/areas/cobb/smyrna-ga"); r.StatusCode != 200 {
		t.Error("a refused take-down took the page down")
	}
	r = jsonReq(t, h, "POST", "/api/admin/content/"+sm.ID+"/unpublish", tok, map[string]any{"version": sm.Version, "removeReferences": true})
	if r.StatusCode != 200 {
		t.Fatalf("unpublish removing references: %d %s", r.StatusCode, r.Body)
	}
	if r := get(t, h, "/areas/cobb/vinings"); r.StatusCode != 200 || strings.Contains(r.Body, "/areas/cobb/smyrna") {
		t.Error("Vinings still links to Smyrna")
	}
}

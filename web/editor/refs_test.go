package editor

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// Renaming Smyrna: it is found at its new address, Vinings (which lists
// it) has no hard problem and still publishes; taking Smyrna down names
// who lists it and changes nothing, and asked to, removes it from them
// in the same step, leaving no change to publish. (That the pages link
// to the new address in the same publish, the old one answers 301 and no
// page links to the one taken down is tested in server/:
// TestRenameAndTakeDownThroughTheAPI.)
func TestRenameAndTakeDown(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		t.Parallel()
		r := newRoom(t, s)
		sm := r.firstOf(t, content.KindCity, "cobb/smyrna")
		var draft map[string]any
		json.Unmarshal(sm.Draft, &draft)
		draft["slug"] = "smyrna-ga"
		sm = r.item(t, r.do(t, "PUT", "/api/admin/content/"+sm.ID, map[string]any{"version": sm.Version, "data": draft}), "save")
		if a := r.do(t, "POST", "/api/admin/content/"+sm.ID+"/publish", map[string]any{"version": sm.Version}); a.status != 200 {
			t.Fatalf("publish: %d %s", a.status, a.body)
		}
		sm = r.firstOf(t, content.KindCity, "cobb/smyrna-ga")
		vi := r.firstOf(t, content.KindCity, "cobb/vinings")
		for _, p := range vi.Problems {
			if p.Hard {
				t.Errorf("Vinings: %+v", p)
			}
		}
		var vd map[string]any
		json.Unmarshal(vi.Draft, &vd)
		vd["intro"] = "Edited after Smyrna moved. " + vd["intro"].(string)
		vi = r.item(t, r.do(t, "PUT", "/api/admin/content/"+vi.ID, map[string]any{"version": vi.Version, "data": vd}), "save Vinings")
		if a := r.do(t, "POST", "/api/admin/content/"+vi.ID+"/publish", map[string]any{"version": vi.Version}); a.status != 200 {
			t.Errorf("Vinings cannot be published: %d %s", a.status, a.body)
		}

		// Taking Smyrna down names its referrers, and changes nothing.
		a := r.do(t, "GET", "/api/admin/content/"+sm.ID+"/referrers", nil)
		if a.status != 200 || !strings.Contains(string(a.body), `"title":"Vinings"`) || !strings.Contains(string(a.body), `"title":"Cobb County"`) {
			t.Errorf("referrers: %d %s", a.status, a.body)
		}
		a = r.do(t, "POST", "/api/admin/content/"+sm.ID+"/unpublish", map[string]any{"version": sm.Version})
		var ref ReferencedAnswer
		json.Unmarshal(a.body, &ref)
		if a.status != http.StatusConflict || len(ref.Referrers) != 4 || !strings.Contains(ref.Error, "Smyrna is listed on the pages of") {
			t.Fatalf("unpublish a listed city: %d %s", a.status, a.body)
		}
		if now := r.firstOf(t, content.KindCity, "cobb/smyrna-ga"); now.Status != contentdb.StatusPublished || now.Version != sm.Version {
			t.Errorf("a refused take-down changed Smyrna: %+v", now.ItemView)
		}
		if a := r.do(t, "POST", "/api/admin/content/"+sm.ID+"/unpublish", map[string]any{"version": sm.Version, "removeReferences": true}); a.status != 200 {
			t.Fatalf("unpublish removing references: %d %s", a.status, a.body)
		}
		if vi = r.firstOf(t, content.KindCity, "cobb/vinings"); vi.Pending {
			t.Error("Vinings was left with a change to publish")
		}
		if a := r.do(t, "GET", "/api/admin/content/"+sm.ID+"/referrers", nil); !strings.Contains(string(a.body), `"referrers":[]`) {
			t.Errorf("referrers after: %s", a.body)
		}
	})
}

package media

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/paging/pagingtest"
)

// The library pages and searches on the server (web/paging): newest
// first, bounded pages, exact totals, one kind on request, and a plain
// 400 for a bad request.
func TestLibraryPages(t *testing.T) {
	r := newRoom(t)
	now := time.Now().UTC().Truncate(time.Second)
	for i := range 65 {
		m := db.Media{ID: fmt.Sprintf("m%02d", i), Project: "kitchen-fire", Path: fmt.Sprintf("projects/kitchen-fire/p%02d.jpg", i), Name: fmt.Sprintf("p%02d.jpg", i),
			Kind: "image", MIME: "image/jpeg", Width: 800, Height: 600, CreatedAt: now.Add(time.Duration(i) * time.Second)}
		if i%10 == 0 {
			m.Kind, m.Name, m.MIME = "video", fmt.Sprintf("walk%02d.mp4", i), "video/mp4"
		}
		if i == 42 {
			m.Caption = "Basement after drying"
		}
		if err := r.store.CreateMedia(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	page := func(query string) (Library, *response) {
		t.Helper()
		res := r.get("/api/admin/media?" + query)
		var lib Library
		if res.StatusCode == http.StatusOK {
			if err := json.Unmarshal([]byte(res.Body), &lib); err != nil {
				t.Fatal(err)
			}
		}
		return lib, res
	}
	lib, res := page("")
	if res.StatusCode != http.StatusOK || lib.Total != 65 || len(lib.Items) != 50 || lib.Items[0].ID != "m64" || lib.Page != 1 || lib.PerPage != 50 {
		t.Fatalf("first page: %d %+v", res.StatusCode, lib.Info)
	}
	if lib, _ = page("page=2"); len(lib.Items) != 15 || lib.Items[0].ID != "m14" || lib.Items[14].ID != "m00" {
		t.Errorf("second page: %d items", len(lib.Items))
	}
	if lib, _ = page("type=video"); lib.Total != 7 || lib.Items[0].Type != "video" {
		t.Errorf("videos: %+v", lib.Info)
	}
	if lib, _ = page("type=image&perPage=5"); lib.Total != 58 || len(lib.Items) != 5 {
		t.Errorf("images: %+v", lib.Info)
	}
	if lib, _ = page("q=BASEMENT"); lib.Total != 1 || lib.Items[0].ID != "m42" || lib.Q != "BASEMENT" {
		t.Errorf("by caption: %+v", lib.Info)
	}
	if lib, _ = page("q=nothing+like+it"); lib.Total != 0 || lib.Items == nil {
		t.Errorf("no match: %+v %v", lib.Info, lib.Items)
	}
	if lib, _ = page("perPage=5000"); lib.PerPage != 200 || len(lib.Items) != 65 {
		t.Errorf("perPage past the bound: %+v", lib.Info)
	}
	if _, res := page("type=pdf"); res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "Type must be image or video.") {
		t.Errorf("type=pdf: %d %s", res.StatusCode, res.Body)
	}
	pagingtest.Refused(t, "/api/admin/media", func(q string) (int, string) {
		_, res := page(q)
		return res.StatusCode, res.Body
	})
}

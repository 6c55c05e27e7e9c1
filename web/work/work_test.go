package work

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers on a real store with live city and
// service records of their own; who may call which route (the guards of
// server/install.go) is tested across rooms in server/routes_test.go.
// Here: the rules the room checks itself (a job on the site changes only
// by a session that may publish; leads only for those who may read
// them), and that no answer carries a coordinate.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// records are the live content records the room offers.
type records map[string][]contentdb.Item

func (r records) List(_ context.Context, kind string) ([]contentdb.Item, error) { return r[kind], nil }

func liveCity(id, name, county string, lat, lng float64) contentdb.Item {
	b, _ := json.Marshal(content.City{City: name, County: county, Slug: strings.ToLower(name), Lat: lat, Lng: lng})
	return contentdb.Item{ID: id, Kind: content.KindCity, Live: string(b)}
}

var testRecords = records{
	content.KindCity: {
		liveCity("c-marietta", "Marietta", "cobb", 33.9526, -84.5499),
		liveCity("c-douglasville", "Douglasville", "douglas", 33.7515, -84.7477),
		{ID: "c-draft", Kind: content.KindCity, Draft: `{"city":"Draftville"}`},
	},
	content.KindService: {{ID: "s-water", Kind: content.KindService, Live: `{"title":"Water Damage Restoration"}`}},
}

type room struct {
	*authtest.Room
	store   *db.Store
	changed atomic.Int64
}

func newRoom(t *testing.T, store *db.Store) *room {
	r := &room{Room: authtest.New(), store: store}
	h := &Handler{Store: store, Records: testRecords, Changed: func(string) { r.changed.Add(1) }, Log: quiet}
	for tok, role := range map[string]string{"staff": accounts.RoleStaff, "editor": accounts.RoleEditor, "admin": accounts.RoleAdmin} {
		r.Caller(tok, auth.Principal{Role: role})
	}
	e := r.Room
	e.GET("/api/admin/work", h.List, r.As)
	e.POST("/api/admin/work", h.Create, r.As)
	e.GET("/api/admin/work/choices", h.Choices, r.As)
	e.GET("/api/admin/work/:id", h.Get, r.As)
	e.PUT("/api/admin/work/:id", h.Save, r.As)
	e.DELETE("/api/admin/work/:id", h.Delete, r.As)
	e.POST("/api/admin/work/:id/photos", h.AddPhoto, r.As)
	e.PUT("/api/admin/work/:id/photos/:media", h.AddPhoto, r.As)
	e.DELETE("/api/admin/work/:id/photos/:media", h.RemovePhoto, r.As)
	e.POST("/api/admin/work/:id/publish", h.Publish, r.As)
	e.POST("/api/admin/work/:id/unpublish", h.Unpublish, r.As)
	return r
}

// call checks the status and that the answer carries no coordinate.
func (r *room) call(t *testing.T, method, path, tok string, body any, want int) string {
	t.Helper()
	res := r.Call(t, method, path, tok, body)
	if res.StatusCode != want {
		t.Fatalf("%s %s as %s: %d %s, want %d", method, path, tok, res.StatusCode, res.Body, want)
	}
	for _, leak := range []string{"33.9", "84.5", "33.75", "84.74", "\"lat", "\"lng", "geo"} {
		if strings.Contains(res.Body, leak) {
			t.Errorf("%s %s answers %q: %s", method, path, leak, res.Body)
		}
	}
	return res.Body
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return v
}

// photo stores a library photo taken near lat,lng (rounded as an upload
// keeps it).
func photo(t *testing.T, s *db.Store, id string, lat, lng float64) {
	t.Helper()
	la, ln := db.RoundPlace(lat), db.RoundPlace(lng)
	err := s.CreateMedia(context.Background(), db.Media{ID: id, Path: "projects/library/" + id + ".jpg", Name: id + ".jpg", Kind: "image", MIME: "image/jpeg",
		Size: 1, Width: 10, Height: 10, CreatedAt: time.Now().UTC(), GeoLat: &la, GeoLng: &ln, TakenMonth: "2026-10"})
	if err != nil {
		t.Fatal(err)
	}
}

func TestJobsScreen(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		if body := r.call(t, "POST", "/api/admin/work", authtest.PIN, map[string]any{"title": "  "}, 400); !strings.Contains(body, "title") {
			t.Errorf("no title: %s", body)
		}
		r.call(t, "POST", "/api/admin/work", authtest.PIN, map[string]any{"title": "X", "cityId": "c-draft"}, 400)
		r.call(t, "POST", "/api/admin/work", authtest.PIN, map[string]any{"title": "X", "month": "2026-13"}, 400)
		j := decode[JobDetail](t, r.call(t, "POST", "/api/admin/work", "staff", map[string]any{"title": "Burst pipe in a basement", "service": "s-water"}, 201))
		if j.Status != "draft" || j.Version != 1 || j.Needs == "" || j.MayPublish || !j.MayLinkLead {
			t.Errorf("created %+v", j)
		}
		ch := decode[JobChoices](t, r.call(t, "GET", "/api/admin/work/choices", "staff", nil, 200))
		if len(ch.Cities) != 2 || ch.Cities[0].Name != "Douglasville" || ch.Rules.MinWords != 60 || ch.Rules.MinPhotos != 2 {
			t.Errorf("choices %+v", ch)
		}

		// A photo taken in Marietta suggests Marietta and its month.
		photo(t, s, "p1", 33.9561, -84.5512)
		photo(t, s, "p2", 33.9561, -84.5512)
		j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/photos", "staff", map[string]any{"mediaId": "p1", "phase": "before"}, 200))
		if j.SuggestedCityID != "c-marietta" || j.SuggestedMonth != "2026-10" || len(j.Photos) != 1 || j.Photos[0].Phase != "before" || j.CityID != "" {
			t.Errorf("after a Marietta photo: %+v", j)
		}
		r.call(t, "POST", "/api/admin/work/"+j.ID+"/photos", "staff", map[string]any{"mediaId": "p2", "phase": "sideways"}, 400)
		r.call(t, "POST", "/api/admin/work/"+j.ID+"/photos", "staff", map[string]any{"mediaId": "gone", "phase": "after"}, 404)
		j = decode[JobDetail](t, r.call(t, "PUT", "/api/admin/work/"+j.ID+"/photos/p2", "staff", map[string]any{"phase": "after"}, 200))

		// Publishing needs a city and a month; the owner confirms the suggestion.
		if body := r.call(t, "POST", "/api/admin/work/"+j.ID+"/publish", "editor", map[string]any{"version": j.Version}, 400); !strings.Contains(body, "a city and a month") {
			t.Errorf("publish without a city: %s", body)
		}
		story := strings.Repeat("word ", 60)
		save := map[string]any{"version": j.Version, "title": j.Title, "cityId": j.SuggestedCityID, "month": j.SuggestedMonth, "service": "s-water",
			"story": story, "customerName": "Pat Doe", "nameConsent": true, "leadId": "no-such-lead"}
		if body := r.call(t, "PUT", "/api/admin/work/"+j.ID, "staff", save, 400); !strings.Contains(body, "lead") {
			t.Errorf("a lead that does not exist: %s", body)
		}
		save["leadId"] = "" // an editor's lead is ignored, not an error
		j = decode[JobDetail](t, r.call(t, "PUT", "/api/admin/work/"+j.ID, "editor", save, 200))
		if j.CityID != "c-marietta" || j.Words != 60 || !j.HasPage || j.Needs != "" || !j.MayPublish || j.MayLinkLead {
			t.Errorf("saved %+v", j)
		}
		r.call(t, "PUT", "/api/admin/work/"+j.ID, "editor", save, 409) // the version it was based on is gone
		if r.changed.Load() != 0 {
			t.Errorf("a draft job's changes re-rendered the pages %d times", r.changed.Load())
		}
		j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/publish", "editor", map[string]any{"version": j.Version}, 200))
		if j.Status != "published" || r.changed.Load() != 1 {
			t.Errorf("published %+v, pages re-rendered %d times", j, r.changed.Load())
		}

		// On the site, the job changes only by a session that may publish.
		save["version"] = j.Version
		for _, c := range [][2]string{{"PUT", "/api/admin/work/" + j.ID}, {"DELETE", "/api/admin/work/" + j.ID + "/photos/p1"},
			{"POST", "/api/admin/work/" + j.ID + "/photos"}, {"DELETE", "/api/admin/work/" + j.ID}} {
			for _, tok := range []string{"staff", authtest.PIN} {
				if body := r.call(t, c[0], c[1], tok, save, 403); !strings.Contains(body, "on the site") {
					t.Errorf("%s %s as %s: %s", c[0], c[1], tok, body)
				}
			}
		}
		j = decode[JobDetail](t, r.call(t, "DELETE", "/api/admin/work/"+j.ID+"/photos/p1", "admin", nil, 200))
		if len(j.Photos) != 1 || r.changed.Load() != 2 {
			t.Errorf("after removing a photo: %+v, re-rendered %d", j, r.changed.Load())
		}
		if m, err := s.GetMedia(context.Background(), "p1"); err != nil || m.JobID != nil {
			t.Errorf("removed photo: %+v %v, want in the library, in no job", m, err)
		}

		list := decode[JobList](t, r.call(t, "GET", "/api/admin/work", "editor", nil, 200))
		if list.Total != 1 || list.Jobs[0].City != "Marietta" || list.Jobs[0].Photos != 1 || list.Jobs[0].Status != "published" || list.Jobs[0].HasPage {
			t.Errorf("list %+v", list)
		}
		pub, _ := s.PublishedJobs(context.Background())
		if len(pub) != 1 || pub[0].CustomerName != "Pat Doe" || !pub[0].HasPlace {
			t.Errorf("published jobs %+v", pub)
		}
		j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/unpublish", "admin", map[string]any{"version": j.Version}, 200))
		if j.Status != "draft" || r.changed.Load() != 3 {
			t.Errorf("unpublished %+v", j)
		}
		// A photo of a job on the site cannot be moved out of it by staff.
		other := decode[JobDetail](t, r.call(t, "POST", "/api/admin/work", "staff", map[string]any{"title": "Other"}, 201))
		j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/publish", "admin", map[string]any{"version": j.Version}, 200))
		if body := r.call(t, "POST", "/api/admin/work/"+other.ID+"/photos", "staff", map[string]any{"mediaId": "p2", "phase": "after"}, 403); !strings.Contains(body, "on the site") {
			t.Errorf("staff moving a published job's photo: %s", body)
		}
		other = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+other.ID+"/photos", "editor", map[string]any{"mediaId": "p2", "phase": "after"}, 200))
		if len(other.Photos) != 1 || r.changed.Load() != 5 {
			t.Errorf("an editor moved the photo: %+v, re-rendered %d", other, r.changed.Load())
		}
		j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/unpublish", "admin", map[string]any{"version": j.Version}, 200))
		r.call(t, "DELETE", "/api/admin/work/"+j.ID, "staff", nil, 200)
		r.call(t, "GET", "/api/admin/work/"+j.ID, "staff", nil, 404)
		// Who published, took off, deleted and recorded the homeowner's agreement.
		rows, _, err := s.ListAudit(context.Background(), 50, 0)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, e := range rows {
			if e.Detail == j.Title || e.Detail == "Other" {
				count[e.Action]++
			}
		}
		if count[db.AuditJobPublish] != 2 || count[db.AuditJobUnpublish] != 2 || count[db.AuditJobDelete] != 1 || count[db.AuditJobNameConsent] != 1 {
			t.Errorf("audit log: %v", count)
		}
		if lib, _ := s.ListMedia(context.Background()); len(lib) != 2 {
			t.Errorf("the job's delete left %d photos, want both", len(lib))
		}
	})
}

// A photo taken far from every city suggests none; a staff member's lead
// link is kept from an editor's save.
func TestJobsSuggestionAndLead(t *testing.T) {
	t.Parallel()
	s := db.NewTestSQLite(t)
	r := newRoom(t, s)
	j := decode[JobDetail](t, r.call(t, "POST", "/api/admin/work", "editor", map[string]any{"title": "Far away"}, 201))
	photo(t, s, "far", 32.0809, -81.0912) // Savannah
	j = decode[JobDetail](t, r.call(t, "POST", "/api/admin/work/"+j.ID+"/photos", "editor", map[string]any{"mediaId": "far", "phase": ""}, 200))
	if j.SuggestedCityID != "" {
		t.Errorf("Savannah suggested %q", j.SuggestedCityID)
	}
	now := time.Now().UTC()
	if err := s.CreateLead(context.Background(), db.Lead{ID: "lead-1", CreatedAt: now, UpdatedAt: now, FirstName: "Pat", Phone: "4045550101", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	j = decode[JobDetail](t, r.call(t, "PUT", "/api/admin/work/"+j.ID, "staff", map[string]any{"version": j.Version, "title": "Far away", "leadId": "lead-1"}, 200))
	if j.LeadID != "lead-1" {
		t.Errorf("staff's lead link: %+v", j)
	}
	j = decode[JobDetail](t, r.call(t, "PUT", "/api/admin/work/"+j.ID, "editor", map[string]any{"version": j.Version, "title": "Far away 2", "leadId": ""}, 200))
	got, _ := s.GetJob(context.Background(), j.ID)
	if got.LeadID != "lead-1" || j.LeadID != "" {
		t.Errorf("an editor's save: stored lead %q, answered %q; want kept and not shown", got.LeadID, j.LeadID)
	}
}

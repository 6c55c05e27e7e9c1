package editor

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// BenchmarkContentListCities measures GET /api/admin/content?kind=city
// at 2,000 cities (issue 35's busiest column) on SQLite: the time and the
// bytes of the default page and of a search, and, as wholeList-bytes, the
// size of the answer before paging (every city in one answer, as the
// endpoint sent it until ADR 069). Run:
//
//	go test -run '^$' -bench ContentListCities -benchtime 20x ./web/editor
func BenchmarkContentListCities(b *testing.B) {
	s := db.NewTestSQLite(b)
	r := newRoom(b, s)
	c := contentdb.New(s)
	var tmpl ItemList
	res := r.Call(b, "GET", "/api/admin/content?kind=city&perPage=1", "", nil)
	if err := json.Unmarshal([]byte(res.Body), &tmpl); err != nil || len(tmpl.Items) == 0 {
		b.Fatalf("%d %s", res.StatusCode, res.Body)
	}
	first, err := c.Get(b.Context(), tmpl.Items[0].ID)
	if err != nil {
		b.Fatal(err)
	}
	var seed []contentdb.SeedItem
	for i := tmpl.Total; i < 2000; i++ {
		slug := fmt.Sprintf("cobb/bench-town-%04d", i)
		draft := strings.Replace(first.Draft, `"`+strings.SplitN(first.Slug, "/", 2)[1]+`"`, fmt.Sprintf("%q", "bench-town-"+fmt.Sprint(i)), 1)
		seed = append(seed, contentdb.SeedItem{Kind: "city", Slug: slug, JSON: draft, Position: i})
	}
	if _, err := c.SeedMissing(b.Context(), seed, time.Now()); err != nil {
		b.Fatal(err)
	}
	// The answer before paging: every city, as the old handler wrote it.
	var whole struct {
		Kind      string     `json:"kind"`
		Creatable bool       `json:"creatable"`
		Items     []ItemView `json:"items"`
	}
	for page := 1; ; page++ {
		var l ItemList
		res := r.Call(b, "GET", fmt.Sprintf("/api/admin/content?kind=city&perPage=200&page=%d", page), "", nil)
		if err := json.Unmarshal([]byte(res.Body), &l); err != nil {
			b.Fatal(err)
		}
		whole.Kind, whole.Creatable = l.Kind, l.Creatable
		whole.Items = append(whole.Items, l.Items...)
		if len(l.Items) < 200 {
			if l.Total != 2000 || len(whole.Items) != 2000 {
				b.Fatalf("%d cities of %d", len(whole.Items), l.Total)
			}
			break
		}
	}
	all, _ := json.Marshal(whole)
	for _, c := range []struct{ name, query string }{{"default-page", ""}, {"last-page", "&page=40"}, {"search", "&q=bench-town-19"}} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				res := r.Call(b, "GET", "/api/admin/content?kind=city"+c.query, "", nil)
				if res.StatusCode != http.StatusOK {
					b.Fatalf("%d %s", res.StatusCode, res.Body)
				}
				n = len(res.Body)
			}
			b.ReportMetric(float64(n), "bytes")
			b.ReportMetric(float64(len(all)), "wholeList-bytes")
		})
	}
}

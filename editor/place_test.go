package editor

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// A database seeded before cities had coordinates gets them at the next
// boot, in the working and the live copy, matched by origin so a renamed
// city gets its own; coordinates the owner typed are kept, and a second
// boot changes nothing.
func TestSeedPlacesCitiesOfAnExistingDatabase(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		items, err := e.svc.Store.List(ctx, content.KindCity)
		if err != nil || len(items) < 70 {
			t.Fatalf("cities: %d %v", len(items), err)
		}
		strip := func(data string) string {
			var m map[string]json.RawMessage
			json.Unmarshal([]byte(data), &m)
			delete(m, "lat")
			delete(m, "lng")
			b, _ := json.Marshal(m)
			return string(b)
		}
		// The previous release's rows: no coordinates anywhere.
		for _, it := range items {
			if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_items SET draft = ?, live = ? WHERE id = ?`), strip(it.Draft), strip(it.Live), it.ID); err != nil {
				t.Fatal(err)
			}
		}
		var marietta, smyrna string
		for _, it := range items {
			switch it.Origin {
			case "cobb/marietta":
				marietta = it.ID
			case "cobb/smyrna":
				smyrna = it.ID
			}
		}
		// The owner moved Marietta's page and typed Smyrna's position
		// himself, before this release.
		if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_items SET slug = 'cobb/marietta-ga', live_slug = 'cobb/marietta-ga',
			draft = REPLACE(draft, '"slug":"marietta"', '"slug":"marietta-ga"'), live = REPLACE(live, '"slug":"marietta"', '"slug":"marietta-ga"') WHERE id = ?`), marietta); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_items SET draft = REPLACE(draft, '"slug":', '"lat":33.9,"lng":-84.5,"slug":') WHERE id = ?`), smyrna); err != nil {
			t.Fatal(err)
		}
		embedded, _ := content.Load()
		if _, err := e.svc.Seed(ctx, embedded); err != nil {
			t.Fatal(err)
		}
		live, err := e.svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		placed := 0
		for _, c := range live.Cities {
			if c.Placed() {
				placed++
			}
		}
		if placed != len(live.Cities) {
			t.Errorf("%d of %d live cities placed", placed, len(live.Cities))
		}
		m, err := e.svc.Store.Get(ctx, marietta)
		if err != nil {
			t.Fatal(err)
		}
		var got content.City
		json.Unmarshal([]byte(m.Draft), &got)
		if got.Lat != 33.9526 || got.Lng != -84.5499 {
			t.Errorf("renamed Marietta's draft at %v, %v", got.Lat, got.Lng)
		}
		sm, _ := e.svc.Store.Get(ctx, smyrna)
		json.Unmarshal([]byte(sm.Draft), &got)
		if got.Lat != 33.9 || got.Lng != -84.5 {
			t.Errorf("the owner's Smyrna position was replaced: %v, %v", got.Lat, got.Lng)
		}
		if n, err := e.svc.PlaceCities(ctx, embedded); err != nil || n != 0 {
			t.Errorf("second boot changed %d items (%v)", n, err)
		}
	})
}

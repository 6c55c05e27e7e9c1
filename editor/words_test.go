package editor

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// A database seeded before the site's wording was a record (every record
// but that one) gets it at the next boot, with its defaults, once; the
// owner's edits of it are never overwritten by a later boot.
func TestSeedAddsTheWordingToAnExistingDatabase(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		// The database as the previous release left it.
		if _, err := s.DB().ExecContext(ctx, `DELETE FROM content_items WHERE kind = 'words'`); err != nil {
			t.Fatal(err)
		}
		embedded, _ := content.Load()
		if n, err := e.svc.Seed(ctx, embedded); err != nil || n != 1 {
			t.Fatalf("seed of an existing database: %d %v, want 1 record", n, err)
		}
		if n, err := e.svc.Seed(ctx, embedded); err != nil || n != 0 {
			t.Errorf("second seed: %d %v", n, err)
		}
		items, err := e.svc.Store.List(ctx, content.KindWords)
		if err != nil || len(items) != 1 || items[0].Slug != content.WordsKey || items[0].Status != "published" {
			t.Fatalf("words items: %v %+v", err, items)
		}
		// The owner edits and publishes; a later boot keeps the edit.
		w := content.DefaultWords()
		w["times"]["emergency"] = "45 minutes"
		data, _ := json.Marshal(w)
		it, err := e.svc.Save(ctx, items[0].ID, items[0].Version, data, owner)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatal(err)
		}
		if n, err := e.svc.Seed(ctx, embedded); err != nil || n != 0 {
			t.Errorf("seed after an edit: %d %v", n, err)
		}
		live, err := e.svc.Load(ctx)
		if err != nil || live.Words["times"]["emergency"] != "45 minutes" {
			t.Errorf("live emergency time = %q (%v)", live.Words["times"]["emergency"], err)
		}
	})
}

// A text naming an insert that does not exist saves as a draft but does
// not publish: the page would show the brackets.
func TestWordingWithUnknownInsertDoesNotPublish(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		items, err := e.svc.Store.List(ctx, content.KindWords)
		if err != nil || len(items) != 1 {
			t.Fatalf("%v %d", err, len(items))
		}
		w := content.DefaultWords()
		w["home"]["headline"] = "Restoration in {town}"
		data, _ := json.Marshal(w)
		it, err := e.svc.Save(ctx, items[0].ID, items[0].Version, data, owner)
		if err != nil {
			t.Fatalf("save: %v", err)
		}
		_, err = e.svc.Publish(ctx, it.ID, it.Version, owner)
		inv, ok := err.(*Invalid)
		if !ok || len(inv.Problems) != 1 || inv.Problems[0].Field != "home.headline" {
			t.Fatalf("publish: %v", err)
		}
	})
}

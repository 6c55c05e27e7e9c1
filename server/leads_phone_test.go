package server

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/spool"
)

// phonesByName maps each stored lead's first name to its stored and typed
// phone.
func phonesByName(t *testing.T, store *db.Store) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, l := range storedLeads(t, store) {
		out[l.FirstName] = [2]string{l.Phone, l.PhoneTyped}
	}
	return out
}

// The estimate form's numbers are stored in E.164 with what was typed
// kept; one the form accepts (ten digits) but that is no possible US
// number is stored as typed, and the visitor is thanked all the same.
func TestEstimateStoresNormalisedPhone(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	want := map[string][2]string{}
	for i, c := range []struct{ typed, stored string }{
		{"6785550199", "+16785550199"},
		{"770-555-0122", "+17705550122"},
		{"(404) 555-0134", "+14045550134"},
		{"+1 678.555.0100", "+16785550100"},
		{"1 (770) 555 0111", "+17705550111"},
		{"123-456-7890", "123-456-7890"},
	} {
		f := validForm()
		name := fmt.Sprintf("Caller%d", i)
		f.Set("name", name+" Test")
		f.Set("phone", c.typed)
		if r := postForm(t, h, "/api/estimate", f, fmt.Sprintf("10.19.0.%d", i+1), "application/json"); r.StatusCode != 201 {
			t.Fatalf("%q: %d %s", c.typed, r.StatusCode, r.Body)
		}
		want[name] = [2]string{c.stored, c.typed}
	}
	if diff := cmp.Diff(want, phonesByName(t, store)); diff != "" {
		t.Errorf("stored phones (-want, +got):\n%s", diff)
	}
}

// A lead spooled while the database was down is normalised when it is
// replayed, and so is one spooled by the version before (no phone_typed
// in its record).
func TestSpooledLeadPhoneNormalisedOnReplay(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "site.db")
	open := func() *db.Store {
		x, err := db.OpenSQLite(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := db.FromDB(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	store := open()
	k := leadServer(t, store, nil, nil, nil)
	store.Close() // the database is gone
	f := validForm()
	f.Set("name", "Spooled Visitor")
	f.Set("phone", "678.555.0199")
	if r := postForm(t, k.srv.Handler(), "/api/estimate", f, "10.19.1.1", "application/json"); r.StatusCode != 201 {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	now := time.Now().UTC()
	old := db.Lead{ID: "old-record", CreatedAt: now, UpdatedAt: now, FirstName: "Older", Phone: "770-555-0122", Status: "new", Source: "website"}
	if err := k.spool.Append(spool.Record{Key: old.ID, At: now, Lead: old}); err != nil {
		t.Fatal(err)
	}
	store2 := open()
	in := spool.NewIntake(notify.New(store2, notify.Config{}, quiet), k.spool, store2.Ping, quiet)
	if n, err := in.Replay(ctx); n != 2 || err != nil {
		t.Fatalf("replay: %d, %v", n, err)
	}
	want := map[string][2]string{"Spooled": {"+16785550199", "678.555.0199"}, "Older": {"+17705550122", "770-555-0122"}}
	if diff := cmp.Diff(want, phonesByName(t, store2)); diff != "" {
		t.Errorf("replayed phones (-want, +got):\n%s", diff)
	}
}

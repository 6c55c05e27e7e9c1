package db

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// phoneCases are typed numbers and how they are stored.
var phoneCases = []struct{ typed, stored string }{
	{"6785550199", "+16785550199"},
	{"770-555-0122", "+17705550122"},
	{"(404) 555-0134", "+14045550134"},
	{"+1 678.555.0100", "+16785550100"},
	{"678-555-0199 x12", "678-555-0199 x12"}, // an extension: kept as typed
	{"123-456-7890", "123-456-7890"},         // not a possible US number: kept
	{"+44 20 7946 0958", "+44 20 7946 0958"}, // not a US number: kept
}

func phoneLead(id, typed string, now time.Time) Lead {
	return Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Pat", LastName: id, Phone: typed, Status: "new", Source: "website"}
}

type storedPhone struct{ Phone, Typed string }

func storedPhones(t *testing.T, s *Store) map[string]storedPhone {
	t.Helper()
	ls, err := s.ListLeads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]storedPhone{}
	for _, l := range ls {
		out[l.ID] = storedPhone{l.Phone, l.PhoneTyped}
	}
	return out
}

// Both ways a lead is stored normalise its phone and keep what was typed;
// a number that cannot be normalised is stored as typed, without error.
func TestCreateLeadNormalisesPhone(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		want := map[string]storedPhone{}
		for i, c := range phoneCases {
			plain, outboxed := fmt.Sprintf("plain-%d", i), fmt.Sprintf("outbox-%d", i)
			if err := s.CreateLead(ctx, phoneLead(plain, c.typed, now)); err != nil {
				t.Fatalf("CreateLead %q: %v", c.typed, err)
			}
			if ok, err := s.CreateLeadWithOutbox(ctx, phoneLead(outboxed, c.typed, now), outboxRows(now, OutboxEmail)); err != nil || !ok {
				t.Fatalf("CreateLeadWithOutbox %q: %v %v", c.typed, ok, err)
			}
			want[plain] = storedPhone{c.stored, c.typed}
			want[outboxed] = storedPhone{c.stored, c.typed}
		}
		if diff := cmp.Diff(want, storedPhones(t, s)); diff != "" {
			t.Errorf("stored phones (-want, +got):\n%s", diff)
		}
		// A lead normalised before it is stored (the notifier does, to
		// announce what is stored) is stored the same: typed stays typed.
		l := phoneLead("twice", "(678) 555-0177", now).Normalized()
		if err := s.CreateLead(ctx, l); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.GetLead(ctx, "twice"); got.Phone != "+16785550177" || got.PhoneTyped != "(678) 555-0177" {
			t.Errorf("normalised twice: %q / %q", got.Phone, got.PhoneTyped)
		}
	})
}

// An admin's search by phone finds a normalised number however it is
// typed in the search box.
func TestLeadPhoneSearchAfterNormalising(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := s.CreateLead(ctx, phoneLead("a", "678.555.0199", now)); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"6785550199", "(678) 555-0199", "+1 678 555 0199", "555-0199"} {
			ls, n, err := s.QueryLeads(ctx, LeadQuery{Q: q, SearchContact: true})
			if err != nil || n != 1 || len(ls) != 1 {
				t.Errorf("search %q: %d leads, %v", q, n, err)
			}
		}
	})
}

// Rows stored before migration 012, or by an older instance during a
// rolling deploy (no phone_typed), are normalised when a store opens;
// numbers that cannot be normalised keep what was typed; normalised rows
// are left alone, and instances opening together do it once.
func TestOpenNormalisesStoredPhones(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		want := map[string]storedPhone{}
		for i, c := range phoneCases {
			id := fmt.Sprintf("old-%d", i)
			// The insert of the version before 012: no phone_typed.
			if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO avatar_leads (id, created_at, updated_at, first_name, phone)
				VALUES (?, ?, ?, 'Old', ?)`), id, now, now, c.typed); err != nil {
				t.Fatal(err)
			}
			want[id] = storedPhone{c.stored, c.typed}
		}
		// A lead without a phone is left as it is.
		if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO avatar_leads (id, created_at, updated_at, first_name, phone) VALUES ('nophone', ?, ?, 'No', '')`), now, now); err != nil {
			t.Fatal(err)
		}
		want["nophone"] = storedPhone{"", ""}
		// One stored by this version, with a typed form that differs
		// from the phone: untouched.
		if err := s.CreateLead(ctx, phoneLead("new", "770 555 0123", now)); err != nil {
			t.Fatal(err)
		}
		want["new"] = storedPhone{"+17705550123", "770 555 0123"}

		// Three instances open the database at once.
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.migrate(ctx) }()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, storedPhones(t, s)); diff != "" {
			t.Errorf("stored phones after open (-want, +got):\n%s", diff)
		}
		// A second open changes nothing.
		if err := s.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, storedPhones(t, s)); diff != "" {
			t.Errorf("stored phones after a second open (-want, +got):\n%s", diff)
		}
	})
}

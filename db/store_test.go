package db

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMigrationsAreIdempotent(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		if err := s.migrate(context.Background()); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		var n int
		if err := s.db.Get(&n, `SELECT COUNT(*) FROM schema_migrations`); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("no migration recorded")
		}
	})
}

func TestTopReviews(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		rs := []Review{
			{ID: "a", AuthorName: "Ann", ReviewText: "Fast and careful crew.", Rating: 5, CreatedTime: base, IsActive: true},
			// Same author, same second, same first 60 chars (case differs): a duplicate.
			{ID: "a2", AuthorName: "ANN", ReviewText: "FAST AND CAREFUL CREW.", Rating: 5, CreatedTime: base.Add(300 * time.Millisecond), IsActive: true},
			{ID: "b", AuthorName: "Bob", ReviewText: "", Rating: 5, CreatedTime: base.Add(-time.Hour), IsActive: true},
			{ID: "c", AuthorName: "Cy", ReviewText: "Good", Rating: 4, CreatedTime: base.Add(time.Hour), IsActive: true},
			{ID: "d", AuthorName: "Di", ReviewText: "Hidden", Rating: 5, CreatedTime: base.Add(2 * time.Hour), IsActive: false},
			{ID: "e", AuthorName: "Ed", ReviewText: "Great", Rating: 5, CreatedTime: base.Add(-2 * time.Hour), IsActive: true},
			{ID: "f", AuthorName: "Flo", ReviewText: "Also great", Rating: 5, CreatedTime: base.Add(-3 * time.Hour), IsActive: true},
		}
		if err := s.UpsertReviews(ctx, rs); err != nil {
			t.Fatal(err)
		}
		got, err := s.TopReviews(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.AuthorName)
		}
		// Newest first; the 4-star, the inactive and the duplicate are dropped; 3 shown.
		if diff := cmp.Diff([]string{"ANN", "Bob", "Ed"}, ids); diff != "" {
			t.Errorf("TopReviews authors (-want, +got):\n%s", diff)
		}
		// Upsert replaces by id.
		rs[0].ReviewText = "Changed"
		if err := s.UpsertReviews(ctx, rs[:1]); err != nil {
			t.Fatal(err)
		}
		var n int
		s.db.Get(&n, `SELECT COUNT(*) FROM google_reviews`)
		if n != len(rs) {
			t.Errorf("rows after upsert = %d, want %d", n, len(rs))
		}
		var text string
		s.db.Get(&text, s.q(`SELECT review_text FROM google_reviews WHERE id = ?`), "a")
		if text != "Changed" {
			t.Errorf("review a after upsert: %q, want Changed", text)
		}
	})
}

// Two instances may refresh reviews at the same moment (the public button
// on each, or the button beside the daily job): both saves succeed.
func TestReviewRefreshesHoldUnderConcurrency(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		start := make(chan struct{})
		errs := make(chan error, 12)
		var wg sync.WaitGroup
		for w := 0; w < 12; w++ {
			var rs []Review
			for i := 0; i < 5; i++ {
				rs = append(rs, Review{ID: fmt.Sprintf("r%d", i), AuthorName: fmt.Sprintf("W%d", w), ReviewText: "ok", Rating: 5, CreatedTime: base, IsActive: true})
			}
			if w%2 == 1 { // the other order too: rows must still lock in one order
				slices.Reverse(rs)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- s.UpsertReviews(ctx, rs)
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent refresh failed: %v", err)
			}
		}
		var n int
		s.db.Get(&n, `SELECT COUNT(*) FROM google_reviews`)
		if n != 5 {
			t.Errorf("%d review rows after 12 concurrent refreshes of 5, want 5", n)
		}
	})
}

func TestMediaCRUD(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for i := 0; i < 3; i++ {
			m := Media{ID: fmt.Sprint("m", i), Project: "kitchen-remodel", Path: fmt.Sprintf("projects/kitchen-remodel/%d.jpg", i),
				Name: fmt.Sprintf("%d.jpg", i), Kind: "image", MIME: "image/jpeg", Size: 100, Width: 800, Height: 600, CreatedAt: now.Add(time.Duration(i) * time.Minute)}
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		list, err := s.ListMedia(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 3 || list[0].ID != "m2" {
			t.Fatalf("ListMedia = %d items, first %q; want 3, newest m2 first", len(list), list[0].ID)
		}
		if !list[0].CreatedAt.Equal(now.Add(2 * time.Minute)) {
			t.Errorf("created_at round trip = %v", list[0].CreatedAt)
		}
		if gone, err := s.DeleteMedia(ctx, "m1"); err != nil || gone.Path != "projects/kitchen-remodel/1.jpg" {
			t.Fatalf("DeleteMedia = %+v, %v", gone, err)
		}
		if _, err := s.DeleteMedia(ctx, "m1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("second delete err = %v, want ErrNotFound", err)
		}
		if _, err := s.GetMedia(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("GetMedia(nope) err = %v, want ErrNotFound", err)
		}
	})
}

func TestUniqueReviewsEmptyAndCap(t *testing.T) {
	if got := UniqueReviews(nil, 3); len(got) != 0 {
		t.Fatalf("UniqueReviews(nil) = %v", got)
	}
}

func TestLeads(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)
		l := Lead{ID: "L1", CreatedAt: now, UpdatedAt: now, FirstName: "Ana", LastName: "Lopez", Phone: "7705550100",
			Email: "ana@example.com", City: "Marietta", DamageType: "Water Damage", Status: "new", IsEmergency: true, Source: "website"}
		if err := s.CreateLead(ctx, l); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetLead(ctx, "L1")
		if err != nil {
			t.Fatal(err)
		}
		want := l
		want.Phone, want.PhoneTyped = "+17705550100", "7705550100" // stored normalised, typed kept
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip (-want, +got):\n%s", diff)
		}
		later := now.Add(time.Hour)
		if err := s.SetLeadStatus(ctx, "L1", "contacted", later); err != nil {
			t.Fatal(err)
		}
		got, _ = s.GetLead(ctx, "L1")
		if got.Status != "contacted" || !got.UpdatedAt.Equal(later) {
			t.Errorf("status %q updated %v", got.Status, got.UpdatedAt)
		}
		if err := s.SetLeadStatus(ctx, "L1", "lost", later); err == nil {
			t.Error("invalid status accepted")
		}
		if err := s.SetLeadStatus(ctx, "nope", "new", later); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing lead: %v", err)
		}
		ls, _ := s.ListLeads(ctx)
		if len(ls) != 1 {
			t.Errorf("%d leads", len(ls))
		}
	})
}

func TestSessionsAndSettings(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		se := Session{ID: "id1", TokenHash: "h1", IP: "192.0.2.1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(3 * time.Hour)}
		if err := s.CreateSession(ctx, se); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(59*time.Minute)); !ok {
			t.Error("session invalid before expiry")
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(time.Hour)); ok {
			t.Error("session valid at expiry")
		}
		if ok, _ := s.SessionValid(ctx, "nope", now); ok {
			t.Error("unknown session valid")
		}
		// Activity slides the expiry, never past the hard maximum.
		got, err := s.TouchSession(ctx, "h1", now.Add(50*time.Minute), time.Hour)
		if err != nil || got.ID != "id1" || got.IP != "192.0.2.1" || got.UserID != "" {
			t.Fatalf("touch: %+v %v", got, err)
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(100*time.Minute)); !ok {
			t.Error("activity did not slide the expiry")
		}
		s.TouchSession(ctx, "h1", now.Add(150*time.Minute), time.Hour)
		s.TouchSession(ctx, "h1", now.Add(175*time.Minute), time.Hour)
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(3*time.Hour)); ok {
			t.Error("session outlived its hard expiry")
		}
		if _, err := s.TouchSession(ctx, "h1", now.Add(3*time.Hour), time.Hour); !errors.Is(err, ErrNotFound) {
			t.Errorf("touch past hard expiry: %v", err)
		}
		// Revocation: by token, by id, and every PIN session at once.
		s.CreateSession(ctx, Session{ID: "id2", TokenHash: "h2", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		s.CreateSession(ctx, Session{ID: "id3", TokenHash: "h3", UserID: "u1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		s.CreateSession(ctx, Session{ID: "id4", TokenHash: "h4", CreatedAt: now.Add(time.Minute), ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		list, err := s.ListSessions(ctx, now.Add(2*time.Minute))
		if err != nil || len(list) != 4 || list[0].ID != "id4" {
			t.Fatalf("list: %+v %v", list, err)
		}
		if ok, err := s.RevokeSession(ctx, "h2"); !ok || err != nil {
			t.Errorf("revoke h2: %v %v", ok, err)
		}
		if ok, _ := s.SessionValid(ctx, "h2", now); ok {
			t.Error("revoked session still valid")
		}
		if err := s.RevokeSessionByID(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoke unknown id: %v", err)
		}
		if n, _ := s.RevokeUserSessions(ctx, ""); n != 2 { // h1 and h4, not the account's h3
			t.Errorf("revoked %d PIN sessions, want 2", n)
		}
		if ok, _ := s.SessionValid(ctx, "h3", now); !ok {
			t.Error("revoking PIN sessions ended an account session")
		}
		if err := s.RevokeSessionByID(ctx, "id3"); err != nil {
			t.Error(err)
		}
		s.DeleteExpiredSessions(ctx, now.Add(4*time.Hour))
		if _, err := s.GetSetting(ctx, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing setting: %v", err)
		}
		if err := s.SetSettings(ctx, map[string]string{"business_name": "A", "phone": "1"}, now); err != nil {
			t.Fatal(err)
		}
		if err := s.SetSettings(ctx, map[string]string{"business_name": "B"}, now); err != nil {
			t.Fatal(err)
		}
		m, _ := s.Settings(ctx)
		if m["business_name"] != "B" || m["phone"] != "1" {
			t.Errorf("settings %v", m)
		}
		first, err := s.SetSettingIfAbsent(ctx, "pin", "p1", now)
		second, _ := s.SetSettingIfAbsent(ctx, "pin", "p2", now)
		if err != nil || !first || second {
			t.Errorf("SetSettingIfAbsent first=%v second=%v err=%v", first, second, err)
		}
		if v, _ := s.GetSetting(ctx, "pin"); v != "p1" {
			t.Errorf("pin = %q", v)
		}
	})
}

// Instances booting together write the same settings at once (the PIN in
// use, a generated PIN). Every writer must succeed, exactly one
// SetSettingIfAbsent must win, and the stored value must be one of those
// written. The old DELETE-then-INSERT failed here on PostgreSQL with a
// duplicate primary key.
func TestSettingsHoldUnderConcurrentWriters(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		const writers = 16
		for round := 0; round < 5; round++ {
			key := fmt.Sprintf("race_%d", round)
			start := make(chan struct{})
			errs := make(chan error, 2*writers)
			wins := make(chan string, writers)
			var wg sync.WaitGroup
			for i := 0; i < writers; i++ {
				wg.Add(2)
				v := fmt.Sprintf("v%d", i)
				go func() {
					defer wg.Done()
					<-start
					errs <- s.SetSettings(ctx, map[string]string{key: v, key + "_b": v}, now)
				}()
				go func() {
					defer wg.Done()
					<-start
					ok, err := s.SetSettingIfAbsent(ctx, key+"_once", v, now)
					if ok {
						wins <- v
					}
					errs <- err
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			close(wins)
			for err := range errs {
				if err != nil {
					t.Fatalf("round %d: concurrent write failed: %v", round, err)
				}
			}
			var won []string
			for v := range wins {
				won = append(won, v)
			}
			if len(won) != 1 {
				t.Fatalf("round %d: SetSettingIfAbsent won %d times (%v), want once", round, len(won), won)
			}
			if got, _ := s.GetSetting(ctx, key+"_once"); got != won[0] {
				t.Errorf("round %d: stored %q, the winner wrote %q", round, got, won[0])
			}
			a, _ := s.GetSetting(ctx, key)
			b, _ := s.GetSetting(ctx, key+"_b")
			// One save's keys land together: both come from the same writer.
			if !strings.HasPrefix(a, "v") || a != b {
				t.Errorf("round %d: stored %q and %q, want one writer's pair", round, a, b)
			}
		}
	})
}

package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

func linkLead(t *testing.T, s *Store, id string, now time.Time) {
	t.Helper()
	if err := s.CreateLead(context.Background(), Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: id + "@example.com",
		City: "Smyrna", Status: "new", Source: "website", DamageType: "Water Damage"}); err != nil {
		t.Fatal(err)
	}
}

// Links: issued, found by hash while live, dead when unknown, revoked
// or expired; opens counted; a lead's list; revoking needs the right
// lead; a homeowner's link expires 90 days after completion and works
// again when the job is reopened.
func TestLeadLinks(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
		linkLead(t, s, "lead-a", now)
		linkLead(t, s, "lead-b", now)
		home, err := s.IssueLeadLink(ctx, "lead-a", LinkHomeowner, "h-home", nil, SystemActor, now)
		if err != nil || home.ExpiresAt != nil {
			t.Fatalf("issue: %+v %v", home, err)
		}
		in30 := now.Add(30 * 24 * time.Hour)
		adj, err := s.IssueLeadLink(ctx, "lead-a", LinkAdjuster, "h-adj", &in30, Actor{Name: "Owner"}, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.IssueLeadLink(ctx, "nope", LinkHomeowner, "h-x", nil, SystemActor, now); !errors.Is(err, ErrBadLink) {
			t.Errorf("unknown lead: %v", err)
		}
		if _, err := s.IssueLeadLink(ctx, "lead-a", "owner", "h-y", nil, SystemActor, now); !errors.Is(err, ErrBadLink) {
			t.Errorf("unknown kind: %v", err)
		}
		if _, err := s.IssueLeadLink(ctx, "lead-b", LinkHomeowner, "h-home", nil, SystemActor, now); err == nil {
			t.Error("a hash issued twice")
		}
		got, err := s.LeadLinkByHash(ctx, "h-adj", now.Add(time.Hour))
		if err != nil || got.ID != adj.ID || got.LeadID != "lead-a" || got.Kind != LinkAdjuster {
			t.Fatalf("by hash: %+v %v", got, err)
		}
		for _, c := range []struct {
			hash string
			at   time.Time
		}{{"", now}, {"h-unknown", now}, {"h-adj", in30}, {"h-adj", in30.Add(time.Hour)}} {
			if _, err := s.LeadLinkByHash(ctx, c.hash, c.at); !errors.Is(err, ErrNotFound) {
				t.Errorf("%q at %v: %v", c.hash, c.at, err)
			}
		}
		for range 3 {
			if err := s.CountLeadLinkOpen(ctx, home.ID, now.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		links, err := s.LeadLinks(ctx, "lead-a")
		if err != nil || len(links) != 2 {
			t.Fatalf("links: %+v %v", links, err)
		}
		for _, l := range links {
			if l.ID == home.ID && (l.Opens != 3 || l.LastOpenedAt == nil || !l.LastOpenedAt.Equal(now.Add(time.Minute))) {
				t.Errorf("opens: %+v", l)
			}
		}
		if other, _ := s.LeadLinks(ctx, "lead-b"); len(other) != 0 {
			t.Errorf("lead-b has %d links", len(other))
		}
		if _, err := s.RevokeLeadLink(ctx, "lead-b", adj.ID, Actor{Name: "Owner"}, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoked through another lead: %v", err)
		}
		if _, err := s.RevokeLeadLink(ctx, "lead-a", adj.ID, Actor{Name: "Owner"}, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LeadLinkByHash(ctx, "h-adj", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoked link alive: %v", err)
		}
		if _, err := s.RevokeLeadLink(ctx, "lead-a", adj.ID, Actor{Name: "Owner"}, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoked twice: %v", err)
		}
		// Completion: 90 days more; reopening: no end.
		if _, err := s.ChangeLeadStatus(ctx, "lead-a", "completed", SystemActor, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LeadLinkByHash(ctx, "h-home", now.Add(HomeLinkAfterCompletion-time.Minute)); err != nil {
			t.Errorf("before expiry: %v", err)
		}
		if _, err := s.LeadLinkByHash(ctx, "h-home", now.Add(HomeLinkAfterCompletion)); !errors.Is(err, ErrNotFound) {
			t.Errorf("after expiry: %v", err)
		}
		late, err := s.IssueLeadLink(ctx, "lead-a", LinkHomeowner, "h-late", nil, SystemActor, now)
		if err != nil || late.ExpiresAt == nil || !late.ExpiresAt.Equal(now.Add(HomeLinkAfterCompletion)) {
			t.Errorf("issued after completion: %+v %v", late, err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "lead-a", "scheduled", SystemActor, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LeadLinkByHash(ctx, "h-home", now.Add(2*HomeLinkAfterCompletion)); err != nil {
			t.Errorf("reopened: %v", err)
		}
		if n, err := s.RevokeHomeLinks(ctx, "lead-a", Actor{Name: "Owner"}, now); err != nil || n != 2 {
			t.Errorf("revoke home links: %d %v", n, err)
		}
		if _, err := s.LeadLinkByHash(ctx, "h-home", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("home link alive after revoke: %v", err)
		}
		tl, _ := s.LeadTimeline(ctx, "lead-a")
		var linkEvents int
		for _, e := range tl {
			if e.Kind == EventLink {
				linkEvents++
			}
		}
		if linkEvents != 3 { // adjuster issued, adjuster revoked, homeowner revoked
			t.Errorf("link events: %d", linkEvents)
		}
	})
}

// A progress step is on the timeline with the homeowner's message in
// the same transaction: when telling fails, nothing is recorded. The
// status hook runs inside the status change and can stop it too.
func TestRecordProgressAndStatusHook(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		linkLead(t, s, "lead-p", now)
		boom := errors.New("boom")
		if _, err := s.RecordProgress(ctx, "lead-p", ProgressOnTheWay, Actor{Name: "Owner"}, now, func(context.Context, *sqlx.Tx, LeadEvent) error { return boom }); !errors.Is(err, boom) {
			t.Fatalf("tell failed: %v", err)
		}
		if _, err := s.RecordProgress(ctx, "lead-p", "teleported", Actor{Name: "Owner"}, now, nil); err == nil {
			t.Error("unknown step recorded")
		}
		told := 0
		e, err := s.RecordProgress(ctx, "lead-p", ProgressDryingStarted, Actor{Name: "Owner"}, now, func(context.Context, *sqlx.Tx, LeadEvent) error { told++; return nil })
		if err != nil || told != 1 || e.To != ProgressDryingStarted {
			t.Fatalf("progress: %+v %v", e, err)
		}
		s.OnStatusChangeTx(func(_ context.Context, _ *sqlx.Tx, e LeadEvent) error {
			if e.To == "cancelled" {
				return boom
			}
			told++
			return nil
		})
		if _, err := s.ChangeLeadStatus(ctx, "lead-p", "scheduled", SystemActor, now); err != nil || told != 2 {
			t.Fatalf("status: %v told %d", err, told)
		}
		if _, err := s.ChangeLeadStatus(ctx, "lead-p", "cancelled", SystemActor, now); !errors.Is(err, boom) {
			t.Fatalf("status hook error: %v", err)
		}
		p, err := s.LeadForPortal(ctx, "lead-p")
		if err != nil || p.Lead.Status != "scheduled" {
			t.Fatalf("portal: %+v %v", p.Lead.Status, err)
		}
		progress := 0
		for _, e := range p.Timeline {
			if e.Kind == EventProgress {
				progress++
			}
		}
		if progress != 1 {
			t.Errorf("progress events: %d; want 1", progress)
		}
	})
}

// Links issued and revoked on one handle while another handle on the
// same database keeps writing (two instances, or the site beside its
// own outbox): none fails. On SQLite a transaction that read before its
// first write failed with "database is locked (517)" when the other
// committed in between, as an acknowledgement's link did in a full
// make test beside two CPU hogs.
func TestLeadLinksBesideOtherWrites(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
		linkLead(t, a, "lead-w", now)
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for i := 0; i < 40; i++ {
			wg.Add(2)
			go func(i int) {
				defer wg.Done()
				l, err := a.IssueLeadLink(ctx, "lead-w", []string{LinkHomeowner, LinkAdjuster}[i%2], fmt.Sprintf("h-%d", i), nil, Actor{Name: "Owner"}, now)
				if err != nil {
					errs <- fmt.Errorf("issue %d: %w", i, err)
					return
				}
				if i%4 == 1 {
					if _, err := a.RevokeLeadLink(ctx, "lead-w", l.ID, Actor{Name: "Owner"}, now); err != nil {
						errs <- fmt.Errorf("revoke %d: %w", i, err)
					}
				}
			}(i)
			go func(i int) {
				defer wg.Done()
				if err := b.CreateLead(ctx, Lead{ID: fmt.Sprintf("other-%d", i), CreatedAt: now, UpdatedAt: now, FirstName: "Bo", Email: "bo@example.com",
					City: "Smyrna", Status: "new", Source: "website", DamageType: "Water Damage"}); err != nil {
					errs <- fmt.Errorf("lead %d: %w", i, err)
				}
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		links, err := a.LeadLinks(ctx, "lead-w")
		if err != nil || len(links) != 40 {
			t.Errorf("%d links, %v", len(links), err)
		}
	})
}

package db

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestQueryLeads(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 11, 10, 15, 0, 0, 0, time.UTC)
		mk := func(i int, first, last, city, phone, email, damage, status string, emergency bool) {
			l := Lead{ID: fmt.Sprintf("L%03d", i), CreatedAt: base.Add(time.Duration(i) * time.Hour), UpdatedAt: base, FirstName: first, LastName: last,
				City: city, Phone: phone, Email: email, DamageType: damage, Status: status, IsEmergency: emergency, Source: "website"}
			if err := s.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		mk(1, "Maria", "Gonzalez", "Marietta", "(770) 555-0134", "maria@example.com", "Water Damage", "new", true)
		mk(2, "John", "Smith", "Atlanta", "404-555-0199", "js@example.com", "Fire Damage", "contacted", false)
		mk(3, "Ann", "O'Neil", "Decatur", "678.555.0100", "ann_100%@example.com", "Water Damage", "new", false)
		for i := 4; i < 64; i++ {
			mk(i, "Bulk", fmt.Sprintf("Lead%d", i), "Roswell", "7705550000", "", "Mold Remediation", "scheduled", false)
		}
		ids := func(ls []Lead) []string {
			var out []string
			for _, l := range ls {
				out = append(out, l.ID)
			}
			return out
		}
		yes, no := true, false
		from := time.Date(2026, 11, 10, 16, 0, 0, 0, time.UTC)
		to := time.Date(2026, 11, 10, 18, 0, 0, 0, time.UTC)
		cases := []struct {
			name  string
			q     LeadQuery
			want  []string
			total int
		}{
			{"name, any case", LeadQuery{Q: "mARIA"}, []string{"L001"}, 1},
			{"full name", LeadQuery{Q: "john smith"}, []string{"L002"}, 1},
			{"city", LeadQuery{Q: "decatur"}, []string{"L003"}, 1},
			{"apostrophe", LeadQuery{Q: "o'neil"}, []string{"L003"}, 1},
			{"a wildcard is literal", LeadQuery{Q: "%"}, nil, 0},
			{"underscore is literal", LeadQuery{Q: "_"}, nil, 0},
			{"phone without contact search", LeadQuery{Q: "555-0134"}, nil, 0},
			{"phone digits with contact search", LeadQuery{Q: "5550134", SearchContact: true}, []string{"L001"}, 1},
			{"formatted phone", LeadQuery{Q: "(404) 555 0199", SearchContact: true}, []string{"L002"}, 1},
			{"email without contact search", LeadQuery{Q: "js@example"}, nil, 0},
			{"email with contact search", LeadQuery{Q: "JS@EXAMPLE", SearchContact: true}, []string{"L002"}, 1},
			{"literal % in an email", LeadQuery{Q: "100%", SearchContact: true}, []string{"L003"}, 1},
			{"status", LeadQuery{Status: "new"}, []string{"L003", "L001"}, 2},
			{"damage", LeadQuery{DamageType: "Fire Damage"}, []string{"L002"}, 1},
			{"emergency", LeadQuery{Emergency: &yes}, []string{"L001"}, 1},
			{"not emergency, new", LeadQuery{Emergency: &no, Status: "new"}, []string{"L003"}, 1},
			{"date range", LeadQuery{From: &from, To: &to}, []string{"L002", "L001"}, 2},
			{"page 2 of 10", LeadQuery{Status: "scheduled", Limit: 10, Offset: 10}, []string{"L053", "L052", "L051", "L050", "L049", "L048", "L047", "L046", "L045", "L044"}, 60},
		}
		for _, c := range cases {
			got, total, err := s.QueryLeads(ctx, c.q)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if fmt.Sprint(ids(got)) != fmt.Sprint(c.want) || total != c.total {
				t.Errorf("%s: got %v (total %d), want %v (total %d)", c.name, ids(got), total, c.want, c.total)
			}
		}
		// Newest first, and EachLead streams the same selection.
		var streamed []string
		if err := s.EachLead(ctx, LeadQuery{Status: "new"}, func(l Lead) error { streamed = append(streamed, l.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(streamed) != "[L003 L001]" {
			t.Errorf("streamed %v", streamed)
		}
		stop := errors.New("stop")
		if err := s.EachLead(ctx, LeadQuery{}, func(Lead) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("a callback error is returned: %v", err)
		}
	})
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

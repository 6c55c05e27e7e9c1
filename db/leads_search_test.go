package db

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// oldLeadWhere is the leads search as it was before migration 116: six
// LOWER() and a chain of REPLACE() on every lead. It is the reference the
// search columns must agree with.
func oldLeadWhere(q LeadQuery) (string, []any) {
	const phoneDigitsSQL = `REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(phone, '(', ''), ')', ''), ' ', ''), '-', ''), '.', ''), '+', '')`
	t := strings.TrimSpace(q.Q)
	pat := "%" + likeEscape(strings.ToLower(t)) + "%"
	ors := []string{`LOWER(first_name) LIKE ? ESCAPE '\'`, `LOWER(last_name) LIKE ? ESCAPE '\'`,
		`LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\'`, `LOWER(city) LIKE ? ESCAPE '\'`}
	args := []any{pat, pat, pat, pat}
	if q.SearchContact {
		ors = append(ors, `LOWER(email) LIKE ? ESCAPE '\'`)
		args = append(args, pat)
		if d := digitsOf(t); len(d) >= 3 {
			ors = append(ors, phoneDigitsSQL+` LIKE ?`)
			args = append(args, "%"+d+"%")
		}
	}
	conds := []string{"(" + strings.Join(ors, " OR ") + ")"}
	if q.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, q.Status)
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// TestLeadSearchEqualsTheOldSearch: on generated leads, every search (a
// name, part of one, a full name, a city, an email, a phone typed every
// way people type one, digits that are in emails too, wildcards) with
// and without the contact details, and with a status, selects exactly
// the leads the old query selected, in the same order, with the same
// total, page by page.
func TestLeadSearchEqualsTheOldSearch(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(116, 35))
		firsts := []string{"James", "Mary", "Ann", "Anne", "Jo", "Joe", "DeShawn", "O'Neil", "Mary Ann", "Al_x", "100%"}
		lasts := []string{"Smith", "Smithers", "Jones", "Lee", "Leeds", "Ng", "de la Cruz"}
		cities := []string{"Atlanta", "Marietta", "Sandy Springs", "East Point", "Smyrna"}
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := 0; i < 300; i++ {
			f, l := firsts[rng.IntN(len(firsts))], lasts[rng.IntN(len(lasts))]
			phone := fmt.Sprintf("(%d) %03d-%04d", []int{404, 678, 770}[rng.IntN(3)], 200+rng.IntN(800), rng.IntN(10000))
			if i%17 == 0 {
				phone = "+44 20 7946 0" + fmt.Sprint(100+rng.IntN(900)) // kept as typed
			}
			at := base.Add(time.Duration(i/3) * time.Hour) // ties: three leads an hour
			lead := Lead{ID: fmt.Sprintf("lead-%03d", rng.IntN(1000)) + fmt.Sprint(i), CreatedAt: at, UpdatedAt: at, FirstName: f, LastName: l,
				Phone: phone, Email: strings.ToLower(strings.ReplaceAll(f, " ", "")) + fmt.Sprint(rng.IntN(700)) + "@example.com",
				City: cities[rng.IntN(len(cities))], DamageType: "water", Status: LeadStatuses[rng.IntN(len(LeadStatuses))], Source: "website"}
			if err := s.CreateLead(ctx, lead); err != nil {
				t.Fatal(err)
			}
		}
		queries := []string{"smith", "SMITH", "mary ann", "ann", "ann smith", "y a", "atlanta", "sandy", "point", "o'neil", "al_x", "100%",
			"_", "%", "jo", "404", "(404) 5", "(404) 55", "404-5", "404.55", "+1 404", "678 2", "7946", "20 79", "55", "example.com",
			"joe1", "mary", "123", "@", "ng", "de la", "  lee  ", "x"}
		for _, text := range queries {
			for _, contact := range []bool{false, true} {
				for _, status := range []string{"", "new"} {
					q := LeadQuery{Q: text, SearchContact: contact, Status: status}
					where, args := oldLeadWhere(q)
					var want []string
					if err := s.db.SelectContext(ctx, &want, s.q(`SELECT id FROM avatar_leads`+where+` ORDER BY created_at DESC, id`), args...); err != nil {
						t.Fatal(err)
					}
					var got []string
					total := -1
					for page := 0; page*7 < max(total, 1); page++ {
						q.Limit, q.Offset = 7, page*7
						ls, n, err := s.QueryLeads(ctx, q)
						if err != nil {
							t.Fatal(err)
						}
						total = n
						for _, l := range ls {
							got = append(got, l.ID)
						}
					}
					if d := cmp.Diff(want, got); d != "" || total != len(want) {
						t.Fatalf("%q (contact %v, status %q): total %d, %d expected; ids (-old, +new):\n%s", text, contact, status, total, len(want), d)
					}
				}
			}
		}
		// Letters beyond ASCII fold both ways (SQLite's LOWER() folded
		// only A-Z; the columns are folded by Go).
		if err := s.CreateLead(ctx, Lead{ID: "accent", CreatedAt: base, UpdatedAt: base, FirstName: "ÉLODIE", LastName: "Núñez", City: "Atlanta",
			Phone: "4045550100", Email: "E@X.COM", DamageType: "water", Status: "new"}); err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"élodie", "ÉLODIE", "núñez", "NÚÑEZ"} {
			if ls, n, err := s.QueryLeads(ctx, LeadQuery{Q: text, Limit: 10}); err != nil || n != 1 || ls[0].ID != "accent" {
				t.Errorf("%q: %d leads, %v", text, n, err)
			}
		}
		// What nobody can type matches nothing, even across the parts.
		if _, n, err := s.QueryLeads(ctx, LeadQuery{Q: "élodie núñez" + searchSep + "atlanta", SearchContact: true, Limit: 10}); err != nil || n != 0 {
			t.Errorf("a search with the separator: %d leads, %v", n, err)
		}
	})
}

// TestLeadSearchFilledForOlderLeads: leads stored without the search
// columns (before migration 116, a restored older backup) are found once
// the store opens, and a phone the start normalises is searched by its
// stored digits.
func TestLeadSearchFilledForOlderLeads(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		for i, p := range []string{"+14045550111", "(678) 555-0122"} {
			if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO avatar_leads (id, created_at, updated_at, first_name, last_name, phone, phone_typed, email, city,
				street_address, zip_code, damage_type, status, is_emergency, source, insurance_carrier, claim_number, notes)
				VALUES (?, ?, ?, 'Old', 'Lead', ?, '', 'old@example.com', 'Decatur', '', '', 'water', 'new', ?, 'website', '', '', '')`),
				fmt.Sprint("old-", i), now, now, p, false); err != nil {
				t.Fatal(err)
			}
		}
		if _, n, _ := s.QueryLeads(ctx, LeadQuery{Q: "old lead"}); n != 0 {
			t.Fatalf("found before the fill: %d", n)
		}
		if err := s.normalizeLeadPhones(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.fillLeadSearch(ctx); err != nil {
			t.Fatal(err)
		}
		for q, want := range map[string]int{"old lead": 2, "decatur": 2, "old@example": 2, "(678) 555": 1, "1678555": 1, "404555": 1} {
			if _, n, err := s.QueryLeads(ctx, LeadQuery{Q: q, SearchContact: true}); err != nil || n != want {
				t.Errorf("%q: %d leads, want %d (%v)", q, n, want, err)
			}
		}
	})
}

package db_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/db"
)

// The store's reads behind the admin answers `make bench-data` times,
// on SQLite at 100,000 leads and the traffic cmd/benchdata generates for
// them (10 raw events per lead over 30 days, a year of daily roll-ups
// before): the dashboard's tiles and tool cards (VitalCounts over 28
// days, Counts over 7) and the Analytics report (Counts over the period
// and the period before, LeadSources). Seeding takes about a minute;
// BENCHDATA_SQLITE=/some/dir keeps the seeded database there and reuses
// it on the same day, so a profile can be taken again at once:
//
//	BENCHDATA_SQLITE=/tmp/bench100k go test ./db -run '^$' -bench AdminAnswers -cpuprofile cpu.out
func BenchmarkAdminAnswers(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	now := time.Now()
	day := func(ago int) string { return analytics.Day(now.AddDate(0, 0, -ago)) }
	for _, c := range []struct {
		name string
		fn   func() error
	}{
		{"VitalCounts/28d", func() error { _, err := s.VitalCounts(ctx, day(analytics.VitalDays-1), day(0)); return err }},
		{"Counts/7d", func() error { _, err := s.Counts(ctx, day(6), day(0)); return err }},
		{"Counts/30d", func() error { _, err := s.Counts(ctx, day(29), day(0)); return err }},
		{"Counts/365d", func() error { _, err := s.Counts(ctx, day(364), day(0)); return err }},
		{"Counts/365d-before", func() error { _, err := s.Counts(ctx, day(729), day(365)); return err }},
		{"LeadSources/365d", func() error {
			_, err := s.LeadSources(ctx, now.AddDate(-1, 0, 0), now)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.fn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var seeded struct {
	once sync.Once
	dir  string
	err  error
}

// benchStore is a SQLite store holding what cmd/benchdata seeds at
// 100,000 leads.
func benchStore(b *testing.B) *db.Store {
	b.Helper()
	if testing.Short() {
		b.Skip("seeds 100,000 leads and a month of traffic")
	}
	ctx := context.Background()
	seeded.once.Do(func() {
		dir := os.Getenv("BENCHDATA_SQLITE")
		if dir == "" {
			dir, seeded.err = os.MkdirTemp("", "bench-admin-")
			if seeded.err != nil {
				return
			}
		}
		seeded.dir = dir
		marker := filepath.Join(dir, "seeded-"+analytics.Day(time.Now()))
		if _, err := os.Stat(marker); err == nil {
			return
		}
		os.Remove(filepath.Join(dir, "site.db"))
		os.Remove(filepath.Join(dir, "site.db-wal"))
		os.Remove(filepath.Join(dir, "site.db-shm"))
		st, err := db.Open(ctx, "", dir)
		if err != nil {
			seeded.err = err
			return
		}
		defer st.Close()
		const n = 100_000
		now := time.Now()
		rng := rand.New(rand.NewPCG(n, 35))
		if seeded.err = benchdata.Leads(ctx, st, n, now, rng); seeded.err != nil {
			return
		}
		visits := n * 10 / 30 * 10 / 104
		if _, seeded.err = benchdata.Analytics(ctx, st, benchdata.Traffic{VisitsPerDay: visits, RawDays: db.RawDays, RolledDays: 365 - db.RawDays,
			Pages: benchdata.Pages([]string{"fulton/atlanta", "cobb/marietta", "fulton/roswell", "dekalb/decatur", "gwinnett/duluth"})}, now, rng); seeded.err != nil {
			return
		}
		seeded.err = os.WriteFile(marker, nil, 0o644)
	})
	if seeded.err != nil {
		b.Fatal(seeded.err)
	}
	st, err := db.Open(ctx, "", seeded.dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

package db

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// LeadsAwaiting returns the leads nobody has answered yet: status 'new'
// and no first response (no person's status change or note, see
// markResponded). Emergencies come first, then the longest waiting. At
// most limit are returned, with how many there are in all.
func (s *Store) LeadsAwaiting(ctx context.Context, limit int) ([]Lead, int, error) {
	const where = ` FROM avatar_leads WHERE status = 'new' AND first_response_at IS NULL`
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT COUNT(*)`+where); err != nil {
		return nil, 0, fmt.Errorf("leads awaiting: %w", err)
	}
	ls := []Lead{}
	if err := s.db.SelectContext(ctx, &ls, s.q(`SELECT `+leadColumns+where+` ORDER BY is_emergency DESC, created_at, id LIMIT ?`), limit); err != nil {
		return nil, 0, fmt.Errorf("leads awaiting: %w", err)
	}
	return ls, total, nil
}

// LeadDay is what happened to leads in one window (the dashboard's
// "today"): leads created in it, emergencies among them, leads whose
// first response fell in it, and the median of those responses' times.
type LeadDay struct {
	New         int `json:"new"`
	Emergencies int `json:"emergencies"`
	Answered    int `json:"answered"`
	// MedianResponse is the nearest-rank median of the time from creation
	// to first response of the leads answered in the window; 0 for none.
	MedianResponse time.Duration `json:"medianResponse"`
}

// LeadDayFigures sums up the window [from, to). The times are ranked in
// Go, so the figure is the same on both databases.
func (s *Store) LeadDayFigures(ctx context.Context, from, to time.Time) (LeadDay, error) {
	var d LeadDay
	var created []struct {
		IsEmergency bool `db:"is_emergency"`
	}
	if err := s.db.SelectContext(ctx, &created, s.q(`SELECT is_emergency FROM avatar_leads WHERE created_at >= ? AND created_at < ?`), from.UTC(), to.UTC()); err != nil {
		return d, fmt.Errorf("lead day: %w", err)
	}
	d.New = len(created)
	for _, c := range created {
		if c.IsEmergency {
			d.Emergencies++
		}
	}
	var answered []struct {
		CreatedAt   time.Time `db:"created_at"`
		RespondedAt time.Time `db:"first_response_at"`
	}
	if err := s.db.SelectContext(ctx, &answered, s.q(`SELECT created_at, first_response_at FROM avatar_leads
		WHERE first_response_at >= ? AND first_response_at < ?`), from.UTC(), to.UTC()); err != nil {
		return d, fmt.Errorf("lead day: %w", err)
	}
	ds := make([]time.Duration, 0, len(answered))
	for _, a := range answered {
		ds = append(ds, max(a.RespondedAt.Sub(a.CreatedAt), 0))
	}
	slices.Sort(ds)
	d.Answered, d.MedianResponse = len(ds), NearestRank(ds, 50)
	return d, nil
}

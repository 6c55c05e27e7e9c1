package backup

import (
	"context"
	"fmt"
	"time"
)

// IncompleteAfter is how old a backup cut short (no manifest) must be
// before the scheduled job deletes it: one still being written by
// `site backup` is younger.
const IncompleteAfter = 24 * time.Hour

// Keep says which backups the retention keeps among names: the newest of
// each of the keepDaily most recent days that have a backup, and of each
// of the keepWeekly most recent ISO weeks that have one (UTC). The
// newest backup is always kept. Days and weeks without a backup (the
// site was off) do not use up the count.
func Keep(names []string, keepDaily, keepWeekly int) map[string]bool {
	sorted := append([]string(nil), names...)
	sortNewestFirst(sorted)
	keep := map[string]bool{}
	if len(sorted) > 0 {
		keep[sorted[0]] = true
	}
	days, weeks := map[string]bool{}, map[string]bool{}
	for _, n := range sorted {
		t, ok := nameTime(n)
		if !ok {
			continue
		}
		day := t.Format("2006-01-02")
		if !days[day] && len(days) < keepDaily {
			days[day] = true
			keep[n] = true
		}
		y, w := t.ISOWeek()
		week := fmt.Sprintf("%d-W%02d", y, w)
		if !weeks[week] && len(weeks) < keepWeekly {
			weeks[week] = true
			keep[n] = true
		}
	}
	return keep
}

// Prune deletes the complete backups Keep does not keep and the
// incomplete ones older than IncompleteAfter, and returns their names.
func (s *Service) Prune(ctx context.Context) ([]string, error) {
	l, err := s.o.Target.List(ctx)
	if err != nil {
		return nil, err
	}
	keep := Keep(l.Complete, s.o.KeepDaily, s.o.KeepWeekly)
	var deleted []string
	for _, n := range l.Complete {
		if keep[n] {
			continue
		}
		if err := s.o.Target.remove(ctx, n); err != nil {
			return deleted, err
		}
		deleted = append(deleted, n)
	}
	now := s.o.Now().UTC()
	for _, n := range l.Incomplete {
		if t, ok := nameTime(n); ok && now.Sub(t) > IncompleteAfter {
			if err := s.o.Target.remove(ctx, n); err != nil {
				return deleted, err
			}
			deleted = append(deleted, n)
		}
	}
	if len(deleted) > 0 {
		s.forget()
		s.o.Log.Info("old backups deleted", "count", len(deleted), "kept", len(keep))
	}
	return deleted, nil
}

package backup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Status is what the dashboard, /healthz and /metrics say about backups.
type Status struct {
	// Location is where backups go (no credential).
	Location string `json:"location"`
	// EveryHours is the schedule (0: no scheduled backup);
	// MaxAgeHours the alarm's threshold (0: no alarm).
	EveryHours  float64 `json:"everyHours"`
	MaxAgeHours float64 `json:"maxAgeHours"`
	// LastGood is the newest good backup, Last the newest of all (nil:
	// none yet).
	LastGood *db.BackupRun `json:"lastGood"`
	Last     *db.BackupRun `json:"last"`
	// AgeSeconds is the last good backup's age (-1: none).
	AgeSeconds float64 `json:"ageSeconds"`
	// Alarm says what is wrong, for a person ("" when nothing is).
	Alarm string `json:"alarm"`
}

// LastFailed reports whether the newest backup failed.
func (s Status) LastFailed() bool { return s.Last != nil && s.Last.Outcome == db.OutcomeFailed }

// Status reads the backups' state and judges it.
func (s *Service) Status(ctx context.Context) (Status, error) {
	st := Status{Location: s.o.Target.String(), EveryHours: s.o.Every.Hours(), MaxAgeHours: s.o.MaxAge.Hours(), AgeSeconds: -1}
	last, good, err := s.o.Store.LastBackups(ctx)
	if err != nil {
		return st, err
	}
	installed, err := s.o.Store.InstalledAt(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return st, err
	}
	now := s.o.Now()
	st.Last, st.LastGood = last, good
	if good != nil {
		st.AgeSeconds = math.Max(0, now.Sub(good.FinishedAt).Seconds())
	}
	st.Alarm = Judge(last, good, installed, now, s.o.MaxAge)
	return st, nil
}

// Judge is the alarm: the newest backup failed, or the newest good one
// is older than maxAge, or there is none and the site has been installed
// for longer than maxAge. maxAge 0 never raises it.
func Judge(last, good *db.BackupRun, installed, now time.Time, maxAge time.Duration) string {
	if maxAge <= 0 {
		return ""
	}
	if last != nil && last.Outcome == db.OutcomeFailed {
		msg := fmt.Sprintf("The last backup failed (%s): %s.", last.StartedAt.UTC().Format("2006-01-02 15:04 UTC"), last.Summary)
		if good == nil {
			return msg + " No backup has succeeded yet."
		}
		return msg + fmt.Sprintf(" The last good one is %s old.", hoursText(now.Sub(good.FinishedAt)))
	}
	if good != nil && now.Sub(good.FinishedAt) > maxAge {
		return fmt.Sprintf("The last good backup is %s old, more than %s.", hoursText(now.Sub(good.FinishedAt)), hoursText(maxAge))
	}
	if good == nil && !installed.IsZero() && now.Sub(installed) > maxAge {
		return fmt.Sprintf("No backup has been made, and the site was installed %s ago.", hoursText(now.Sub(installed)))
	}
	return ""
}

// hoursText is a duration in whole hours ("27 hours"), or minutes below
// one.
func hoursText(d time.Duration) string {
	if d < time.Hour {
		m := int(d.Minutes())
		if m == 1 {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", m)
	}
	h := int(d.Hours())
	if h == 1 {
		return "1 hour"
	}
	return fmt.Sprintf("%d hours", h)
}

package backup

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Kinds of backup, as the Backups screen names them.
const (
	KindScheduled = "scheduled" // the schedule (BACKUP_EVERY)
	KindManual    = "manual"    // 'Back up now' in the admin
	KindCommand   = "command"   // site backup on the server
	KindUnknown   = ""          // in the target, its run forgotten (older than db.BackupRunRetention)
)

// Entry is one backup on the Backups screen: its run (good or failed),
// its kind, and whether it is still in the target, complete, to download.
type Entry struct {
	Run
	Kind      string `json:"kind"`
	Available bool   `json:"available"`
}

// Overview is the Backups screen: where backups go, whether that is the
// disk the site's data is on, the backup running now, and the recent
// backups, newest first.
type Overview struct {
	Location   string      `json:"location"`
	SameDisk   bool        `json:"sameDisk"`
	EveryHours float64     `json:"everyHours"`
	Running    *InProgress `json:"running"`
	Backups    []Entry     `json:"backups"`
	// StorageError says the target could not be listed (the runs are
	// still shown; none is offered for download).
	StorageError string `json:"storageError,omitempty"`
}

// RecentLimit is how many backup runs the screen lists.
const RecentLimit = 30

// Overview reads the Backups screen's data.
func (s *Service) Overview(ctx context.Context) (Overview, error) {
	o := Overview{Location: s.o.Target.String(), SameDisk: s.o.Target.SameDisk(s.o.DataDir), EveryHours: s.o.Every.Hours(), Backups: []Entry{}}
	a, err := s.Running(ctx)
	if err != nil {
		return o, err
	}
	o.Running = inProgressOf(a)
	runs, err := s.o.Store.RecentBackups(ctx, RecentLimit)
	if err != nil {
		return o, err
	}
	names, listedAt, lerr := s.listed(ctx)
	if lerr != nil {
		s.o.Log.Warn("backups not listed", "to", o.Location, "err", lerr)
		o.StorageError = "The backup storage could not be read just now, so no backup can be downloaded. Try again in a minute."
	}
	complete := map[string]bool{}
	for _, n := range names {
		complete[n] = true
	}
	seen := map[string]bool{}
	for _, r := range runs {
		e := Entry{Run: RunOf(r), Kind: kindOf(r.TriggeredBy)}
		// A run's backup is this target's only when it was made here; one
		// that finished after the listing is looked up by its manifest.
		if r.Outcome == db.OutcomeOK && r.Name != "" && r.Location == o.Location && ValidName(r.Name) {
			e.Available = complete[r.Name]
			if !e.Available && lerr == nil && !r.FinishedAt.Before(listedAt.Add(-time.Minute)) {
				e.Available = s.hasManifest(ctx, r.Name)
			}
		}
		if e.Available {
			seen[r.Name] = true
		}
		o.Backups = append(o.Backups, e)
	}
	// Backups kept longer than their runs are remembered (weekly ones).
	for _, n := range names {
		if seen[n] {
			continue
		}
		t, _ := nameTime(n)
		o.Backups = append(o.Backups, Entry{Run: Run{ID: "kept-" + n, Name: n, StartedAt: t, FinishedAt: t, Location: o.Location}, Kind: KindUnknown, Available: true})
	}
	sort.SliceStable(o.Backups, func(i, j int) bool { return o.Backups[i].StartedAt.After(o.Backups[j].StartedAt) })
	return o, nil
}

func kindOf(trigger string) string {
	switch trigger {
	case TriggerSchedule:
		return KindScheduled
	case TriggerManual:
		return KindManual
	case TriggerCommand:
		return KindCommand
	}
	return KindUnknown
}

// listEvery is how long the target's listing is reused: the screen polls
// while a backup runs, and listing a bucket reads every key of every
// backup. A backup that finished since is looked up by its manifest.
const listEvery = 15 * time.Second

// listCache is the last listing of the target's complete backups.
type listCache struct {
	mu    sync.Mutex
	at    time.Time
	names []string
}

// listed returns the target's complete backups, newest first, and when
// they were listed (reused for listEvery).
func (s *Service) listed(ctx context.Context) ([]string, time.Time, error) {
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if !c.at.IsZero() && now.Sub(c.at) < listEvery {
		return c.names, c.at, nil
	}
	l, err := s.o.Target.List(ctx)
	if err != nil {
		return nil, now, err
	}
	c.names, c.at = l.Complete, now
	return c.names, c.at, nil
}

// forget drops the cached listing (after this process made or deleted
// backups).
func (s *Service) forget() {
	s.cache.mu.Lock()
	s.cache.at = time.Time{}
	s.cache.mu.Unlock()
}

// hasManifest reports whether backup name is complete in the target.
func (s *Service) hasManifest(ctx context.Context, name string) bool {
	r, err := s.o.Target.open(ctx, name+"/"+ManifestFile)
	if err != nil {
		return false
	}
	closeQuietly(r)
	return true
}

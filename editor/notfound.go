package editor

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/jobs"
)

// The 404 monitor: which paths answered 404 most over the last 30 days,
// so the owner can add a redirect. Bots send any number of made-up paths,
// so what is kept is bounded at every step:
//   - a path is counted only when it is short, plain text (no control,
//     bidi or other hidden character: CR, LF, TAB, U+202E... could never
//     be redirected and could disguise how the path reads) and not a
//     reserved prefix's (the admin, the APIs, assets, media);
//   - one client (an IPv4 address or an IPv6 /64) adds at most
//     NotFoundNewPerClient new paths a day; its hits on paths already
//     counted still count;
//   - at most NotFoundPathsPerDay paths are held in memory between
//     flushes, and stored per day;
//   - days older than NotFoundDays (RETAIN_NOT_FOUND_DAYS) are pruned.
const (
	NotFoundDays         = 30
	NotFoundPathsPerDay  = 1000
	NotFoundNewPerClient = 20
	notFoundMaxPath      = 200
)

// NotFoundLog counts 404s in memory and writes them in batches.
type NotFoundLog struct {
	Store Store

	mu      sync.Mutex
	day     string
	hits    map[string]int
	known   map[string]bool // paths counted today on this instance
	clients map[string]int  // new paths per client today
}

// Hit counts one 404 of path from client (guard.ClientKey).
func (l *NotFoundLog) Hit(path, client string, now time.Time) {
	if len(path) > notFoundMaxPath || !guard.PlainText(path) || !strings.HasPrefix(path, "/") {
		return
	}
	for _, p := range reserved {
		if strings.HasPrefix(path, p) {
			return
		}
	}
	day := analytics.Day(now)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.day != day {
		l.day, l.hits, l.known, l.clients = day, map[string]int{}, map[string]bool{}, map[string]int{}
	}
	if !l.known[path] {
		if l.clients[client] >= NotFoundNewPerClient || len(l.known) >= NotFoundPathsPerDay {
			return
		}
		l.clients[client]++
		l.known[path] = true
	}
	l.hits[path]++
}

// Flush writes the counts taken since the last flush; with none, it is a
// skipped run of the flush job.
func (l *NotFoundLog) Flush(ctx context.Context, now time.Time) error {
	l.mu.Lock()
	day, hits := l.day, l.hits
	if len(hits) == 0 {
		l.mu.Unlock()
		return jobs.Skip("no 404 to write")
	}
	l.hits = map[string]int{}
	l.mu.Unlock()
	if err := l.Store.AddNotFoundHits(ctx, day, hits, now, NotFoundPathsPerDay); err != nil {
		// Put them back: the next flush tries again.
		l.mu.Lock()
		if l.day == day {
			for p, n := range hits {
				l.hits[p] += n
			}
		}
		l.mu.Unlock()
		return err
	}
	return nil
}

// NotFoundWindow is how many days the 404 log keeps and the monitor
// lists: NotFoundKeep, else NotFoundDays.
func (s *Service) NotFoundWindow() int {
	if s.NotFoundKeep > 0 {
		return s.NotFoundKeep
	}
	return NotFoundDays
}

// NotFound lists the paths that answered 404 most over the window's days.
func (s *Service) NotFound(ctx context.Context, limit int) ([]contentdb.NotFoundRow, error) {
	from := analytics.Day(s.now().AddDate(0, 0, -(s.NotFoundWindow() - 1)))
	return s.Store.TopNotFound(ctx, from, limit)
}

// NotFoundPage reads one page of the paths that answered 404 over the
// window's days, most hits first, and how many match p.Q in all.
func (s *Service) NotFoundPage(ctx context.Context, p db.Page) ([]contentdb.NotFoundRow, int, error) {
	from := analytics.Day(s.now().AddDate(0, 0, -(s.NotFoundWindow() - 1)))
	return s.Store.NotFoundPage(ctx, from, p)
}

// PruneNotFound drops days past the window (the retention job).
func (s *Service) PruneNotFound(ctx context.Context) (string, error) {
	n, err := s.Store.PruneNotFound(ctx, analytics.Day(s.now().AddDate(0, 0, -s.NotFoundWindow())))
	if err != nil {
		return "", err
	}
	return "pruned " + strconv.FormatInt(n, 10) + " old 404 rows", nil
}

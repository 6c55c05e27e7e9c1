package analytics_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
)

// refusedRows are events that bypass the intake and that a database
// refuses: an id already stored (both databases), and on PostgreSQL a NUL
// byte, invalid UTF-8 and a character cut in half (SQLite stores those).
func refusedRows(at time.Time, day string) (rows []db.Event, refusedOnSQLite int) {
	rows = []db.Event{
		{ID: "taken", At: at, Day: day, Kind: db.EventPageview, Path: "/", Visitor: "x"},
		{ID: "bad-nul", At: at, Day: day, Kind: db.EventPageview, Path: "/", UTMSource: "news\x00letter", Visitor: "x"},
		{ID: "bad-utf8", At: at, Day: day, Kind: db.EventPageview, Path: "/\xff\xfe", Visitor: "x"},
		{ID: "bad-cut", At: at, Day: day, Kind: db.EventPageview, Path: "/", UTMCampaign: ("a" + strings.Repeat("é", 60))[:100], Visitor: "x"},
	}
	return rows, 1
}

// One NUL byte wiped analytics on PostgreSQL: a batch holding
// one row the database refused was rejected whole. Now the good rows of
// the batch are stored and only the refused ones are lost, counted, on
// both databases; through Flush without Run and through a running Run.
func TestCollectorStoresTheRestWhenARowIsRefused(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		day := "2026-11-20"
		if err := s.AddEvents(ctx, []db.Event{{ID: "taken", At: at, Day: day, Kind: db.EventPageview, Path: "/", Visitor: "y"}}); err != nil {
			t.Fatal(err)
		}
		bad, refused := refusedRows(at, day)
		if s.Dialect() == "postgres" {
			refused = len(bad)
		}
		for _, running := range []bool{false, true} {
			t.Run(fmt.Sprintf("running=%v", running), func(t *testing.T) {
				if _, err := s.SQL().ExecContext(ctx, `DELETE FROM analytics_events WHERE id <> 'taken'`); err != nil {
					t.Fatal(err)
				}
				c := analytics.NewCollector(s, nil)
				if running {
					runCtx, cancel := context.WithCancel(ctx)
					done := c.Start(runCtx)
					defer func() { cancel(); <-done }()
				}
				// 200 good rows, the bad ones spread among them, in one batch.
				for i := 0; i < 200; i++ {
					c.Add(db.Event{ID: fmt.Sprintf("good-%03d", i), At: at, Day: day, Kind: db.EventPageview, Path: "/services", Source: "Direct", Visitor: fmt.Sprintf("v%d", i%7)})
					if i%50 == 25 {
						c.Add(bad[(i/50)%len(bad)])
					}
				}
				if err := c.Flush(ctx); err != nil {
					t.Fatal(err)
				}
				var good int
				s.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM analytics_events WHERE id LIKE 'good-%'`).Scan(&good)
				if good != 200 {
					t.Errorf("%d of 200 good events stored", good)
				}
				if got := c.Refused.Load(); got != int64(refused) {
					t.Errorf("%d events refused, want %d", got, refused)
				}
				if c.Dropped.Load() != 0 {
					t.Errorf("%d dropped", c.Dropped.Load())
				}
			})
		}
	})
}

// flakyStore is a database that can be down.
type flakyStore struct {
	mu   sync.Mutex
	down bool
	evs  []db.Event
	adds int
}

var errConn = errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")

func (f *flakyStore) AddEvents(_ context.Context, evs []db.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.adds++
	if f.down {
		return errConn
	}
	f.evs = append(f.evs, evs...)
	return nil
}
func (f *flakyStore) DailySalt(context.Context, string) (string, error) { return "s", nil }
func (f *flakyStore) Ping(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errConn
	}
	return nil
}
func (f *flakyStore) set(down bool) { f.mu.Lock(); f.down = down; f.mu.Unlock() }
func (f *flakyStore) stored() int   { f.mu.Lock(); defer f.mu.Unlock(); return len(f.evs) }

// A database that is down refuses nothing: the batch is not split into
// "refused" rows, it waits and is written once the database is back,
// without duplicates.
func TestCollectorKeepsEventsWhileTheDatabaseIsDown(t *testing.T) {
	st := &flakyStore{down: true}
	c := analytics.NewCollector(st, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := c.Start(ctx)
	defer func() { cancel(); <-done }()
	for i := 0; i < 1500; i++ {
		c.Add(db.Event{ID: fmt.Sprint(i), Kind: db.EventPageview})
	}
	if err := c.Flush(ctx); !errors.Is(err, analytics.ErrDatabaseDown) {
		t.Fatalf("flush while down: %v", err)
	}
	time.Sleep(300 * time.Millisecond) // a tick or two, still down
	if st.stored() != 0 || c.Refused.Load() != 0 || c.Dropped.Load() != 0 {
		t.Fatalf("while down: %d stored, %d refused, %d dropped", st.stored(), c.Refused.Load(), c.Dropped.Load())
	}
	st.set(false)
	if err := c.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range st.evs {
		if seen[e.ID] {
			t.Fatalf("event %s written twice", e.ID)
		}
		seen[e.ID] = true
	}
	if len(seen) != 1500 || c.Refused.Load() != 0 {
		t.Errorf("%d of 1500 events written after the outage, %d refused", len(seen), c.Refused.Load())
	}
}

// The database goes down in the middle of splitting a batch: the half
// already written is not written again.
func TestCollectorOutageWhileSplitting(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		if err := s.AddEvents(ctx, []db.Event{{ID: "taken", At: at, Day: "2026-11-20", Kind: db.EventPageview}}); err != nil {
			t.Fatal(err)
		}
		st := &cutStore{Store: s}
		c := analytics.NewCollector(st, nil)
		var evs []db.Event
		for i := 0; i < 64; i++ {
			evs = append(evs, db.Event{ID: fmt.Sprintf("e%02d", i), At: at, Day: "2026-11-20", Kind: db.EventPageview})
		}
		evs[40].ID = "taken"
		// The first half (32 rows) goes in; then the database goes down.
		left, err := c.Write(ctx, evs)
		if !errors.Is(err, analytics.ErrDatabaseDown) || len(left) != 32 || left[0].ID != "e32" {
			t.Fatalf("left %d (%v), err %v", len(left), left, err)
		}
		st.up = true
		if left, err := c.Write(ctx, left); err != nil || len(left) != 0 {
			t.Fatalf("after the outage: %v %v", left, err)
		}
		var n int
		s.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM analytics_events WHERE id LIKE 'e%'`).Scan(&n)
		if n != 63 || c.Refused.Load() != 1 {
			t.Errorf("%d of 63 stored, %d refused", n, c.Refused.Load())
		}
	})
}

// cutStore is a real store whose database "goes down" after one
// successful write, until up.
type cutStore struct {
	*db.Store
	writes int
	up     bool
}

func (c *cutStore) AddEvents(ctx context.Context, evs []db.Event) error {
	if !c.up && c.writes >= 1 {
		return errConn
	}
	err := c.Store.AddEvents(ctx, evs)
	if err == nil {
		c.writes++
	}
	return err
}

func (c *cutStore) Ping(ctx context.Context) error {
	if !c.up && c.writes >= 1 {
		return errConn
	}
	return c.Store.Ping(ctx)
}

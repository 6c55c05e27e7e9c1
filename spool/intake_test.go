package spool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// storeSaver saves into a real store with one outbox row per lead, as
// notify.Notifier does; down makes it fail as a database outage would.
type storeSaver struct {
	store *db.Store
	down  atomic.Bool
}

func (s *storeSaver) SaveLead(ctx context.Context, l db.Lead) error {
	if s.down.Load() {
		return errors.New("dial tcp: connection refused")
	}
	_, err := s.store.CreateLeadWithOutbox(ctx, l, []db.OutboxRow{{Kind: db.OutboxEmail, Payload: "{}", NextAttemptAt: l.CreatedAt, CreatedAt: l.CreatedAt}})
	return err
}

func (s *storeSaver) alive(ctx context.Context) error {
	if s.down.Load() {
		return errors.New("down")
	}
	return s.store.Ping(ctx)
}

func count(t *testing.T, s *db.Store) (leads, outbox int) {
	t.Helper()
	ls, err := s.ListLeads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.RecentOutbox(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(ls), len(rows)
}

// Leads taken while the database is down are spooled, replayed once it is
// back, and stored exactly once, even when a crash makes the same file
// replay again.
func TestIntakeReplayIsIdempotent(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		dir := t.TempDir()
		sp := open(t, dir)
		saver := &storeSaver{store: store}
		in := NewIntake(saver, sp, saver.alive, quiet)
		ctx := context.Background()
		if out, err := in.Submit(ctx, lead("up")); out != Stored || err != nil {
			t.Fatalf("with the database up: %v %v", out, err)
		}
		saver.down.Store(true)
		for i := 0; i < 10; i++ {
			if out, err := in.Submit(ctx, lead(fmt.Sprint("down-", i))); out != Spooled || err != nil {
				t.Fatalf("with the database down: %v %v", out, err)
			}
		}
		if n, err := in.Replay(ctx); n != 0 || err == nil || in.Backlog() != 10 {
			t.Fatalf("replay while down: %d %v, backlog %d", n, err, in.Backlog())
		}
		// Keep a copy of the spool as it is before the replay: a process
		// that died after storing the leads but before removing the file
		// would find it again.
		copyOf := map[string][]byte{}
		for _, name := range files(t, dir) {
			copyOf[name], _ = os.ReadFile(filepath.Join(dir, name))
		}
		saver.down.Store(false)
		if n, err := in.Replay(ctx); n != 10 || err != nil || in.Backlog() != 0 {
			t.Fatalf("replay: %d %v, backlog %d", n, err, in.Backlog())
		}
		sp.Close()
		i := 0
		for _, b := range copyOf {
			if len(b) > 0 {
				i++
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("leads-%020d%s", i, replaySuffix)), b, 0o600)
			}
		}
		sp2 := open(t, dir)
		in2 := NewIntake(saver, sp2, saver.alive, quiet)
		if in2.Backlog() != 10 {
			t.Fatalf("backlog after the simulated crash %d", in2.Backlog())
		}
		if n, err := in2.Replay(ctx); n != 10 || err != nil {
			t.Fatalf("second replay: %d %v", n, err)
		}
		if leads, rows := count(t, store); leads != 11 || rows != 11 {
			t.Errorf("%d leads and %d notifications, want 11 each (exactly once)", leads, rows)
		}
	})
}

func TestIntakeWithoutSpoolOrWithFailingSpool(t *testing.T) {
	saver := &storeSaver{store: db.NewTestSQLite(t)}
	saver.down.Store(true)
	in := NewIntake(saver, nil, nil, quiet)
	if _, err := in.Submit(context.Background(), lead("x")); err == nil {
		t.Error("no spool: a failed save must be an error")
	}
	sp := open(t, t.TempDir())
	sp.syncFile = func(*os.File) error { return errors.New("read-only file system") }
	in = NewIntake(saver, sp, nil, quiet)
	if _, err := in.Submit(context.Background(), lead("y")); err == nil {
		t.Error("failing spool: the visitor must not be told it was received")
	}
}

// Run replays on its own once the database is back.
func TestIntakeRunReplays(t *testing.T) {
	store := db.NewTestSQLite(t)
	saver := &storeSaver{store: store}
	saver.down.Store(true)
	sp := open(t, t.TempDir())
	in := NewIntake(saver, sp, saver.alive, quiet)
	in.SetTiming(5*time.Millisecond, 20*time.Millisecond, 5*time.Millisecond)
	for i := 0; i < 3; i++ {
		in.Submit(context.Background(), lead(fmt.Sprint("run-", i)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { in.Run(ctx); close(done) }()
	time.Sleep(50 * time.Millisecond)
	if in.Backlog() != 3 {
		t.Fatalf("backlog %d while down", in.Backlog())
	}
	saver.down.Store(false)
	for end := time.Now().Add(5 * time.Second); in.Backlog() > 0 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if leads, _ := count(t, store); leads != 3 || in.Backlog() != 0 {
		t.Errorf("%d leads, backlog %d", leads, in.Backlog())
	}
}

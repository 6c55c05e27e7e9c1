package db

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

func TestWhichStatementsWrite(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1":                             false,
		"  select * from leads":                false,
		"(SELECT 1) UNION (SELECT 2)":          false,
		"-- a note\nSELECT 1":                  false,
		"PRAGMA wal_checkpoint(TRUNCATE)":      false,
		"VACUUM INTO ?":                        false,
		"vacuum  into '/tmp/x'":                false,
		"VACUUM":                               true,
		"INSERT INTO leads (id) VALUES (?)":    true,
		"UPDATE media SET alt = ? RETURNING *": true,
		"DELETE FROM backup_active":            true,
		"WITH x AS (SELECT 1) DELETE FROM y":   true,
		"CREATE TABLE t (a INTEGER)":           true,
		"-- a note\nINSERT INTO t VALUES (1)":  true,
	} {
		if got := writes(q); got != want {
			t.Errorf("writes(%q) = %v, want %v", q, got, want)
		}
	}
}

// A writer that arrives while others write in a loop gets in after the
// ones already waiting, not after the loop ends: SQLite's busy handler
// sleeps and lets a looping writer take the lock again first.
func TestAWriterArrivingDuringABurstGetsItsTurn(t *testing.T) {
	ctx := context.Background()
	x, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "site.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.ExecContext(ctx, `CREATE TABLE burst (id INTEGER PRIMARY KEY AUTOINCREMENT, who TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	var (
		wg      sync.WaitGroup
		stop    atomic.Bool
		written atomic.Int64
		errs    = make(chan error, 4)
	)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				// A transaction per write, like a lead with its notification.
				tx, err := x.BeginTxx(ctx, nil)
				if err == nil {
					_, err = tx.ExecContext(ctx, `INSERT INTO burst (who) VALUES (?)`, fmt.Sprint("looper ", w))
					if err == nil {
						err = tx.Commit()
					} else {
						tx.Rollback()
					}
				}
				if err != nil {
					errs <- err
					return
				}
				written.Add(1)
			}
		}()
	}
	// Wait until the burst is under way.
	for written.Load() < 50 {
		select {
		case err := <-errs:
			t.Fatal(err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	// How many other writes went in between the newcomer's arrival and
	// its own write is read off the rows' ids, which number the writes in
	// the order SQLite took them: the last id before it asked, and its
	// own. A count taken after its write returned also counted what the
	// loopers wrote while this goroutine waited to run again: on a busy
	// machine one of twenty read 7 against a bound of 6.
	waits := make([]int, 20)
	for i := range waits {
		var last, own int64
		if err := x.GetContext(ctx, &last, `SELECT COALESCE(MAX(id), 0) FROM burst`); err != nil {
			t.Fatal(err)
		}
		if err := x.GetContext(ctx, &own, `INSERT INTO burst (who) VALUES ('newcomer') RETURNING id`); err != nil {
			t.Fatalf("the newcomer's write %d: %v", i, err)
		}
		waits[i] = int(own - last - 1)
	}
	// The newcomer waits for the writer holding the turn and the two
	// queued before it: 2 to 5 writes in 200 tries beside two CPU hogs.
	// Without the turn most went in at once and some waited for
	// thousands (10,581 once).
	for i, n := range waits {
		if n > 6 {
			t.Errorf("the newcomer's write %d waited for %d other writes (each: %v)", i, n, waits)
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestWritingQueryGivesTheTurnBackWhenItsRowsClose(t *testing.T) {
	ctx := context.Background()
	file, x := tableT(t)
	var id int
	if err := x.GetContext(ctx, &id, `INSERT INTO t (v) VALUES ('a') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	turn := turnFor(file)
	select {
	case turn <- struct{}{}:
		<-turn
	default:
		t.Fatal("the turn is still held after INSERT … RETURNING was read")
	}
	// A failed write gives it back too.
	if _, err := x.ExecContext(ctx, `INSERT INTO missing (v) VALUES ('a')`); err == nil {
		t.Fatal("a write into a missing table succeeded")
	}
	if _, err := x.ExecContext(ctx, `INSERT INTO t (v) VALUES ('b')`); err != nil {
		t.Fatal(err)
	}
}

func TestATransactionHoldsTheTurnUntilItEnds(t *testing.T) {
	ctx := context.Background()
	_, x := tableT(t)
	// A transaction that only reads takes no turn: a writer goes by it.
	reader, err := x.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.GetContext(ctx, &n, `SELECT COUNT(*) FROM t`); err != nil {
		t.Fatal(err)
	}
	if _, err := x.ExecContext(ctx, `INSERT INTO t (v) VALUES ('beside a reader')`); err != nil {
		t.Fatal(err)
	}
	reader.Rollback()

	tx, err := x.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO t (v) VALUES ('first')`); err != nil {
		t.Fatal(err)
	}
	// Another writer waits for the turn; its context ends the wait.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := x.ExecContext(short, `INSERT INTO t (v) VALUES ('second')`); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a write beside an open write transaction: %v, want the context's deadline", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := x.ExecContext(ctx, `INSERT INTO t (v) VALUES ('after')`)
		done <- err
	}()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting writer after the commit: %v", err)
	}
	if err := x.GetContext(ctx, &n, `SELECT COUNT(*) FROM t`); err != nil || n != 3 {
		t.Fatalf("rows %d (%v), want 3", n, err)
	}
}

// tableT opens a fresh SQLite file with one table t (id, v).
func tableT(t *testing.T) (string, *sqlx.DB) {
	file := filepath.Join(t.TempDir(), "site.db")
	x, err := OpenSQLite(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	if _, err := x.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`); err != nil {
		t.Fatal(err)
	}
	return file, x
}

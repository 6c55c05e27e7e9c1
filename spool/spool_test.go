package spool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func lead(id string) db.Lead {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	return db.Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", LastName: "Lee", Phone: "(770) 555-0101",
		City: "Marietta", DamageType: "Water Damage", Status: "new", Source: "website", Notes: "line one\nline two"}
}

func record(id string) Record { return Record{Key: id, At: time.Now().UTC(), Lead: lead(id)} }

func open(t *testing.T, dir string) *Spool {
	t.Helper()
	s, err := Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// memory is a database that stores each key once.
type memory struct {
	mu   sync.Mutex
	got  map[string]int
	fail func(key string) error
}

func (m *memory) save(_ context.Context, r Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		if err := m.fail(r.Key); err != nil {
			return err
		}
	}
	if m.got == nil {
		m.got = map[string]int{}
	}
	m.got[r.Key]++
	return nil
}

func (m *memory) keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k := range m.got {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestAppendSurvivesReopenAndReplays(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	for _, id := range []string{"a", "b", "c"} {
		if err := s.Append(record(id)); err != nil {
			t.Fatal(err)
		}
	}
	if s.Backlog() != 3 {
		t.Fatalf("backlog %d", s.Backlog())
	}
	if fi, _ := os.Stat(filepath.Join(dir, activeName)); fi.Mode().Perm() != 0o600 {
		t.Errorf("spool file mode %v: it holds contact details", fi.Mode().Perm())
	}
	s.Close()
	s = open(t, dir) // a restart
	if s.Backlog() != 3 {
		t.Fatalf("backlog after reopen %d", s.Backlog())
	}
	var m memory
	n, err := s.Replay(context.Background(), m.save, nil)
	if err != nil || n != 3 {
		t.Fatalf("replayed %d: %v", n, err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, m.keys()); diff != "" {
		t.Errorf("replayed (-want, +got):\n%s", diff)
	}
	if s.Backlog() != 0 {
		t.Errorf("backlog %d", s.Backlog())
	}
	if diff := cmp.Diff([]string{activeName}, files(t, dir)); diff != "" {
		t.Errorf("files (-want, +got):\n%s", diff)
	}
	if n, _ := s.Replay(context.Background(), m.save, nil); n != 0 {
		t.Errorf("second replay stored %d", n)
	}
	// Appends go on after a replay.
	s.Append(record("d"))
	if n, _ := s.Replay(context.Background(), m.save, nil); n != 1 || s.Backlog() != 0 {
		t.Errorf("replay after append: %d, backlog %d", n, s.Backlog())
	}
}

// Every append is fsynced before it returns; a failed fsync fails the
// append and leaves no part of the record behind.
func TestAppendFsyncs(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	syncs := 0
	s.syncFile = func(f *os.File) error { syncs++; return f.Sync() }
	s.Append(record("a"))
	s.Append(record("b"))
	if syncs != 2 {
		t.Errorf("%d fsyncs for 2 appends", syncs)
	}
	before, _ := os.ReadFile(filepath.Join(dir, activeName))
	s.syncFile = func(*os.File) error { return errors.New("disk on fire") }
	if err := s.Append(record("c")); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("append with a failing fsync: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, activeName))
	if string(before) != string(after) || s.Backlog() != 2 {
		t.Errorf("failed append left %d bytes more, backlog %d", len(after)-len(before), s.Backlog())
	}
	s.syncFile = (*os.File).Sync
	s.Append(record("d"))
	var m memory
	s.Replay(context.Background(), m.save, nil)
	if diff := cmp.Diff([]string{"a", "b", "d"}, m.keys()); diff != "" {
		t.Errorf("replayed (-want, +got):\n%s", diff)
	}
}

// A crash mid-append leaves a line cut short: it was never acknowledged,
// so Open drops it, and the records around it are kept.
func TestTornLastLineIsDropped(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Append(record("a"))
	s.Append(record("b"))
	s.Close()
	f, _ := os.OpenFile(filepath.Join(dir, activeName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"key":"c","at":"2026-11-20T12:00:00Z","lead":{"id":"c","first_na`)
	f.Close()
	s = open(t, dir)
	if s.Backlog() != 2 {
		t.Fatalf("backlog %d", s.Backlog())
	}
	s.Append(record("d"))
	var m memory
	if n, err := s.Replay(context.Background(), m.save, nil); n != 3 || err != nil {
		t.Fatalf("replayed %d: %v", n, err)
	}
	if diff := cmp.Diff([]string{"a", "b", "d"}, m.keys()); diff != "" {
		t.Errorf("replayed (-want, +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, unreadableName)); err == nil {
		t.Error("the torn line was quarantined; it should be dropped")
	}
}

// A whole line that is not a record is set aside, not lost, and does not
// stop the others.
func TestUnreadableLineIsQuarantined(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Append(record("a"))
	s.mu.Lock()
	s.f.WriteString("not json at all\n")
	s.size += int64(len("not json at all\n"))
	s.mu.Unlock()
	s.Append(record("b"))
	var m memory
	if n, _ := s.Replay(context.Background(), m.save, nil); n != 2 {
		t.Fatalf("replayed %d", n)
	}
	b, _ := os.ReadFile(filepath.Join(dir, unreadableName))
	if string(b) != "not json at all\n" {
		t.Errorf("quarantine holds %q", b)
	}
}

// While the database is down, replay stops at the first failure and keeps
// everything; once it is back, every record is stored once.
func TestReplayWaitsForTheDatabase(t *testing.T) {
	s := open(t, t.TempDir())
	for i := 0; i < 5; i++ {
		s.Append(record(fmt.Sprint("r", i)))
	}
	down := errors.New("connection refused")
	calls := 0
	m := memory{fail: func(string) error { calls++; return down }}
	n, err := s.Replay(context.Background(), m.save, func(context.Context) error { return down })
	if n != 0 || !errors.Is(err, down) || calls != 1 || s.Backlog() != 5 {
		t.Fatalf("replay while down: %d %v, %d calls, backlog %d", n, err, calls, s.Backlog())
	}
	s.Append(record("r5")) // taken during the outage
	m.fail = nil
	if n, err := s.Replay(context.Background(), m.save, nil); n != 6 || err != nil {
		t.Fatalf("replay when back: %d %v", n, err)
	}
	if len(m.keys()) != 6 || s.Backlog() != 0 {
		t.Errorf("stored %v, backlog %d", m.keys(), s.Backlog())
	}
}

// One record the database refuses while it is up does not hold up the
// others; it stays in the backlog.
func TestRefusedRecordIsKept(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	for _, id := range []string{"a", "bad", "c"} {
		s.Append(record(id))
	}
	m := memory{fail: func(k string) error {
		if k == "bad" {
			return errors.New("value too long")
		}
		return nil
	}}
	up := func(context.Context) error { return nil }
	n, err := s.Replay(context.Background(), m.save, up)
	if n != 2 || err == nil || !strings.Contains(err.Error(), "lead bad") || s.Backlog() != 1 {
		t.Fatalf("replayed %d (%v), backlog %d", n, err, s.Backlog())
	}
	s.Close()
	s = open(t, dir)
	if s.Backlog() != 1 {
		t.Errorf("backlog after reopen %d", s.Backlog())
	}
}

// A record the reachable database refuses MaxTries times is moved aside
// to refused.jsonl, whole, and counted: it is never retried forever, and
// a replay while the database is down does not count as a try. Before,
// a lead with a NUL in its notes sat in the spool retrying for ever,
// never stored, never announced.
func TestRecordRefusedMaxTimesIsMovedAside(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	for _, id := range []string{"a", "bad"} {
		s.Append(record(id))
	}
	m := memory{fail: func(k string) error {
		if k == "bad" {
			return errors.New(`pq: invalid byte sequence for encoding "UTF8": 0x00`)
		}
		return nil
	}}
	up := func(context.Context) error { return nil }
	down := func(context.Context) error { return errors.New("connection refused") }
	ctx := context.Background()
	if n, _ := s.Replay(ctx, m.save, up); n != 1 {
		t.Fatalf("first replay stored %d", n)
	}
	// Database gone: five replays while it is down are not tries.
	s.Append(record("later"))
	for i := 0; i < MaxTries; i++ {
		s.Replay(ctx, func(context.Context, Record) error { return errors.New("down") }, down)
	}
	if s.Refused() != 0 || s.Backlog() != 2 {
		t.Fatalf("refused %d, backlog %d after replays while down", s.Refused(), s.Backlog())
	}
	for try := 2; try < MaxTries; try++ {
		s.Replay(ctx, m.save, up)
		if s.Refused() != 0 || s.Backlog() != 1 {
			t.Fatalf("after try %d: refused %d, backlog %d", try, s.Refused(), s.Backlog())
		}
	}
	s.Replay(ctx, m.save, up)
	if s.Refused() != 1 || s.Backlog() != 0 {
		t.Fatalf("after %d tries: refused %d, backlog %d", MaxTries, s.Refused(), s.Backlog())
	}
	b, err := os.ReadFile(filepath.Join(dir, refusedName))
	if err != nil || !strings.Contains(string(b), `"key":"bad"`) || !strings.Contains(string(b), `"tries":5`) || !strings.Contains(string(b), "line one") {
		t.Fatalf("refused.jsonl: %v %s", err, b)
	}
	if n, _ := s.Replay(ctx, m.save, up); n != 0 {
		t.Errorf("a moved-aside record was replayed again")
	}
	s.Close()
	if s = open(t, dir); s.Refused() != 1 || s.Backlog() != 0 {
		t.Errorf("after reopen: refused %d, backlog %d", s.Refused(), s.Backlog())
	}
	if got := m.keys(); strings.Join(got, ",") != "a,later" {
		t.Errorf("stored %v", got)
	}
}

func TestConcurrentAppendsDuringReplay(t *testing.T) {
	s := open(t, t.TempDir())
	var m memory
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Go(func() {
			for i := 0; i < 25; i++ {
				if err := s.Append(record(fmt.Sprintf("w%d-%d", w, i))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for i := 0; i < 10; i++ {
			s.Replay(context.Background(), m.save, nil)
		}
	})
	wg.Wait()
	s.Replay(context.Background(), m.save, nil)
	if len(m.keys()) != 200 || s.Backlog() != 0 {
		t.Fatalf("stored %d of 200, backlog %d", len(m.keys()), s.Backlog())
	}
	for k, n := range m.got {
		if n != 1 {
			t.Errorf("%s saved %d times", k, n)
		}
	}
}

func TestAppendRefusesARecordWithoutItsKey(t *testing.T) {
	s := open(t, t.TempDir())
	r := record("a")
	r.Key = "b"
	if err := s.Append(r); err == nil {
		t.Error("a record whose key is not its lead's id was accepted")
	}
}

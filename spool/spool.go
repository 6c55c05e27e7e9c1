// Package spool makes sure no lead is lost. A lead goes to the database;
// when the database cannot take it, it is appended to a local file under
// DATA_DIR/spool and fsynced before the visitor is told it was received.
// A replay loop puts spooled leads into the database once it is back.
//
// The file is JSON lines, one Record per line. Every record carries an
// idempotency key, the lead's id (a UUID made once, at submission), and
// the database insert ignores an id it already has, so replaying a record
// twice (a crash mid-replay, a lead that did reach the database just as
// its save timed out) still stores it once.
//
// Replay never edits the file appends go to: it first renames it to a
// numbered .replay file (appends then go to a fresh file), replays that,
// and removes it when every record is stored, or rewrites it with the
// records still to store (write new, fsync, rename). A line cut short by
// a crash mid-append was never acknowledged: Open drops it.
package spool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Record is one spooled lead.
type Record struct {
	// Key is the idempotency key: the lead's id.
	Key string `json:"key"`
	// At is when the lead was spooled.
	At   time.Time `json:"at"`
	Lead db.Lead   `json:"lead"`
	// Tries counts the replays the database refused while it was up.
	Tries int `json:"tries,omitempty"`
}

// MaxTries is how many times a reachable database may refuse a record
// before it is moved aside to refused.jsonl: a record the database will
// never take (a value it cannot store) is then an alarm for a person,
// not a retry forever.
const MaxTries = 5

// File names inside the spool folder.
const (
	activeName     = "leads.jsonl"
	replaySuffix   = ".replay"
	unreadableName = "unreadable.jsonl"
	refusedName    = "refused.jsonl"
)

// Spool is the append-only lead file. It is safe for concurrent use.
type Spool struct {
	dir string
	log *slog.Logger

	mu      sync.Mutex // guards f, size and backlog
	f       *os.File   // the file appends go to; nil after a failed reopen
	size    int64      // bytes of complete records in f
	backlog int        // records in every file, not yet in the database
	refused int        // records moved aside to refusedName

	replayMu sync.Mutex // one replay at a time

	// syncFile makes a write durable (tests count and fail it).
	syncFile func(*os.File) error
}

// Open opens (creating) the spool in dir, drops a record a crash cut
// short and counts the backlog left by an earlier process.
func Open(dir string, log *slog.Logger) (*Spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	s := &Spool{dir: dir, log: log, syncFile: (*os.File).Sync}
	if err := s.openActive(); err != nil {
		return nil, err
	}
	files, err := s.replayFiles()
	if err != nil {
		return nil, err
	}
	for _, p := range append(files, filepath.Join(dir, activeName)) {
		recs, _, err := readRecords(p)
		if err != nil {
			return nil, fmt.Errorf("spool: %w", err)
		}
		s.backlog += len(recs)
	}
	refused, _, err := readRecords(filepath.Join(dir, refusedName))
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	s.refused = len(refused)
	return s, nil
}

// openActive opens the file appends go to, cutting off an incomplete last
// line: it was being written when the process died, so its fsync never
// returned and no visitor was told it was received.
func (s *Spool) openActive() error {
	path := filepath.Join(s.dir, activeName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Close()
		return fmt.Errorf("spool: %w", err)
	}
	size := int64(len(b))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		size = int64(bytes.LastIndexByte(b, '\n') + 1)
		if err := f.Truncate(size); err != nil {
			f.Close()
			return fmt.Errorf("spool: drop incomplete record: %w", err)
		}
		if err := s.syncFile(f); err != nil {
			f.Close()
			return fmt.Errorf("spool: %w", err)
		}
		s.log.Warn("lead spool: dropped an incomplete last record (cut short by a crash, never acknowledged)", "bytes", len(b)-int(size))
	}
	if err := syncDir(s.dir); err != nil {
		f.Close()
		return err
	}
	s.f, s.size = f, size
	return nil
}

// Append writes r and fsyncs it. Only when it returns nil may the visitor
// be told the lead was received.
func (s *Spool) Append(r Record) error {
	if r.Key == "" || r.Key != r.Lead.ID {
		return errors.New("spool: a record's key must be its lead's id")
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	b = append(b, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		if err := s.openActive(); err != nil {
			return err
		}
	}
	n, err := s.f.Write(b)
	if err == nil {
		err = s.syncFile(s.f)
	}
	if err != nil {
		// A partial record must not run into the next one.
		if n > 0 {
			s.f.Truncate(s.size)
		}
		return fmt.Errorf("spool: append: %w", err)
	}
	s.size += int64(n)
	s.backlog++
	return nil
}

// Backlog is how many spooled leads are not in the database yet.
func (s *Spool) Backlog() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backlog
}

// Dir is the spool's folder.
func (s *Spool) Dir() string { return s.dir }

// Close closes the file.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// Replay hands every spooled record to save, oldest first. When save
// fails, alive says whether the database is reachable: if not (or alive is
// nil) replay stops and keeps the rest for next time; if it is, that
// record is kept and the others go on, so one record the database refuses
// cannot hold up the rest. It returns how many records were stored and
// the first error.
func (s *Spool) Replay(ctx context.Context, save func(context.Context, Record) error, alive func(context.Context) error) (int, error) {
	s.replayMu.Lock()
	defer s.replayMu.Unlock()
	if err := s.rotate(); err != nil {
		return 0, err
	}
	files, err := s.replayFiles()
	if err != nil {
		return 0, err
	}
	total := 0
	var first error
	for _, p := range files {
		n, stop, err := s.replayFile(ctx, p, save, alive)
		total += n
		if err != nil && first == nil {
			first = err
		}
		if stop {
			break
		}
	}
	return total, first
}

// rotate moves the records appended so far to a .replay file; appends
// go on in a fresh file.
func (s *Spool) rotate() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil || s.size == 0 {
		return nil
	}
	active := filepath.Join(s.dir, activeName)
	// Named by time, so they sort oldest first; never over an existing
	// file (a rename would replace it).
	to := ""
	for i := 0; to == "" || fileExists(to); i++ {
		to = filepath.Join(s.dir, fmt.Sprintf("leads-%020d-%d%s", time.Now().UnixNano(), i, replaySuffix))
	}
	if err := s.f.Close(); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	s.f = nil
	if err := os.Rename(active, to); err != nil {
		// Keep appending to the old file.
		if oerr := s.openActive(); oerr != nil {
			return errors.Join(err, oerr)
		}
		return fmt.Errorf("spool: rotate: %w", err)
	}
	return s.openActive() // creates the new file and fsyncs the folder
}

func (s *Spool) replayFiles() ([]string, error) {
	files, err := filepath.Glob(filepath.Join(s.dir, "*"+replaySuffix))
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	sort.Strings(files) // names carry the time they were made
	return files, nil
}

// replayFile stores one file's records. stop reports that the database is
// gone and the replay should wait.
func (s *Spool) replayFile(ctx context.Context, path string, save func(context.Context, Record) error, alive func(context.Context) error) (stored int, stop bool, first error) {
	recs, bad, err := readRecords(path)
	if err != nil {
		return 0, true, fmt.Errorf("spool: %w", err)
	}
	for _, line := range bad {
		s.quarantine(line)
	}
	var keep [][]byte
	refused := 0
	changed := false // a kept record's Tries went up
	for _, r := range recs {
		if stop || ctx.Err() != nil {
			keep = append(keep, r.line)
			stop = true
			continue
		}
		if err := save(ctx, r.Record); err != nil {
			if first == nil {
				first = fmt.Errorf("lead %s: %w", r.Key, err)
			}
			stop = alive == nil || alive(ctx) != nil
			if stop {
				// The database is gone: not the record's fault.
				keep = append(keep, r.line)
				continue
			}
			r.Tries++
			if r.Tries >= MaxTries {
				if s.moveAside(r.Record, err) {
					refused++
					continue
				}
			}
			line, merr := json.Marshal(r.Record)
			if merr != nil {
				line = r.line
			}
			keep = append(keep, line)
			changed = true
			continue
		}
		stored++
	}
	if stored == 0 && len(bad) == 0 && refused == 0 && !changed {
		return 0, stop, first
	}
	if err := s.replace(path, keep); err != nil {
		// The file is still whole: its records are replayed again next
		// time, and stored once all the same.
		return 0, true, errors.Join(first, err)
	}
	s.mu.Lock()
	s.backlog -= stored + refused
	s.refused += refused
	s.mu.Unlock()
	return stored, stop, first
}

// moveAside appends a record the database keeps refusing to refusedName,
// fsynced, for a person to look at: it leaves the replay, and Refused
// counts it for the dashboard and /healthz. The lead's contents are not
// logged.
func (s *Spool) moveAside(r Record, why error) bool {
	line, err := json.Marshal(r)
	if err != nil {
		return false
	}
	f, err := os.OpenFile(filepath.Join(s.dir, refusedName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		s.log.Error("lead spool: could not move a refused record aside", "lead", r.Key, "err", err)
		return false
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = s.syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.log.Error("lead spool: could not move a refused record aside", "lead", r.Key, "err", err)
		return false
	}
	s.log.Error("lead spool: the database refused a lead "+fmt.Sprint(MaxTries)+" times; moved to "+refusedName+" for a person to look at",
		"lead", r.Key, "err", why)
	return true
}

// Refused is how many leads the database kept refusing, moved aside to
// refused.jsonl in the spool folder. Any is an alarm.
func (s *Spool) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// replace makes path hold exactly lines, or removes it when there are
// none: a new file is written and fsynced, then renamed over the old.
func (s *Spool) replace(path string, lines [][]byte) error {
	if len(lines) == 0 {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("spool: %w", err)
		}
		return syncDir(s.dir)
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	_, err = f.Write(buf.Bytes())
	if err == nil {
		err = s.syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("spool: rewrite: %w", err)
	}
	return syncDir(s.dir)
}

// quarantine keeps a line that is not a record, for a person to look at,
// out of the replay.
func (s *Spool) quarantine(line []byte) {
	s.log.Error("lead spool: a line is not a lead record; moved to "+unreadableName, "bytes", len(line))
	f, err := os.OpenFile(filepath.Join(s.dir, unreadableName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	f.Write(append(append([]byte{}, line...), '\n'))
	s.syncFile(f)
	f.Close()
}

type lineRecord struct {
	Record
	line []byte
}

// readRecords reads a spool file's records, and the non-empty lines that
// are not records. A missing file has none.
func readRecords(path string) (recs []lineRecord, bad [][]byte, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// An incomplete last line is not a record (Open cuts it off the
	// active file; a .replay file never has one).
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		b = b[:i+1]
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.Key == "" || r.Key != r.Lead.ID {
			bad = append(bad, line)
			continue
		}
		recs = append(recs, lineRecord{Record: r, line: line})
	}
	return recs, bad, nil
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// syncDir makes a folder's entries (a created, renamed or removed file)
// durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !strings.Contains(err.Error(), "invalid argument") {
		return fmt.Errorf("spool: sync folder: %w", err)
	}
	return nil
}

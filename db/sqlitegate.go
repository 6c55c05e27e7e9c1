package db

import (
	"context"
	"database/sql/driver"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
)

// SQLite lets one connection write at a time. A connection that finds the
// write lock taken sleeps and retries (busy_timeout), and a connection that
// keeps writing in a loop grabs the lock again before the sleeper wakes: on
// a loaded machine an owner's "Back up now" failed with "database is
// locked" after five seconds behind a burst of leads. The write turn is
// therefore taken in the process first, in arrival order (writeTurn), by
// every statement that writes, and held until its transaction ends; SQLite's
// own lock is then always free or about to be. Reads never take a turn (WAL
// lets them run beside the writer), and neither does VACUUM INTO (a backup's
// copy is one long read).
//
// A statement that waits longer than turnWait goes on without its turn and
// SQLite's busy handler decides, as before: a goroutine that writes on a
// second connection while its own transaction holds the turn would
// otherwise wait forever.
var turnWait = 15 * time.Second

// writeTurn is one database file's queue of writers. Blocked channel
// senders are served first come, first served.
type writeTurn chan struct{}

var (
	turnsMu sync.Mutex
	turns   = map[string]writeTurn{}
)

func turnFor(file string) writeTurn {
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	turnsMu.Lock()
	defer turnsMu.Unlock()
	t, ok := turns[file]
	if !ok {
		t = make(writeTurn, 1)
		turns[file] = t
	}
	return t
}

// take waits for the turn; false when it went on without it (ctx is done,
// or turnWait passed).
func (t writeTurn) take(ctx context.Context, query string) (bool, error) {
	select {
	case t <- struct{}{}:
		return true, nil
	default:
	}
	timer := time.NewTimer(turnWait)
	defer timer.Stop()
	select {
	case t <- struct{}{}:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	case <-timer.C:
		slog.Warn("sqlite: waited for the write turn too long; going on without it", "waited", turnWait.String(), "statement", firstWords(query))
		return false, nil
	}
}

func (t writeTurn) give() { <-t }

// writes reports whether a statement may write. A statement it cannot
// place counts as a write: taking a turn for a read only costs a wait.
func writes(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	for strings.HasPrefix(q, "--") {
		_, rest, _ := strings.Cut(q, "\n")
		q = strings.TrimLeft(rest, " \t\r\n(")
	}
	word := strings.ToUpper(firstWord(q))
	switch word {
	case "SELECT", "PRAGMA", "EXPLAIN", "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE":
		return false
	case "VACUUM":
		return !strings.HasPrefix(strings.ToUpper(firstWord(strings.TrimLeft(q[len(word):], " \t\r\n"))), "INTO")
	}
	return true
}

func firstWord(s string) string {
	if i := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
		return s[:i]
	}
	return s
}

func firstWords(q string) string {
	f := strings.Fields(q)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

// turnConnector opens modernc SQLite connections that take the file's
// write turn before they write.
type turnConnector struct {
	dsn  string
	turn writeTurn
	drv  *sqlite.Driver
}

func (c *turnConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return &turnConn{inner: conn, turn: c.turn}, nil
}

func (c *turnConnector) Driver() driver.Driver { return c.drv }

// innerConn is what modernc's connection offers database/sql.
type innerConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// turnConn is used by one goroutine at a time (database/sql's contract).
type turnConn struct {
	inner   driver.Conn
	turn    writeTurn
	inTx    bool // a transaction is open on this connection
	holding bool // this connection holds the turn until the transaction ends
}

func (c *turnConn) in() innerConn { return c.inner.(innerConn) }

// acquire takes the turn for a writing statement: inside a transaction
// once, held until it ends; outside one, released by the caller when the
// statement is done (release is then true).
func (c *turnConn) acquire(ctx context.Context, query string) (release bool, err error) {
	if c.holding || !writes(query) {
		return false, nil
	}
	got, err := c.turn.take(ctx, query)
	if err != nil || !got {
		return false, err
	}
	if c.inTx {
		c.holding = true
		return false, nil
	}
	return true, nil
}

func (c *turnConn) endTx() {
	c.inTx = false
	if c.holding {
		c.holding = false
		c.turn.give()
	}
}

func (c *turnConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *turnConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	s, err := c.in().PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &turnStmt{inner: s, conn: c, query: query}, nil
}

func (c *turnConn) Close() error { return c.inner.Close() }

func (c *turnConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *turnConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.in().BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.inTx = true
	return &turnTx{inner: tx, conn: c}, nil
}

func (c *turnConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	release, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	if release {
		defer c.turn.give()
	}
	return c.in().ExecContext(ctx, query, args)
}

func (c *turnConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	release, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := c.in().QueryContext(ctx, query, args)
	if !release {
		return rows, err
	}
	if err != nil {
		c.turn.give()
		return nil, err
	}
	// INSERT … RETURNING outside a transaction writes until its rows
	// are closed.
	return &turnRows{inner: rows, give: c.turn.give}, nil
}

func (c *turnConn) Ping(ctx context.Context) error { return c.in().Ping(ctx) }

func (c *turnConn) ResetSession(ctx context.Context) error { return c.in().ResetSession(ctx) }

func (c *turnConn) IsValid() bool { return c.in().IsValid() }

type turnTx struct {
	inner driver.Tx
	conn  *turnConn
}

func (t *turnTx) Commit() error {
	defer t.conn.endTx()
	return t.inner.Commit()
}

func (t *turnTx) Rollback() error {
	defer t.conn.endTx()
	return t.inner.Rollback()
}

type turnStmt struct {
	inner driver.Stmt
	conn  *turnConn
	query string
}

func (s *turnStmt) Close() error  { return s.inner.Close() }
func (s *turnStmt) NumInput() int { return s.inner.NumInput() }

func (s *turnStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *turnStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *turnStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	release, err := s.conn.acquire(ctx, s.query)
	if err != nil {
		return nil, err
	}
	if release {
		defer s.conn.turn.give()
	}
	return s.inner.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *turnStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	release, err := s.conn.acquire(ctx, s.query)
	if err != nil {
		return nil, err
	}
	rows, err := s.inner.(driver.StmtQueryContext).QueryContext(ctx, args)
	if !release {
		return rows, err
	}
	if err != nil {
		s.conn.turn.give()
		return nil, err
	}
	return &turnRows{inner: rows, give: s.conn.turn.give}, nil
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}

// turnRows gives the turn back when the rows of a writing query close.
type turnRows struct {
	inner driver.Rows
	give  func()
	once  sync.Once
}

func (r *turnRows) Columns() []string              { return r.inner.Columns() }
func (r *turnRows) Next(dest []driver.Value) error { return r.inner.Next(dest) }

func (r *turnRows) Close() error {
	defer r.once.Do(r.give)
	return r.inner.Close()
}

func (r *turnRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.inner.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

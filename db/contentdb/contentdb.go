// Package contentdb stores the site's editable content: the
// content items with their working and published copies, the revisions
// every publish keeps, the redirects, and the 404 monitor's counters. It
// writes plain SQL through package db's handle, on SQLite and PostgreSQL.
//
// The store does not interpret content: a record is opaque JSON under a
// kind and a slug. It guarantees what only the database can: every write
// to an item names the version it was based on and fails with a *Conflict
// when that version is stale (checked in the same statement as the
// write); a publish writes the live copy, its revision and its redirects
// in one transaction; redirect changes are serialised across instances,
// so rules checked on the current set still hold when they commit.
package contentdb

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Store is the content store. It wraps *db.Store and shares its handle,
// transactions and locks.
type Store struct {
	s *db.Store
}

// New wraps an open, migrated store.
func New(s *db.Store) *Store { return &Store{s: s} }

// Actor is who makes a change: ID is a user id, "pin" or "seed"; Name is
// the display name shown in conflicts and history.
type Actor struct {
	ID, Name string
	// Email and IP are the account's email and the request's address,
	// for the audit log only (two editors may share a display name).
	Email, IP string
}

// Conflict is returned (wrapped, errors.As-able) by a write whose base
// version is not the item's current one: someone else changed it since
// the editor loaded it. Version, By and At describe the current version.
type Conflict struct {
	Version int
	By      string
	At      time.Time
}

func (c *Conflict) Error() string {
	return fmt.Sprintf("changed by %s at %s", c.By, c.At.Format(time.RFC3339))
}

// ErrSlugTaken is returned when another item of the same kind already uses
// the slug, as its working slug or as the slug its live copy is served at:
// two items can never end up served at one address.
var ErrSlugTaken = errors.New("slug already taken")

// ErrNotScheduled is returned by Unschedule for an item that is not
// scheduled.
var ErrNotScheduled = errors.New("not scheduled")

// ErrNotLive is returned by Unpublish for an item that has no live copy.
var ErrNotLive = errors.New("not published")

// Item statuses. Whether an item has unpublished changes is not a status:
// see Item.Pending.
const (
	StatusDraft       = "draft"       // never published, or unpublished and edited since
	StatusScheduled   = "scheduled"   // to be published at PublishAt; a live copy, if any, stays served until then
	StatusPublished   = "published"   // the live copy is served
	StatusUnpublished = "unpublished" // taken down; nothing is served
)

// Redirect sources.
const (
	SourceAuto   = "auto"   // recorded by a slug change on publish
	SourceManual = "manual" // added on the Redirects screen
)

// utc brings a time to the form both databases store identically: UTC
// (PostgreSQL's TIMESTAMP drops the offset, and SQLite compares times as
// text) at microsecond precision (PostgreSQL's).
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := utc(*t)
	return &u
}

func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "UNIQUE constraint failed") || strings.Contains(m, "duplicate key value") || strings.Contains(m, "23505")
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return db.ErrNotFound
	}
	return err
}

// sqlTime scans a time that SQLite returns as text: an aggregate such as
// MAX(last_seen) has no declared type, so the driver does not parse it.
type sqlTime struct{ time.Time }

var sqliteTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z07:00",
}

func (t *sqlTime) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		t.Time = v
		return nil
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	case nil:
		t.Time = time.Time{}
		return nil
	}
	return fmt.Errorf("time: cannot scan %T", v)
}

func (t *sqlTime) parse(s string) error {
	for _, l := range sqliteTimeLayouts {
		if p, err := time.Parse(l, s); err == nil {
			t.Time = p.UTC()
			return nil
		}
	}
	return fmt.Errorf("time: cannot parse %q", s)
}

package db

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// Lead changes (ADR 041). Every store method that changes what
// a leads screen shows announces the change: on PostgreSQL with NOTIFY
// on LeadChannel inside the writing transaction (so every instance, and
// a CLI process, is heard once it commits, and never for a rollback),
// and in this process after the commit to the hooks set with
// OnLeadChange (on both databases). A change names the lead and what
// happened to it, never its contact data: the screens refetch the lead
// through the masked APIs.

// LeadChannel is the PostgreSQL NOTIFY channel of lead changes.
const LeadChannel = "lead_changed"

// Kinds of LeadChange.
const (
	LeadCreated   = "created"
	LeadStatus    = "status"
	LeadNote      = "note"
	LeadAssigned  = "assigned"
	LeadEscalated = "escalated"
	LeadDeleted   = "deleted"
	// LeadHomeowner is the homeowner's photos or message from their
	// page; LeadDocument a file the owner attached, shared or removed.
	LeadHomeowner = "homeowner"
	LeadDocument  = "document"
)

// LeadChange says that a lead changed and how.
type LeadChange struct {
	Kind   string    `json:"kind" tstype:"'created' | 'status' | 'note' | 'assigned' | 'escalated' | 'deleted' | 'homeowner' | 'document'"`
	LeadID string    `json:"leadId"`
	At     time.Time `json:"at"`
	// Origin is the store (process) that made the change: a listener
	// skips its own store's notifications, which its hooks had already.
	Origin string `json:"origin,omitempty"`
}

// ParseLeadChange decodes a LeadChannel payload.
func ParseLeadChange(payload string) (LeadChange, error) {
	var c LeadChange
	if err := json.Unmarshal([]byte(payload), &c); err != nil {
		return c, fmt.Errorf("lead change %q: %w", payload, err)
	}
	if c.Kind == "" || c.LeadID == "" {
		return c, fmt.Errorf("lead change %q: no kind or lead", payload)
	}
	return c, nil
}

// leadHooks are the in-process listeners of a store's lead changes.
type leadHooks struct {
	once   sync.Once
	origin string
	mu     sync.Mutex
	next   int
	fns    map[int]func(LeadChange)
}

// Origin identifies this store in its lead change notifications.
func (s *Store) Origin() string {
	s.live.once.Do(func() { s.live.origin = newRowID() })
	return s.live.origin
}

// OnLeadChange calls fn after every committed lead change this store
// makes, synchronously: fn must not block. It returns the function that
// removes fn.
func (s *Store) OnLeadChange(fn func(LeadChange)) (remove func()) {
	h := &s.live
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fns == nil {
		h.fns = map[int]func(LeadChange){}
	}
	id := h.next
	h.next++
	h.fns[id] = fn
	return func() {
		h.mu.Lock()
		delete(h.fns, id)
		h.mu.Unlock()
	}
}

// leadChange is a change of kind to lead id at at, from this store.
func (s *Store) leadChange(kind, id string, at time.Time) LeadChange {
	if at.IsZero() {
		at = time.Now()
	}
	return LeadChange{Kind: kind, LeadID: id, At: at.UTC(), Origin: s.Origin()}
}

// notifyLead sends the changes with NOTIFY in tx (PostgreSQL; nothing on
// SQLite, where one process serves and the hooks are enough).
func (s *Store) notifyLead(ctx context.Context, tx *sqlx.Tx, cs ...LeadChange) error {
	if s.dialect != "postgres" {
		return nil
	}
	for _, c := range cs {
		b, _ := json.Marshal(c)
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, LeadChannel, string(b)); err != nil {
			return fmt.Errorf("announce lead change: %w", err)
		}
	}
	return nil
}

// leadChanged runs the hooks for committed changes.
func (s *Store) leadChanged(cs ...LeadChange) {
	h := &s.live
	h.mu.Lock()
	fns := make([]func(LeadChange), 0, len(h.fns))
	for _, fn := range h.fns {
		fns = append(fns, fn)
	}
	h.mu.Unlock()
	for _, c := range cs {
		for _, fn := range fns {
			fn(c)
		}
	}
}

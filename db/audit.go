package db

import (
	"context"
	"fmt"
	"time"
)

// AuditEntry is one row of audit_log.
type AuditEntry struct {
	ID     string    `db:"id" json:"id"`
	At     time.Time `db:"at" json:"at"`
	UserID string    `db:"user_id" json:"-"`
	Actor  string    `db:"actor" json:"actor"`
	Action string    `db:"action" json:"action"`
	LeadID string    `db:"lead_id" json:"leadId"`
	Detail string    `db:"detail" json:"detail"`
	IP     string    `db:"ip" json:"ip"`
}

// AddAudit appends an entry to the audit log. A missing id is generated.
func (s *Store) AddAudit(ctx context.Context, e AuditEntry) error {
	if e.ID == "" {
		e.ID = newRowID()
	}
	var uid any
	if e.UserID != "" {
		uid = e.UserID
	}
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO audit_log (id, at, user_id, actor, action, lead_id, detail, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		e.ID, e.At, uid, e.Actor, e.Action, e.LeadID, e.Detail, e.IP)
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

// AuditRow is an audit entry with what the log names it by: the actor's
// account as it is now (email and display name, "" when the entry has no
// account or the account is gone) and the lead's name and city ("" and
// LeadFound false when the lead has been erased).
type AuditRow struct {
	AuditEntry
	ActorEmail string `db:"actor_email"`
	ActorName  string `db:"actor_name"`
	LeadFirst  string `db:"lead_first"`
	LeadLast   string `db:"lead_last"`
	LeadCity   string `db:"lead_city"`
	LeadFound  bool   `db:"lead_found"`
}

// AuditRows returns a page of the audit log, newest first, with the
// actors' accounts and the leads' names, and the total.
func (s *Store) AuditRows(ctx context.Context, limit, offset int) ([]AuditRow, int, error) {
	return s.AuditPage(ctx, Page{Limit: limit, Offset: offset})
}

// auditFrom is the audit log with what names its entries.
const auditFrom = ` FROM audit_log a
		LEFT JOIN users u ON u.id = a.user_id
		LEFT JOIN avatar_leads l ON a.lead_id <> '' AND l.id = a.lead_id`

// AuditPage returns one page of the audit log, newest first (at, then id:
// read backwards on the index audit_log_at_id, migration 112), and how
// many entries match p.Q in all. p.Q matches, ignoring case, the actor as
// recorded, the account's name and email, the lead's name and city, the
// entry's details and the address it came from. Without a search the
// count reads the log alone, not its joins.
func (s *Store) AuditPage(ctx context.Context, p Page) ([]AuditRow, int, error) {
	where, args := Contains(p.Q, "a.actor", "COALESCE(u.name, '')", "COALESCE(u.email, '')",
		"COALESCE(l.first_name, '') || ' ' || COALESCE(l.last_name, '')", "COALESCE(l.city, '')", "a.detail", "a.ip")
	count := `SELECT COUNT(*) FROM audit_log`
	if where != "" {
		where = " WHERE " + where
		count = `SELECT COUNT(*)` + auditFrom + where
	}
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(count), args...); err != nil {
		return nil, 0, fmt.Errorf("count audit: %w", err)
	}
	out := []AuditRow{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT a.id, a.at, COALESCE(a.user_id, '') AS user_id, a.actor, a.action, a.lead_id, a.detail, a.ip,
		COALESCE(u.email, '') AS actor_email, COALESCE(u.name, '') AS actor_name,
		COALESCE(l.first_name, '') AS lead_first, COALESCE(l.last_name, '') AS lead_last, COALESCE(l.city, '') AS lead_city,
		(l.id IS NOT NULL) AS lead_found`+auditFrom+where+`
		ORDER BY a.at DESC, a.id DESC LIMIT ? OFFSET ?`), append(args, p.Limit, p.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("list audit: %w", err)
	}
	return out, total, nil
}

// ListAudit returns a page of the audit log, newest first, and the total.
func (s *Store) ListAudit(ctx context.Context, limit, offset int) ([]AuditEntry, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT COUNT(*) FROM audit_log`); err != nil {
		return nil, 0, fmt.Errorf("count audit: %w", err)
	}
	out := []AuditEntry{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT id, at, COALESCE(user_id, '') AS user_id, actor, action, lead_id, detail, ip
		FROM audit_log ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`), limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list audit: %w", err)
	}
	return out, total, nil
}

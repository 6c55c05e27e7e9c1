package db

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/phone"
)

// Privacy requests: every lead of one person, and erasing a
// lead so that only the audit row of its deletion stays.

// AuditLeadDeleted is the audit action of an erased lead: who erased it
// and when, no contact data. AuditPrivacyExport is a person's data
// exported for a privacy request: who, when, how many leads.
const (
	AuditLeadDeleted   = "lead_deleted"
	AuditPrivacyExport = "privacy_export"
)

// ErasedMark replaces an erased lead's email and phone wherever an audit
// entry's detail quoted them (a search an admin ran).
const ErasedMark = "[erased]"

// LeadsByContact returns every lead whose email (any case) or phone
// (E.164, or as typed) is the one given, oldest first. An empty email or
// phone matches nothing.
func (s *Store) LeadsByContact(ctx context.Context, email, tel string) ([]Lead, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	tel = strings.TrimSpace(tel)
	e164, _ := phone.Normalize(tel)
	out := []Lead{}
	if email == "" && tel == "" {
		return out, nil
	}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+leadColumns+` FROM avatar_leads
		WHERE (? <> '' AND LOWER(email) = ?) OR (? <> '' AND (phone = ? OR phone_typed = ?))
		ORDER BY created_at, id`), email, email, tel, e164, tel)
	if err != nil {
		return nil, fmt.Errorf("leads by contact: %w", err)
	}
	return out, nil
}

// DeleteLead erases a lead: the row, its timeline and its notifications
// (the foreign keys cascade), the homeowner's name on a job that came
// from it, and its email and phone from the details of audit entries
// that quoted them; then it appends audit (the
// deletion: who and when, with the lead's id and no contact data), all
// in one transaction. ErrNotFound when there is no such lead.
func (s *Store) DeleteLead(ctx context.Context, id string, audit AuditEntry) error {
	if audit.ID == "" {
		audit.ID = newRowID()
	}
	var uid any
	if audit.UserID != "" {
		uid = audit.UserID
	}
	contains := `instr(detail, ?) > 0`
	if s.dialect == "postgres" {
		contains = `strpos(detail, ?) > 0`
	}
	ch := s.leadChange(LeadDeleted, id, audit.At)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		// Written first (see IssueLeadLink): an erasure must not fail
		// because another write committed between its read and its
		// first write.
		if err := lockLead(ctx, tx, id); err != nil {
			return fmt.Errorf("lead %s: %w", id, err)
		}
		var l Lead
		if err := tx.GetContext(ctx, &l, tx.Rebind(`SELECT `+leadColumns+` FROM avatar_leads WHERE id = ?`), id); err != nil {
			return fmt.Errorf("lead %s: %w", id, notFound(err))
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM avatar_leads WHERE id = ?`), id); err != nil {
			return fmt.Errorf("delete lead %s: %w", id, err)
		}
		// A job that came from the lead forgets the homeowner's name and
		// the link (ADR 061); the job itself stays.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE jobs SET lead_id = '', customer_name = '', name_consent = FALSE, version = version + 1 WHERE lead_id = ?`), id); err != nil {
			return fmt.Errorf("erase lead %s from its jobs: %w", id, err)
		}
		for _, v := range []string{l.Email, strings.ToLower(l.Email), l.Phone, l.PhoneTyped} {
			if len(v) < 3 {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE audit_log SET detail = REPLACE(detail, ?, ?) WHERE `+contains), v, ErasedMark, v); err != nil {
				return fmt.Errorf("erase lead %s from the audit log: %w", id, err)
			}
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO audit_log (id, at, user_id, actor, action, lead_id, detail, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
			audit.ID, audit.At, uid, audit.Actor, AuditLeadDeleted, id, audit.Detail, audit.IP)
		if err != nil {
			return fmt.Errorf("audit lead deletion: %w", err)
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return err
	}
	s.leadChanged(ch)
	return nil
}

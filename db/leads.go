package db

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/phone"
)

// Lead is a row of avatar_leads (spec 3).
type Lead struct {
	ID        string    `db:"id" json:"id"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
	FirstName string    `db:"first_name" json:"first_name"`
	LastName  string    `db:"last_name" json:"last_name"`
	// Phone is E.164 ("+16785550199") for a North American number, else
	// as typed (package phone); PhoneTyped is what the visitor typed.
	Phone            string `db:"phone" json:"phone"`
	PhoneTyped       string `db:"phone_typed" json:"phone_typed"`
	Email            string `db:"email" json:"email"`
	City             string `db:"city" json:"city"`
	StreetAddress    string `db:"street_address" json:"street_address"`
	ZipCode          string `db:"zip_code" json:"zip_code"`
	DamageType       string `db:"damage_type" json:"damage_type"`
	Status           string `db:"status" json:"status"`
	IsEmergency      bool   `db:"is_emergency" json:"is_emergency"`
	Source           string `db:"source" json:"source"`
	InsuranceCarrier string `db:"insurance_carrier" json:"insurance_carrier"`
	ClaimNumber      string `db:"claim_number" json:"claim_number"`
	Notes            string `db:"notes" json:"notes"`
}

const leadColumns = `id, created_at, updated_at, first_name, last_name, phone, phone_typed, email, city, street_address, zip_code,
	damage_type, status, is_emergency, source, insurance_carrier, claim_number, notes`

// leadValues are leadColumns' named parameters.
const leadValues = `:id, :created_at, :updated_at, :first_name, :last_name, :phone, :phone_typed, :email, :city, :street_address,
	:zip_code, :damage_type, :status, :is_emergency, :source, :insurance_carrier, :claim_number, :notes`

// Normalized is l with its phone in the stored form: PhoneTyped keeps
// what was typed (when the caller has not set it), Phone becomes E.164
// when the number is a possible North American one and stays as typed
// otherwise. It is idempotent, so every path that stores a lead (the
// form, a spool replay, a notifier building the announcement first) can
// apply it without knowing whether another did.
func (l Lead) Normalized() Lead {
	if l.PhoneTyped == "" {
		l.PhoneTyped = l.Phone
	}
	l.Phone, _ = phone.Normalize(l.Phone)
	return l
}

// LeadStatuses are spec 4's five lead states.
var LeadStatuses = []string{"new", "contacted", "scheduled", "completed", "cancelled"}

// CreateLead stores a lead, its phone normalised (Lead.Normalized). The
// caller reports success only after this returns nil.
func (s *Store) CreateLead(ctx context.Context, l Lead) error {
	_, err := s.db.NamedExecContext(ctx, `INSERT INTO avatar_leads (`+leadColumns+`) VALUES (`+leadValues+`)`, l.Normalized())
	if err != nil {
		return fmt.Errorf("create lead: %w", err)
	}
	return nil
}

// GetLead returns one lead by id.
func (s *Store) GetLead(ctx context.Context, id string) (Lead, error) {
	var l Lead
	if err := s.db.GetContext(ctx, &l, s.q(`SELECT `+leadColumns+` FROM avatar_leads WHERE id = ?`), id); err != nil {
		return l, fmt.Errorf("lead %s: %w", id, notFound(err))
	}
	return l, nil
}

// ListLeads returns every lead, newest first.
func (s *Store) ListLeads(ctx context.Context) ([]Lead, error) {
	var ls []Lead
	if err := s.db.SelectContext(ctx, &ls, `SELECT `+leadColumns+` FROM avatar_leads ORDER BY created_at DESC, id`); err != nil {
		return nil, fmt.Errorf("list leads: %w", err)
	}
	return ls, nil
}

// normalizeLeadPhones brings the leads whose phone_typed is empty (stored
// before migration 012, or by an older instance since) to the stored
// form: phone_typed gets the phone as typed, phone its E.164 form when it
// has one. A number that cannot be normalised is kept as typed. It runs
// after the migrations at every open; once done, it finds no rows.
//
// The rows are read first and updated in a transaction that only writes:
// a SQLite transaction that reads and then writes cannot wait for another
// writer (SQLITE_BUSY at once), and lib/pq cannot update while a result
// set is open. Each update re-checks phone_typed, so stores opening at the
// same time (two instances, or the user CLI beside the server) cannot
// normalise a row twice.
func (s *Store) normalizeLeadPhones(ctx context.Context) error {
	var rows []struct {
		ID    string `db:"id"`
		Phone string `db:"phone"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT id, phone FROM avatar_leads WHERE phone_typed = '' AND phone <> ''`); err != nil {
		return fmt.Errorf("normalise lead phones: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, r := range rows {
			l := Lead{Phone: r.Phone}.Normalized()
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET phone = ?, phone_typed = ? WHERE id = ? AND phone_typed = ''`),
				l.Phone, l.PhoneTyped, r.ID); err != nil {
				return fmt.Errorf("normalise lead %s phone: %w", r.ID, err)
			}
		}
		return nil
	})
}

// SetLeadStatus changes a lead's status and sets updated_at to now.
func (s *Store) SetLeadStatus(ctx context.Context, id, status string, now time.Time) error {
	valid := false
	for _, st := range LeadStatuses {
		valid = valid || st == status
	}
	if !valid {
		return fmt.Errorf("lead %s: status %q is not one of %v", id, status, LeadStatuses)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE avatar_leads SET status = ?, updated_at = ? WHERE id = ?`), status, now, id)
	if err != nil {
		return fmt.Errorf("lead %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("lead %s: %w", id, ErrNotFound)
	}
	return nil
}

// LeadQuery selects leads for the leads manager and the CSV export.
type LeadQuery struct {
	// Q matches first name, last name, the full name and city, case-
	// insensitively. With SearchContact it also matches the email and,
	// when Q has digits, the phone's digits.
	Q             string
	SearchContact bool
	Status        string
	DamageType    string
	Emergency     *bool
	From, To      *time.Time // created_at >= From, < To
	Limit, Offset int        // Limit 0: no limit
}

// likeEscape escapes LIKE's wildcards so a search is literal.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// phoneDigitsSQL strips the usual separators from the phone column; both
// dialects know REPLACE.
const phoneDigitsSQL = `REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(phone, '(', ''), ')', ''), ' ', ''), '-', ''), '.', ''), '+', '')`

func (q LeadQuery) where() (string, []any) {
	var conds []string
	var args []any
	if t := strings.TrimSpace(q.Q); t != "" {
		pat := "%" + likeEscape(strings.ToLower(t)) + "%"
		ors := []string{`LOWER(first_name) LIKE ? ESCAPE '\'`, `LOWER(last_name) LIKE ? ESCAPE '\'`,
			`LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\'`, `LOWER(city) LIKE ? ESCAPE '\'`}
		args = append(args, pat, pat, pat, pat)
		if q.SearchContact {
			ors = append(ors, `LOWER(email) LIKE ? ESCAPE '\'`)
			args = append(args, pat)
			var digits strings.Builder
			for _, r := range t {
				if r >= '0' && r <= '9' {
					digits.WriteRune(r)
				}
			}
			if digits.Len() >= 3 {
				ors = append(ors, phoneDigitsSQL+` LIKE ?`)
				args = append(args, "%"+digits.String()+"%")
			}
		}
		conds = append(conds, "("+strings.Join(ors, " OR ")+")")
	}
	if q.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, q.Status)
	}
	if q.DamageType != "" {
		conds = append(conds, "damage_type = ?")
		args = append(args, q.DamageType)
	}
	if q.Emergency != nil {
		conds = append(conds, "is_emergency = ?")
		args = append(args, *q.Emergency)
	}
	if q.From != nil {
		conds = append(conds, "created_at >= ?")
		args = append(args, q.From.UTC())
	}
	if q.To != nil {
		conds = append(conds, "created_at < ?")
		args = append(args, q.To.UTC())
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// QueryLeads returns one page of the leads q selects, newest first, and
// how many it selects in all.
func (s *Store) QueryLeads(ctx context.Context, q LeadQuery) ([]Lead, int, error) {
	where, args := q.where()
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(`SELECT COUNT(*) FROM avatar_leads`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count leads: %w", err)
	}
	query := `SELECT ` + leadColumns + ` FROM avatar_leads` + where + ` ORDER BY created_at DESC, id`
	if q.Limit > 0 {
		query += ` LIMIT ? OFFSET ?`
		args = append(args, q.Limit, q.Offset)
	}
	ls := []Lead{}
	if err := s.db.SelectContext(ctx, &ls, s.q(query), args...); err != nil {
		return nil, 0, fmt.Errorf("query leads: %w", err)
	}
	return ls, total, nil
}

// EachLead calls fn for every lead q selects, newest first, reading rows
// as it goes (the CSV export streams without holding them all).
func (s *Store) EachLead(ctx context.Context, q LeadQuery, fn func(Lead) error) error {
	where, args := q.where()
	rows, err := s.db.QueryxContext(ctx, s.q(`SELECT `+leadColumns+` FROM avatar_leads`+where+` ORDER BY created_at DESC, id`), args...)
	if err != nil {
		return fmt.Errorf("export leads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Lead
		if err := rows.StructScan(&l); err != nil {
			return fmt.Errorf("export leads: %w", err)
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return rows.Err()
}

package db

import (
	"context"
	"fmt"
	"time"
)

// Lead is a row of avatar_leads (spec 3).
type Lead struct {
	ID               string    `db:"id" json:"id"`
	CreatedAt        time.Time `db:"created_at" json:"created_at"`
	UpdatedAt        time.Time `db:"updated_at" json:"updated_at"`
	FirstName        string    `db:"first_name" json:"first_name"`
	LastName         string    `db:"last_name" json:"last_name"`
	Phone            string    `db:"phone" json:"phone"`
	Email            string    `db:"email" json:"email"`
	City             string    `db:"city" json:"city"`
	StreetAddress    string    `db:"street_address" json:"street_address"`
	ZipCode          string    `db:"zip_code" json:"zip_code"`
	DamageType       string    `db:"damage_type" json:"damage_type"`
	Status           string    `db:"status" json:"status"`
	IsEmergency      bool      `db:"is_emergency" json:"is_emergency"`
	Source           string    `db:"source" json:"source"`
	InsuranceCarrier string    `db:"insurance_carrier" json:"insurance_carrier"`
	ClaimNumber      string    `db:"claim_number" json:"claim_number"`
	Notes            string    `db:"notes" json:"notes"`
}

const leadColumns = `id, created_at, updated_at, first_name, last_name, phone, email, city, street_address, zip_code,
	damage_type, status, is_emergency, source, insurance_carrier, claim_number, notes`

// LeadStatuses are spec 4's five lead states.
var LeadStatuses = []string{"new", "contacted", "scheduled", "completed", "cancelled"}

// CreateLead stores a lead. The caller reports success only after this
// returns nil.
func (s *Store) CreateLead(ctx context.Context, l Lead) error {
	_, err := s.db.NamedExecContext(ctx, `INSERT INTO avatar_leads (`+leadColumns+`) VALUES (:id, :created_at, :updated_at,
		:first_name, :last_name, :phone, :email, :city, :street_address, :zip_code, :damage_type, :status, :is_emergency,
		:source, :insurance_carrier, :claim_number, :notes)`, l)
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

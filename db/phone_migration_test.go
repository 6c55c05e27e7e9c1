package db

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// Migration 075 (ADR 039) folds the two saved numbers into the one phone
// model without losing either: the number the call buttons dialled
// becomes the 24/7 line, a different business phone the office number.
func TestOnePhoneMigration(t *testing.T) {
	body, err := migrations.ReadFile("migrations/075_one_phone_model.sql")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		before    map[string]string
		line, off string
		hasOffice bool
	}{
		{"two numbers", map[string]string{"phone": "(404) 555-0177", "emergency_phone": "(404) 555-0199"}, "(404) 555-0199", "(404) 555-0177", true},
		{"the same number", map[string]string{"phone": "(404) 555-0177", "emergency_phone": "(404) 555-0177"}, "(404) 555-0177", "", false},
		{"only the emergency phone", map[string]string{"emergency_phone": "(404) 555-0199"}, "(404) 555-0199", "", false},
		{"only the phone", map[string]string{"phone": "(404) 555-0177"}, "(404) 555-0177", "", false},
		{"nothing saved", map[string]string{}, "", "", false},
	}
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if _, err := s.db.ExecContext(ctx, `DELETE FROM settings WHERE key IN ('phone', 'emergency_phone', 'office_phone')`); err != nil {
					t.Fatal(err)
				}
				if len(c.before) > 0 {
					if err := s.SetSettings(ctx, c.before, time.Now().UTC()); err != nil {
						t.Fatal(err)
					}
				}
				err := s.Transact(ctx, func(tx *sqlx.Tx) error {
					for _, stmt := range splitSQL(string(body)) {
						if _, err := tx.ExecContext(ctx, stmt); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				m, err := s.Settings(ctx)
				if err != nil {
					t.Fatal(err)
				}
				off, hasOffice := m["office_phone"]
				if m["phone"] != c.line || off != c.off || hasOffice != c.hasOffice {
					t.Errorf("phone %q office %q (%v), want %q %q (%v)", m["phone"], off, hasOffice, c.line, c.off, c.hasOffice)
				}
				if _, ok := m["emergency_phone"]; ok {
					t.Error("emergency_phone is still saved")
				}
			})
		}
	})
}

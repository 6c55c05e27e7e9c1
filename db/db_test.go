package db

import (
	"context"
	"testing"
)

func TestMigrationsAreIdempotent(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		if err := s.migrate(context.Background()); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		var n int
		if err := s.db.Get(&n, `SELECT COUNT(*) FROM schema_migrations`); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("no migration recorded")
		}
	})
}

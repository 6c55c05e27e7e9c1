package db

import (
	"context"
	"strings"
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

// Each migration file has a number of its own: a version is applied
// once, so a second file with a number already applied would never run,
// without an error. The embedded files are checked here, so two branches
// that took the same number fail make test once merged, before a deploy.
func TestMigrationNumbersAreUnique(t *testing.T) {
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	files := make([]string, len(entries))
	for i, e := range entries {
		files[i] = e.Name()
	}
	if _, err := migrationList(files); err != nil {
		t.Fatal(err)
	}
	list, err := migrationList([]string{"105_media.sql", "111_notes.sql", "024_work.sql"})
	if err != nil || len(list) != 3 || list[0].name != "024_work.sql" || list[2].version != 111 {
		t.Fatalf("ordered list: %+v %v", list, err)
	}
	for _, bad := range [][]string{
		{"111_notes.sql", "105_media.sql", "111_zz_other.sql"},
		{"notes.sql"},
		{"11a_notes.sql"},
	} {
		if _, err := migrationList(bad); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
	if _, err := migrationList([]string{"111_notes.sql", "111_zz_other.sql"}); err == nil || !strings.Contains(err.Error(), "111_notes.sql and 111_zz_other.sql share the number 111") {
		t.Errorf("a shared number: %v", err)
	}
}

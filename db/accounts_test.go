package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func testUser(id, email, role string, now time.Time) User {
	return User{ID: id, Email: email, Name: id, PasswordHash: "h-" + id, CreatedAt: now, UpdatedAt: now, Roles: []string{role}}
}

func TestUsersAndRoles(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		if n, err := s.CountAdmins(ctx); err != nil || n != 0 {
			t.Fatalf("admins on a new database: %d %v", n, err)
		}
		if err := s.CreateUser(ctx, testUser("u1", "Owner@Example.com", "admin", now)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateUser(ctx, testUser("u2", "OWNER@example.COM", "staff", now)); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("same email, other case: %v, want ErrDuplicate", err)
		}
		if err := s.CreateUser(ctx, testUser("u2", "staff@example.com", "staff", now.Add(time.Minute))); err != nil {
			t.Fatal(err)
		}
		u, err := s.UserByEmail(ctx, " owner@EXAMPLE.com ")
		if err != nil || u.ID != "u1" || u.Email != "owner@example.com" || len(u.Roles) != 1 || u.Roles[0] != "admin" || u.PasswordHash != "h-u1" {
			t.Fatalf("by email: %+v %v", u, err)
		}
		if _, err := s.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown email: %v", err)
		}
		us, err := s.ListUsers(ctx)
		if err != nil || len(us) != 2 || us[0].ID != "u1" || us[1].Roles[0] != "staff" {
			t.Fatalf("list: %+v %v", us, err)
		}
		if err := s.RecordLogin(ctx, "u2", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if u, _ := s.UserByID(ctx, "u2"); u.LastLoginAt == nil || !u.LastLoginAt.Equal(now.Add(time.Hour)) {
			t.Errorf("last login: %v", u.LastLoginAt)
		}

		// The last admin can be neither demoted nor disabled.
		staff, yes := "staff", true
		if _, err := s.ChangeUser(ctx, "u1", UserChange{Role: &staff}, now); !errors.Is(err, ErrLastAdmin) {
			t.Errorf("demote the last admin: %v", err)
		}
		if _, err := s.ChangeUser(ctx, "u1", UserChange{Disabled: &yes}, now); !errors.Is(err, ErrLastAdmin) {
			t.Errorf("disable the last admin: %v", err)
		}
		if u, _ := s.UserByID(ctx, "u1"); u.DisabledAt != nil || u.Roles[0] != "admin" {
			t.Errorf("a refused change was written: %+v", u)
		}
		// Promote u2; now u1 may step down.
		admin := "admin"
		if _, err := s.ChangeUser(ctx, "u2", UserChange{Role: &admin}, now); err != nil {
			t.Fatal(err)
		}
		if u, err := s.ChangeUser(ctx, "u1", UserChange{Role: &staff}, now); err != nil || u.Roles[0] != "staff" {
			t.Fatalf("demote with another admin: %+v %v", u, err)
		}

		// Disabling and a new password end the account's sessions.
		for _, tok := range []string{"t1", "t2"} {
			se := Session{ID: "s-" + tok, TokenHash: tok, UserID: "u1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)}
			if err := s.CreateSession(ctx, se); err != nil {
				t.Fatal(err)
			}
		}
		hash := "new-hash"
		if _, err := s.ChangeUser(ctx, "u1", UserChange{PasswordHash: &hash}, now); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.SessionValid(ctx, "t1", now); ok {
			t.Error("a password change left the account's session alive")
		}
		if u, _ := s.UserByID(ctx, "u1"); u.PasswordHash != "new-hash" {
			t.Errorf("hash %q", u.PasswordHash)
		}
		if _, err := s.ChangeUser(ctx, "nope", UserChange{Disabled: &yes}, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown user: %v", err)
		}
	})
}

// Two admins demoting each other at the same moment: one succeeds, one
// is refused, and an enabled admin remains. Repeated to give a race a
// chance to show.
func TestLastAdminRuleUnderConcurrency(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		for round := 0; round < 10; round++ {
			a, b := fmt.Sprintf("a%d", round), fmt.Sprintf("b%d", round)
			for _, id := range []string{a, b} {
				if err := s.CreateUser(ctx, testUser(id, id+"@example.com", "admin", now)); err != nil {
					t.Fatal(err)
				}
			}
			// Leave exactly these two enabled admins.
			yes := true
			us, _ := s.ListUsers(ctx)
			for _, u := range us {
				if u.ID != a && u.ID != b && u.DisabledAt == nil {
					if _, err := s.ChangeUser(ctx, u.ID, UserChange{Disabled: &yes}, now); err != nil {
						t.Fatal(err)
					}
				}
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, id := range []string{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					staff := "staff"
					_, errs[i] = s.ChangeUser(ctx, id, UserChange{Role: &staff}, now)
				}()
			}
			wg.Wait()
			refused := 0
			for _, err := range errs {
				if errors.Is(err, ErrLastAdmin) {
					refused++
				} else if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
			}
			if n, _ := s.CountAdmins(ctx); n != 1 || refused != 1 {
				t.Fatalf("round %d: %d admins left, %d refused; want 1 and 1", round, n, refused)
			}
		}
	})
}

// TestChangeUserBesideOtherWrites: account changes on one handle while
// another handle on the same database records sign-ins. On SQLite a
// transaction that read before it wrote failed with "database is locked
// (517)" when the other committed in between; ChangeUser now takes the
// write lock first (Serialized).
func TestChangeUserBesideOtherWrites(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for _, u := range []User{testUser("u1", "one@example.com", "admin", now), testUser("u2", "two@example.com", "admin", now)} {
			if err := a.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for i := 0; i < 40; i++ {
			wg.Add(2)
			go func(i int) {
				defer wg.Done()
				name := fmt.Sprintf("Name %d", i)
				if _, err := a.ChangeUser(ctx, []string{"u1", "u2"}[i%2], UserChange{Name: &name}, now); err != nil {
					errs <- fmt.Errorf("change %d: %w", i, err)
				}
			}(i)
			go func(i int) {
				defer wg.Done()
				if err := b.RecordLogin(ctx, []string{"u2", "u1"}[i%2], now.Add(time.Duration(i)*time.Second)); err != nil {
					errs <- fmt.Errorf("login %d: %w", i, err)
				}
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Enrolment, single-use steps and recovery codes hold under concurrency
// on both databases: a code or a recovery code works once, however many
// sign-ins race with it.
func TestTwoFactorStorage(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		if err := s.CreateUser(ctx, testUser("u1", "owner@example.com", "admin", now)); err != nil {
			t.Fatal(err)
		}
		if err := s.ConfirmTOTP(ctx, "u1", "SECRET", 1, nil, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("confirm with nothing pending: %v", err)
		}
		if ok, _ := s.UseTOTPStep(ctx, "u1", 5); ok {
			t.Error("a step was accepted without an authenticator")
		}
		if err := s.StartTOTP(ctx, "u1", "FIRST"); err != nil {
			t.Fatal(err)
		}
		if err := s.StartTOTP(ctx, "u1", "SECOND"); err != nil {
			t.Fatal(err)
		}
		if err := s.ConfirmTOTP(ctx, "u1", "FIRST", 100, nil, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("confirmed a secret that is no longer pending: %v", err)
		}
		if err := s.ConfirmTOTP(ctx, "u1", "SECOND", 100, []string{"h1", "h2", "h3"}, now); err != nil {
			t.Fatal(err)
		}
		u, _ := s.UserByID(ctx, "u1")
		if u.TOTPSecret != "SECOND" || u.TOTPPending != "" || u.TOTPEnabledAt == nil || u.TOTPLastStep != 100 {
			t.Fatalf("after confirm: %+v", u)
		}
		if ok, _ := s.UseTOTPStep(ctx, "u1", 100); ok {
			t.Error("the confirming code's step was accepted again")
		}
		// 20 sign-ins race with one code: one wins.
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if ok, err := s.UseTOTPStep(ctx, "u1", 101); ok && err == nil {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Errorf("%d sign-ins used one code", wins.Load())
		}
		if ok, _ := s.UseTOTPStep(ctx, "u1", 100); ok {
			t.Error("an older step was accepted after a newer one")
		}
		// Recovery codes: each once, even in a race.
		wins.Store(0)
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if ok, err := s.UseRecoveryCode(ctx, "u1", "h2", now); ok && err == nil {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Errorf("%d sign-ins used one recovery code", wins.Load())
		}
		if ok, _ := s.UseRecoveryCode(ctx, "u1", "nope", now); ok {
			t.Error("an unknown recovery code was accepted")
		}
		if n, _ := s.RecoveryCodesLeft(ctx, "u1"); n != 2 {
			t.Errorf("%d recovery codes left, want 2", n)
		}
		// Reset: no authenticator, no codes, no sessions.
		if err := s.CreateSession(ctx, Session{ID: "s1", TokenHash: "t1", UserID: "u1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.ResetTOTP(ctx, "u1"); err != nil {
			t.Fatal(err)
		}
		u, _ = s.UserByID(ctx, "u1")
		if u.TOTPSecret != "" || u.TOTPEnabledAt != nil {
			t.Errorf("after reset: %+v", u)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, "u1"); n != 0 {
			t.Errorf("%d recovery codes after reset", n)
		}
		if ok, _ := s.SessionValid(ctx, "t1", now); ok {
			t.Error("a session survived the reset")
		}
		if err := s.ResetTOTP(ctx, "ghost"); !errors.Is(err, ErrNotFound) {
			t.Errorf("reset of an unknown account: %v", err)
		}
	})
}

// A renewal replaces the recovery codes at once: the old ones are dead,
// the new ones work once each; an account without an authenticator has
// nothing to renew; parallel renewals leave exactly one set.
func TestRenewRecoveryCodes(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		if err := s.CreateUser(ctx, testUser("u1", "owner@example.com", "admin", now)); err != nil {
			t.Fatal(err)
		}
		if err := s.RenewRecoveryCodes(ctx, "u1", []string{"x"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("renewal without an authenticator: %v", err)
		}
		if err := s.RenewRecoveryCodes(ctx, "nobody", []string{"x"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("renewal of no account: %v", err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, "u1"); n != 0 {
			t.Errorf("codes after refused renewals: %d", n)
		}
		s.StartTOTP(ctx, "u1", "S")
		if err := s.ConfirmTOTP(ctx, "u1", "S", 1, []string{"old1", "old2", "old3"}, now); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.UseRecoveryCode(ctx, "u1", "old1", now); !ok {
			t.Fatal("old1 before the renewal")
		}
		if err := s.RenewRecoveryCodes(ctx, "u1", []string{"new1", "new2"}); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, "u1"); n != 2 {
			t.Errorf("left after the renewal: %d", n)
		}
		if ok, _ := s.UseRecoveryCode(ctx, "u1", "old2", now); ok {
			t.Error("an old code worked after the renewal")
		}
		if ok, _ := s.UseRecoveryCode(ctx, "u1", "new1", now); !ok {
			t.Error("a new code did not work")
		}
		if ok, _ := s.UseRecoveryCode(ctx, "u1", "new1", now); ok {
			t.Error("a new code worked twice")
		}
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := s.RenewRecoveryCodes(ctx, "u1", []string{fmt.Sprintf("p%d-a", i), fmt.Sprintf("p%d-b", i), fmt.Sprintf("p%d-c", i)}); err != nil {
					t.Errorf("parallel renewal: %v", err)
				}
			}()
		}
		wg.Wait()
		if n, _ := s.RecoveryCodesLeft(ctx, "u1"); n != 3 {
			t.Errorf("after parallel renewals: %d codes, want one set of 3", n)
		}
	})
}

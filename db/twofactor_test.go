package db

import (
	"context"
	"errors"
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

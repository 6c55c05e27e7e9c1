package db

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSessionsAndSettings(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		se := Session{ID: "id1", TokenHash: "h1", IP: "192.0.2.1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(3 * time.Hour)}
		if err := s.CreateSession(ctx, se); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(59*time.Minute)); !ok {
			t.Error("session invalid before expiry")
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(time.Hour)); ok {
			t.Error("session valid at expiry")
		}
		if ok, _ := s.SessionValid(ctx, "nope", now); ok {
			t.Error("unknown session valid")
		}
		// Activity slides the expiry, never past the hard maximum.
		got, err := s.TouchSession(ctx, "h1", now.Add(50*time.Minute), time.Hour)
		if err != nil || got.ID != "id1" || got.IP != "192.0.2.1" || got.UserID != "" {
			t.Fatalf("touch: %+v %v", got, err)
		}
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(100*time.Minute)); !ok {
			t.Error("activity did not slide the expiry")
		}
		s.TouchSession(ctx, "h1", now.Add(150*time.Minute), time.Hour)
		s.TouchSession(ctx, "h1", now.Add(175*time.Minute), time.Hour)
		if ok, _ := s.SessionValid(ctx, "h1", now.Add(3*time.Hour)); ok {
			t.Error("session outlived its hard expiry")
		}
		if _, err := s.TouchSession(ctx, "h1", now.Add(3*time.Hour), time.Hour); !errors.Is(err, ErrNotFound) {
			t.Errorf("touch past hard expiry: %v", err)
		}
		// Revocation: by token, by id, and every PIN session at once.
		s.CreateSession(ctx, Session{ID: "id2", TokenHash: "h2", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		s.CreateSession(ctx, Session{ID: "id3", TokenHash: "h3", UserID: "u1", CreatedAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		s.CreateSession(ctx, Session{ID: "id4", TokenHash: "h4", CreatedAt: now.Add(time.Minute), ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)})
		list, err := s.ListSessions(ctx, now.Add(2*time.Minute))
		if err != nil || len(list) != 4 || list[0].ID != "id4" {
			t.Fatalf("list: %+v %v", list, err)
		}
		if ok, err := s.RevokeSession(ctx, "h2"); !ok || err != nil {
			t.Errorf("revoke h2: %v %v", ok, err)
		}
		if ok, _ := s.SessionValid(ctx, "h2", now); ok {
			t.Error("revoked session still valid")
		}
		if err := s.RevokeSessionByID(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoke unknown id: %v", err)
		}
		if n, _ := s.RevokeUserSessions(ctx, ""); n != 2 { // h1 and h4, not the account's h3
			t.Errorf("revoked %d PIN sessions, want 2", n)
		}
		if ok, _ := s.SessionValid(ctx, "h3", now); !ok {
			t.Error("revoking PIN sessions ended an account session")
		}
		if err := s.RevokeSessionByID(ctx, "id3"); err != nil {
			t.Error(err)
		}
		s.DeleteExpiredSessions(ctx, now.Add(4*time.Hour))
		if _, err := s.GetSetting(ctx, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing setting: %v", err)
		}
		if err := s.SetSettings(ctx, map[string]string{"business_name": "A", "phone": "1"}, now); err != nil {
			t.Fatal(err)
		}
		if err := s.SetSettings(ctx, map[string]string{"business_name": "B"}, now); err != nil {
			t.Fatal(err)
		}
		m, _ := s.Settings(ctx)
		if m["business_name"] != "B" || m["phone"] != "1" {
			t.Errorf("settings %v", m)
		}
		first, err := s.SetSettingIfAbsent(ctx, "pin", "p1", now)
		second, _ := s.SetSettingIfAbsent(ctx, "pin", "p2", now)
		if err != nil || !first || second {
			t.Errorf("SetSettingIfAbsent first=%v second=%v err=%v", first, second, err)
		}
		if v, _ := s.GetSetting(ctx, "pin"); v != "p1" {
			t.Errorf("pin = %q", v)
		}
	})
}

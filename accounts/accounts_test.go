package accounts

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

func TestCheckPassword(t *testing.T) {
	for _, c := range []struct {
		pw, want string
	}{
		{"short pass", "at least 12"},
		{strings.Repeat("x", 257), "at most 256"},
		{"passwordpassword", "too common"},
		{"Password2026!", "too common"},
		{"QWERTYUIOPAS", "too common"},
		{"aaaaaaaaaaaaaa", "too common"},
		{"abcabcabcabcabc", "too common"},
		{"maria.gonzalez-2026", "email or name"},
		{"correct horse battery", ""},
		{"Tr0ub4dor&3-long", ""},
	} {
		err := CheckPassword(c.pw, "maria.gonzalez@example.com", "Maria")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q refused: %v", c.pw, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: %v, want %q", c.pw, err, c.want)
		}
	}
}

func TestHashAndVerify(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash format %q", h)
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	if !VerifyPassword(h, "correct horse battery") || VerifyPassword(h, "correct horse batterY") || VerifyPassword(h, "") {
		t.Error("verify")
	}
	for _, bad := range []string{"", "plain", "$2a$10$abc", strings.Replace(h, "argon2id", "argon2i", 1), strings.Replace(h, "m=19456", "m=99999999", 1), h[:len(h)-3] + "!!!"} {
		if VerifyPassword(bad, "correct horse battery") {
			t.Errorf("malformed hash %q matched", bad)
		}
	}
	if VerifyNobody("correct horse battery") {
		t.Error("VerifyNobody matched")
	}
}

func TestNormalizeEmail(t *testing.T) {
	if e, err := NormalizeEmail("  Owner@Example.COM "); err != nil || e != "owner@example.com" {
		t.Errorf("%q %v", e, err)
	}
	for _, bad := range []string{"", "owner", "owner@", "@example.com", "Owner <o@example.com>", "o@localhost", "a b@example.com"} {
		if _, err := NormalizeEmail(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func newCLI(t *testing.T, store *db.Store, stdin string) (*CLI, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &CLI{Store: store, In: strings.NewReader(stdin), Out: &out, Err: &errb}, &out, &errb
}

func TestCLI(t *testing.T) {
	store := db.NewTestSQLite(t)
	ctx := context.Background()
	run := func(stdin string, args ...string) (int, string, string) {
		c, out, errb := newCLI(t, store, stdin)
		code := c.Run(ctx, args)
		return code, out.String(), errb.String()
	}
	if code, out, _ := run("", "list"); code != 0 || !strings.Contains(out, "No accounts yet") {
		t.Errorf("list on a new database: %d %q", code, out)
	}
	if code, _, errs := run("short\n", "add", "--email", "owner@example.com", "--role", "admin"); code != 1 || !strings.Contains(errs, "at least 12") {
		t.Errorf("short password: %d %q", code, errs)
	}
	if code, _, errs := run("", "add", "--email", "owner@example.com", "--role", "admin"); code != 1 || !strings.Contains(errs, "no password") {
		t.Errorf("no password: %d %q", code, errs)
	}
	if code, _, errs := run("x\n", "add", "--email", "owner@example.com", "--role", "boss"); code != 1 || !strings.Contains(errs, "Role must be admin, staff or editor") {
		t.Errorf("bad role: %d %q", code, errs)
	}
	if code, out, errs := run("correct horse battery\n", "add", "--email", "Owner@Example.com", "--role", "admin", "--name", "The Owner"); code != 0 || !strings.Contains(out, "Created admin account owner@example.com") {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	u, err := store.UserByEmail(ctx, "owner@example.com")
	if err != nil || !VerifyPassword(u.PasswordHash, "correct horse battery") || u.Name != "The Owner" || u.Roles[0] != "admin" {
		t.Fatalf("stored: %+v %v", u, err)
	}
	if code, _, errs := run("correct horse battery\n", "add", "--email", "OWNER@example.com", "--role", "staff"); code != 1 || !strings.Contains(errs, "already exists") {
		t.Errorf("duplicate: %d %q", code, errs)
	}
	if code, _, errs := run("", "disable", "--email", "owner@example.com"); code != 1 || !strings.Contains(errs, "last admin") {
		t.Errorf("disable the last admin: %d %q", code, errs)
	}
	if code, _, errs := run("", "role", "--email", "owner@example.com", "--role", "staff"); code != 1 || !strings.Contains(errs, "last admin") {
		t.Errorf("demote the last admin: %d %q", code, errs)
	}
	if code, _, _ := run("another good phrase\n", "add", "--email", "crew@example.com", "--role", "staff"); code != 0 {
		t.Fatal("add staff")
	}
	if code, out, _ := run("a brand new passphrase\n", "passwd", "--email", "crew@example.com"); code != 0 || !strings.Contains(out, "Password changed") {
		t.Errorf("passwd: %d %q", code, out)
	}
	crew, _ := store.UserByEmail(ctx, "crew@example.com")
	if !VerifyPassword(crew.PasswordHash, "a brand new passphrase") {
		t.Error("new password not stored")
	}
	// passwd and unlock each start a new login epoch: failed sign-ins
	// counted under the old one stop counting (ADR 026).
	if crew.LoginEpoch != 1 {
		t.Errorf("login epoch after passwd: %d, want 1", crew.LoginEpoch)
	}
	if code, out, _ := run("", "unlock", "--email", "crew@example.com"); code != 0 || !strings.Contains(out, "Failed sign-ins of crew@example.com cleared") {
		t.Errorf("unlock: %d %q", code, out)
	}
	if u, _ := store.UserByEmail(ctx, "crew@example.com"); u.LoginEpoch != 2 {
		t.Errorf("login epoch after unlock: %d, want 2", u.LoginEpoch)
	}
	// reset-2fa: the authenticator and recovery codes go.
	store.StartTOTP(ctx, crew.ID, "JBSWY3DPEHPK3PXP")
	if err := store.ConfirmTOTP(ctx, crew.ID, "JBSWY3DPEHPK3PXP", 1, []string{"h"}, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run("", "reset-2fa", "--email", "crew@example.com"); code != 0 || !strings.Contains(out, "Two-factor authentication of crew@example.com removed") {
		t.Errorf("reset-2fa: %d %q", code, out)
	}
	if u, _ := store.UserByEmail(ctx, "crew@example.com"); u.TOTPSecret != "" || u.TOTPEnabledAt != nil {
		t.Errorf("after reset-2fa: %+v", u)
	}
	if code, _, _ := run("", "disable", "--email", "crew@example.com"); code != 0 {
		t.Error("disable staff")
	}
	if code, out, _ := run("", "list"); code != 0 || !strings.Contains(out, "crew@example.com") || !strings.Contains(out, "disabled") || !strings.Contains(out, "The Owner") {
		t.Errorf("list: %q", out)
	}
	if code, _, errs := run("", "passwd", "--email", "ghost@example.com"); code != 1 || !strings.Contains(errs, "no account") {
		t.Errorf("unknown account: %d %q", code, errs)
	}
	if code, _, _ := run("", "frobnicate"); code != 2 {
		t.Error("unknown command")
	}
	entries, total, _ := store.ListAudit(ctx, 50, 0)
	if total < 4 || entries[0].Actor != "command line" {
		t.Errorf("audit: %d %+v", total, entries)
	}
	// On a terminal the password is asked twice and must match.
	c, _, errb := newCLI(t, store, "")
	answers := []string{"one good passphrase", "another passphrase"}
	c.ReadPassword = func() (string, error) { a := answers[0]; answers = answers[1:]; return a, nil }
	if code := c.Run(ctx, []string{"add", "--email", "x@example.com", "--role", "staff"}); code != 1 || !strings.Contains(errb.String(), "do not match") {
		t.Errorf("mismatch: %d %q", code, errb.String())
	}
}

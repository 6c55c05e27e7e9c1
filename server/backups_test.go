package server

import (
	"context"
	"net/http"
	"testing"
)

// Every backups endpoint × every caller: only an admin account; no
// session 401; the PIN, staff, an editor and a role-less account 403,
// nothing started and nothing downloaded for them. (What the room does
// for an admin, one backup for many presses, the download, a failing
// database, is tested in web/backups/backups_test.go.)
func TestBackupsOnlyForAdmins(t *testing.T) {
	_, store, h := accountServer(t)
	p := allPrincipals(t, store, h)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/admin/backups"}, {"POST", "/api/admin/backups/run"}, {"GET", "/api/admin/backups/20261127-140200/download"},
	} {
		for tok, who := range map[string]string{"": "no session", p.forged: "forged", p.totp: "totp stage", p.pin: "pin", p.staff: "staff", p.editor: "editor", p.roleless: "role-less"} {
			want := http.StatusForbidden
			if who == "no session" || who == "forged" || who == "totp stage" {
				want = http.StatusUnauthorized
			}
			if r := jsonReq(t, h, c.method, c.path, tok, nil); r.StatusCode != want {
				t.Errorf("%s %s as %s: %d %s, want %d", c.method, c.path, who, r.StatusCode, r.Body, want)
			}
		}
	}
	if runs, _ := store.RecentBackups(context.Background(), 10); len(runs) != 0 {
		t.Errorf("a refused caller started a backup: %+v", runs)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/backups", p.admin, nil); r.StatusCode != 200 {
		t.Errorf("admin: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/backups/20261127-140200/download", p.admin, nil); r.StatusCode != 404 {
		t.Errorf("admin, unknown backup: %d %s", r.StatusCode, r.Body)
	}
}

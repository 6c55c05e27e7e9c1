package leads

import (
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// userActions is what the Users screen offers per account; UpdateUser and
// the store refuse the same things.
func TestUserActions(t *testing.T) {
	off := time.Now()
	admin := db.User{ID: "a", Roles: []string{"admin"}}
	other := db.User{ID: "b", Roles: []string{"admin"}}
	staff := db.User{ID: "s", Roles: []string{"staff"}}
	disabledAdmin := db.User{ID: "d", Roles: []string{"admin"}, DisabledAt: &off}
	for _, c := range []struct {
		name          string
		caller        string
		target        db.User
		admins        int
		disable, role string
	}{
		{"own account, the only admin", "a", admin, 1, ReasonOwnAccount, ReasonOwnAccount},
		{"own account, two admins", "a", admin, 2, ReasonOwnAccount, ReasonOwnAccount},
		{"another admin, two admins", "a", other, 2, "", ""},
		{"the last active admin, seen by no account", "", admin, 1, ReasonLastAdmin, ReasonLastAdmin},
		{"staff", "a", staff, 1, "", ""},
		{"a disabled admin (enable it, or change its role)", "a", disabledAdmin, 1, "", ""},
	} {
		d, r := userActions(c.caller, c.target, c.admins)
		if d != c.disable || r != c.role {
			t.Errorf("%s: %q, %q; want %q, %q", c.name, d, r, c.disable, c.role)
		}
	}
}

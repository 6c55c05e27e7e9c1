package server

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/web/auth"
)

// TestMain lowers the cost of new password and PIN hashes: these tests
// start hundreds of servers and create hundreds of accounts, and at the
// production cost the hashing was a third of the package's CPU time
// (ADR 053). A hash records its own cost, so checking one is the same
// code; the production costs are asserted here and in package accounts.
func TestMain(m *testing.M) {
	if auth.PINCost != bcrypt.DefaultCost || accounts.Cost.Time != 2 || accounts.Cost.Memory != 19*1024 {
		fmt.Fprintf(os.Stderr, "the production hash costs changed: PIN %d, password %+v\n", auth.PINCost, accounts.Cost)
		os.Exit(1)
	}
	auth.PINCost = bcrypt.MinCost
	accounts.Cost.Time, accounts.Cost.Memory = 1, 1024
	os.Exit(m.Run())
}

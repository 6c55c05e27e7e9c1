package db

import "testing"

// What a later test binary drops: its own kinds of database, once old,
// and nothing else on the server.
func TestStaleTestDatabase(t *testing.T) {
	const cutoff = 1795950000
	for _, c := range []struct {
		name  string
		stale bool
	}{
		{"t_1795940000_ab12cd34", true},
		{"t_1795958777_ab12cd34", false},
		{"tt_b53aec0e9dcb_1795940000", true},
		{"tt_b53aec0e9dcb_1795958777", false},
		{"tb_b53aec0e9dcb_1795940000", true},
		{"test", false},
		{"postgres", false},
		{"template1", false},
		{"t_a1b2c3d4e5f6", false}, // a schema's name, never a database's
		{"cluster_a1b2c3d4e5f6", false},
		{"t_1795940000_ab12cd34_x", false},
		{"tx_b53aec0e9dcb_1795940000", false},
	} {
		if got := staleTestDatabase(c.name, cutoff); got != c.stale {
			t.Errorf("%s: stale %v, want %v", c.name, got, c.stale)
		}
	}
}

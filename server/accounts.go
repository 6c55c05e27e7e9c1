package server

import (
	"context"
)

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.
func (s *Server) noteFirstAdmin(ctx context.Context) {
	if s.store == nil {
		return
	}
	if n, err := s.store.CountAdmins(ctx); err == nil && n == 0 {
		s.log.Info("no admin account yet: the Secure Leads Manager needs one. Create it with: site user add --email you@example.com --role admin")
	}
}

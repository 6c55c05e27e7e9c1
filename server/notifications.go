package server

import (
	"context"
	"time"

	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/spool"
)

// New-lead notifications and the lead spool (README "Lead notifications
// and the spool", ADR 010). The notify and spool packages hold the work;
// this file wires them in and answers the admin and health views.

// setupLeads takes the lead intake and the notifier from the options, or
// builds them from the configuration: the notifier on the store, the
// intake without a spool (a failed save is then a 503).
func (s *Server) setupLeads(o Options) error {
	s.notifier, s.leads = o.Notifier, o.Leads
	if s.notifier == nil {
		nc, err := notify.FromConfig(o.Config)
		if err != nil {
			return err
		}
		s.notifier = notify.New(o.Store, nc, o.Log)
	}
	if s.leads == nil {
		var alive func(context.Context) error
		if o.Store != nil {
			alive = o.Store.Ping
		}
		s.leads = spool.NewIntake(s.notifier, nil, alive, o.Log)
	}
	return nil
}

// leadHealth adds the spool's backlog and the outbox's counts to /healthz.
// A backlog is reported, not a failure: the leads are safe on disk.
func (s *Server) leadHealth(ctx context.Context, out map[string]any, dbUp bool) {
	out["spool"] = map[string]any{"backlog": s.leads.Backlog(), "refused": s.leads.Refused()}
	if s.leads.Refused() > 0 {
		out["status"] = "degraded"
	}
	if !dbUp || s.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if st, err := s.store.OutboxCounts(ctx); err == nil {
		out["outbox"] = map[string]any{"pending": st.Pending, "failed": st.Failed}
	}
}

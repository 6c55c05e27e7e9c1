package server

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

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

// NotificationRow is one notification as the dashboard lists it: no
// payload, so no contact details of the lead.
type NotificationRow struct {
	Kind        string     `json:"kind"`
	LeadID      string     `json:"leadId"`
	Attempts    int        `json:"attempts"`
	LastError   string     `json:"lastError"`
	CreatedAt   time.Time  `json:"createdAt"`
	DeliveredAt *time.Time `json:"deliveredAt"`
	FailedAt    *time.Time `json:"failedAt"`
}

// NotificationsStatus is GET /api/admin/notifications. It never carries
// SMTP credentials, the webhook address or secret, or a lead's contact
// details.
type NotificationsStatus struct {
	Configured struct {
		Email   bool `json:"email"`
		Webhook bool `json:"webhook"`
	} `json:"configured"`
	Pending         int        `json:"pending"`
	Retrying        int        `json:"retrying"`
	Failed          int        `json:"failed"`
	LastError       string     `json:"lastError"`
	LastDeliveredAt *time.Time `json:"lastDeliveredAt"`
	SpoolBacklog    int        `json:"spoolBacklog"`
	// SpoolRefused counts leads the database kept refusing, moved aside
	// in DATA_DIR/spool/refused.jsonl for a person to look at.
	SpoolRefused int               `json:"spoolRefused"`
	Recent       []NotificationRow `json:"recent"`
}

// RecentNotifications is how many rows the dashboard lists.
const RecentNotifications = 10

func (s *Server) notificationsStatus(c echo.Context) error {
	st, err := s.notifier.Status(c.Request().Context(), RecentNotifications)
	if err != nil {
		return err
	}
	out := NotificationsStatus{Pending: st.Pending, Retrying: st.Retrying, Failed: st.Failed, LastError: st.LastError,
		LastDeliveredAt: st.LastDeliveredAt, SpoolBacklog: s.leads.Backlog(), SpoolRefused: s.leads.Refused(), Recent: []NotificationRow{}}
	out.Configured.Email, out.Configured.Webhook = st.Email, st.Webhook
	for _, r := range st.Recent {
		out.Recent = append(out.Recent, NotificationRow{Kind: r.Kind, LeadID: r.LeadID, Attempts: r.Attempts, LastError: r.LastError,
			CreatedAt: r.CreatedAt, DeliveredAt: r.DeliveredAt, FailedAt: r.FailedAt})
	}
	return c.JSON(http.StatusOK, out)
}

package leads

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers as a caller they choose, on a real
// test store. Who may call which route (the guards of server/install.go,
// no-store, the spec's refusals) is tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// The accounts every room test has, as server/'s tests name them.
const (
	adminEmail = "owner@example.com"
	staffEmail = "crew@example.com"
)

// The callers: a bearer token of these names chooses the principal.
const (
	asAdmin = "admin"
	asStaff = "staff"
	asPIN   = authtest.PIN
)

// room is the leads room over its store, behind an echo instance that
// routes as server/install.go does (without the guards) and answers
// errors as the server's error handler does under /api/.
type room struct {
	*authtest.Room
	h     *Handler
	store *db.Store
}

// noLocks: no account is locked for new browsers.
type noLocks struct{}

func (noLocks) AccountLocked(context.Context, db.User, time.Time) (bool, time.Time) {
	return false, time.Time{}
}

// newRoom builds the room on store with an admin (The Owner) and a staff
// member (Crew Lead), and the PIN, as callers.
func newRoom(t testing.TB, store *db.Store) *room {
	t.Helper()
	r := &room{Room: authtest.New(), store: store}
	r.h = &Handler{Store: store, Auth: noLocks{}, Hash: guard.NewHashGate(2, 5*time.Second), Log: quiet}
	r.Account(t, store, asAdmin, db.User{ID: "u-owner", Email: adminEmail, Name: "The Owner", Roles: []string{accounts.RoleAdmin}})
	r.Account(t, store, asStaff, db.User{ID: "u-crew", Email: staffEmail, Name: "Crew Lead", Roles: []string{accounts.RoleStaff}})
	e, h, as := r.Room, r.h, r.As
	e.GET("/api/admin/leads", h.List, as)
	e.GET("/api/admin/leads/export.csv", h.Export, as)
	e.GET("/api/admin/leads/:id", h.Detail, as)
	e.PATCH("/api/admin/leads/:id", h.SetStatus, as)
	e.GET("/api/admin/leads/response-times", h.ResponseTimes, as)
	e.GET("/api/admin/leads/:id/work", h.Work, as)
	e.POST("/api/admin/leads/:id/notes", h.AddNote, as)
	e.PUT("/api/admin/leads/:id/assignee", h.Assign, as)
	e.GET("/api/admin/leads/attention", h.Attention, as)
	e.POST("/api/admin/leads/:id/reveal", h.Reveal, as)
	e.GET("/api/admin/leads/person", h.ExportPerson, as)
	e.DELETE("/api/admin/leads/:id", h.DeleteLead, as)
	e.GET("/api/admin/users", h.Users, as)
	e.POST("/api/admin/users", h.CreateUser, as)
	e.PATCH("/api/admin/users/:id", h.UpdateUser, as)
	e.GET("/api/admin/audit", h.Audit, as)
	return r
}

// addUser stores an account (no password: these tests never sign in).
func addUser(t testing.TB, store *db.Store, u db.User) db.User {
	t.Helper()
	return authtest.AddUser(t, store, u)
}

type response = authtest.Response

// call sends a JSON request as the caller named by tok ("" nobody).
func (r *room) call(t testing.TB, method, path, tok string, body any) *response {
	t.Helper()
	return r.Call(t, method, path, tok, body)
}

// seedLeads stores n leads as server/'s tests do: lead-000 onwards, the
// last one Maria Gonzalez (an emergency with every private detail), the
// one before it a name that starts a spreadsheet formula.
func seedLeads(t testing.TB, store *db.Store, n int) {
	t.Helper()
	base := time.Date(2026, 11, 1, 14, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		l := db.Lead{ID: fmt.Sprintf("lead-%03d", i), CreatedAt: base.Add(time.Duration(i) * time.Minute), UpdatedAt: base,
			FirstName: "Bulk", LastName: fmt.Sprintf("Person%d", i), Phone: "(404) 555-0100", Email: "bulk@example.com",
			City: "Roswell", DamageType: "Mold Remediation", Status: "new", Source: "website"}
		if i == n-1 {
			l.FirstName, l.LastName, l.Phone, l.Email, l.City = "Maria", "Gonzalez", "(770) 555-0134", "maria.g@example.com", "Marietta"
			l.StreetAddress, l.Notes, l.InsuranceCarrier, l.ClaimNumber = "12 Secret Lane", "gate code 4471", "Acme Mutual", "CLM-99812"
			l.DamageType, l.IsEmergency = "Water Damage", true
		}
		if i == n-2 {
			l.FirstName = "=HYPERLINK(\"http://evil.example\")"
		}
		if err := store.CreateLead(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
}

// auditTrail is the audit log's entries, oldest first, as action:actor.
func auditTrail(t testing.TB, store *db.Store) []string {
	t.Helper()
	es, _, err := store.ListAudit(context.Background(), 200, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(es) - 1; i >= 0; i-- {
		out = append(out, es[i].Action+":"+es[i].Actor)
	}
	return out
}

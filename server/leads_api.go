package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
)

// The Secure Leads Manager's endpoints (issue 8, docs/leads-api.md). The
// server decides what each role sees: staff get masked rows from every
// endpoint, and the admin-only ones answer staff 403 with spec 6's titled
// messages. Rules live in package leads; these handlers are thin.

var (
	errFullRestricted = &StatusError{Status: http.StatusForbidden, Title: "Access Restricted", Message: "Only admins can view full lead details"}
	errExportRestrict = &StatusError{Status: http.StatusForbidden, Title: "Export Restricted", Message: "Only admins can export lead data"}
)

func isAdmin(c echo.Context) bool { return auth.From(c).Can(auth.LeadsFull) }

func leadsUnavailable(err error) error {
	return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to load lead data", Err: err}
}

func (s *Server) listLeads(c echo.Context) error {
	f, err := leads.ParseFilter(c.QueryParams())
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	admin := isAdmin(c)
	if f.Full && !admin {
		return errFullRestricted
	}
	list, total, err := s.store.QueryLeads(c.Request().Context(), f.Query(admin, true))
	if err != nil {
		return leadsUnavailable(err)
	}
	out := map[string]any{"total": total, "page": f.Page, "perPage": f.PerPage, "full": f.Full}
	if f.Full {
		full := make([]leads.Full, len(list))
		for i, l := range list {
			full[i] = leads.Unmasked(l)
		}
		out["leads"] = full
		s.audit(c, auth.From(c).Account(), db.AuditListFull, "", f.Describe()+" page "+strconv.Itoa(f.Page))
	} else {
		masked := make([]leads.Masked, len(list))
		for i, l := range list {
			masked[i] = leads.Mask(l)
		}
		out["leads"] = masked
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) leadDetail(c echo.Context) error {
	if !isAdmin(c) {
		return errFullRestricted
	}
	l, err := s.store.GetLead(c.Request().Context(), c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such lead."}
	} else if err != nil {
		return leadsUnavailable(err)
	}
	s.audit(c, auth.From(c).Account(), db.AuditLeadDetail, l.ID, "")
	return c.JSON(http.StatusOK, leads.Unmasked(l))
}

// setLeadStatus changes a lead's status (staff and admins). The answer is
// the updated row as the caller's role may see it.
func (s *Server) setLeadStatus(c echo.Context) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := c.Bind(&in); err != nil || !leads.ValidStatus(in.Status) {
		return &StatusError{Status: http.StatusBadRequest, Message: leads.StatusMessage}
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	before, err := s.store.GetLead(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such lead."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to update lead status", Err: err}
	}
	if err := s.store.SetLeadStatus(ctx, id, in.Status, time.Now().UTC()); errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such lead."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to update lead status", Err: err}
	}
	l, err := s.store.GetLead(ctx, id)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to update lead status", Err: err}
	}
	s.audit(c, auth.From(c).Account(), db.AuditStatusChange, id, before.Status+" → "+l.Status)
	if isAdmin(c) {
		return c.JSON(http.StatusOK, map[string]any{"lead": leads.Unmasked(l)})
	}
	return c.JSON(http.StatusOK, map[string]any{"lead": leads.Mask(l)})
}

// exportLeads streams the CSV of the leads the current filters select
// (admins only). Rows are written as they are read, so the export's memory
// does not grow with the number of leads.
func (s *Server) exportLeads(c echo.Context) error {
	if !isAdmin(c) {
		return errExportRestrict
	}
	f, err := leads.ParseFilter(c.QueryParams())
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	// Fail before the headers if the database cannot be read at all.
	if err := s.store.Ping(ctx); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to export lead data", Err: err}
	}
	h := c.Response().Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="leads-export.csv"`)
	h.Set("X-Content-Type-Options", "nosniff")
	c.Response().WriteHeader(http.StatusOK)
	w, err := leads.NewCSVWriter(c.Response())
	if err != nil {
		return nil // the client went away
	}
	n := 0
	err = s.store.EachLead(ctx, f.Query(true, false), func(l db.Lead) error {
		n++
		if err := w.Write(l); err != nil {
			return err
		}
		if n%500 == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
			c.Response().Flush()
		}
		return nil
	})
	w.Flush()
	if err != nil {
		// The status is already sent: abort the connection so the download
		// fails ('Export Failed') rather than end as a complete-looking,
		// truncated file.
		s.log.Error("lead export interrupted", "rows", n, "err", err)
		panic(http.ErrAbortHandler)
	}
	s.audit(c, auth.From(c).Account(), db.AuditExport, "", f.Describe()+" ("+strconv.Itoa(n)+" rows)")
	return nil
}

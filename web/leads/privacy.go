package leads

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Privacy requests: an admin exports everything held about one
// person (every lead with their email or phone, each with its timeline),
// or erases a lead. Both need leads.erase (admins) and are audited; the
// audit rows name who and when and the leads' ids, never the person's
// contact data, so an erasure leaves none behind.

// Messages of the privacy endpoints.
const (
	msgPrivacyBusy = "The person's data could not be read. Try again."
	msgEraseBusy   = "The lead could not be deleted. Try again."
)

// ErasedAnswer answers DELETE /api/admin/leads/{id}.
type ErasedAnswer struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// ExportPerson answers GET /api/admin/leads/person?email=&phone=: one
// person's data as a JSON download (leads.PersonExport).
func (h *Handler) ExportPerson(c echo.Context) error {
	email, tel, err := leads.ParsePerson(c.QueryParam("email"), c.QueryParam("phone"))
	if err != nil {
		return httperr.New(http.StatusBadRequest, leads.MsgPersonQuery)
	}
	ctx := c.Request().Context()
	found, err := h.Store.LeadsByContact(ctx, email, tel)
	if err != nil {
		return httperr.Unavailable(msgPrivacyBusy, err)
	}
	now := time.Now().UTC()
	out := leads.PersonExport{Email: email, Phone: tel, ExportedAt: now, Leads: make([]leads.PersonRecord, 0, len(found))}
	ids := make([]string, 0, len(found))
	for _, l := range found {
		tl, err := h.Store.LeadTimeline(ctx, l.ID)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return httperr.Unavailable(msgPrivacyBusy, err)
		}
		rec := leads.PersonRecord{Full: leads.Unmasked(l), Timeline: leads.Timeline(tl)}
		if t, err := h.Store.TestimonialOfLead(ctx, l.ID); err == nil {
			rec.Testimonial = &leads.PersonTestimonial{Text: t.Body, Consent: t.Consent, State: t.State, SentAt: t.UpdatedAt}
		} else if !errors.Is(err, db.ErrNotFound) {
			return httperr.Unavailable(msgPrivacyBusy, err)
		}
		jobs, err := h.Store.JobsOfLead(ctx, l.ID)
		if err != nil {
			return httperr.Unavailable(msgPrivacyBusy, err)
		}
		rec.Jobs = make([]leads.PersonJob, 0, len(jobs))
		for _, j := range jobs {
			rec.Jobs = append(rec.Jobs, leads.PersonJob{Title: j.Title, Month: j.Month, CustomerName: j.CustomerName, NameConsent: j.NameConsent, OnTheSite: j.Status == db.JobPublished})
		}
		out.Leads = append(out.Leads, rec)
		ids = append(ids, l.ID)
	}
	for _, c := range []string{email, tel} {
		if c == "" {
			continue
		}
		yes, err := h.Store.OptedOut(ctx, c)
		if err != nil {
			return httperr.Unavailable(msgPrivacyBusy, err)
		}
		out.ReviewOptOut = out.ReviewOptOut || yes
	}
	detail := strconv.Itoa(len(ids)) + " leads"
	if len(ids) > 0 {
		detail += ": " + strings.Join(ids, ", ")
	}
	h.audit(c, auth.From(c).Account(), db.AuditPrivacyExport, "", detail)
	c.Response().Header().Set("Content-Disposition", `attachment; filename="personal-data-`+now.Format("20060102-150405")+`.json"`)
	return c.JSON(http.StatusOK, out)
}

// DeleteLead answers DELETE /api/admin/leads/{id}: the lead, its timeline
// and its notifications are erased, its contact data is taken out of
// the audit log, and one audit row says who deleted it and when.
func (h *Handler) DeleteLead(c echo.Context) error {
	u := auth.From(c).Account()
	actor := u.Email
	if actor == "" {
		actor = "(unknown)"
	}
	id := c.Param("id")
	ctx := c.Request().Context()
	var files []string
	if h.Files != nil {
		var err error
		if files, err = h.Files.StoredFiles(ctx, id); err != nil {
			return httperr.Unavailable(msgEraseBusy, err)
		}
	}
	// A job's homeowner name and a testimonial the site shows go with the
	// lead: the pages are rendered again after the deletion (only those
	// whose content changed are).
	err := h.Store.DeleteLead(ctx, id, db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, IP: c.RealIP()})
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return httperr.Unavailable(msgEraseBusy, err)
	}
	if h.Files != nil {
		h.Files.DeleteStored(ctx, files) // the homeowner's photos and the documents go too
	}
	h.Log.Info("lead deleted", "lead", id, "by", u.ID, "files", len(files))
	if h.Changed != nil {
		h.Changed("lead erased")
	}
	return c.JSON(http.StatusOK, ErasedAnswer{ID: id, Deleted: true})
}

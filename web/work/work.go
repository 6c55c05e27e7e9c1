// Package work (web/work) is the HTTP side of the owner's Jobs screen
// (issue 33, ADR 061): the list of jobs, a job's fields, its photos and
// videos by phase, and publishing. The rules are package work's, the rows
// db's (db/jobs_store.go). No answer carries a coordinate: the owner sees
// the city the photos suggest, never where they were taken. The routes and
// their guards are in server/install.go; publishing (and any change to a
// job already on the site) needs content.edit, checked here as well.
package work

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/work"
)

// Store is what the screen reads and writes (db.Store).
type Store interface {
	CreateJob(ctx context.Context, f db.JobFields) (db.Job, error)
	GetJob(ctx context.Context, id string) (db.Job, error)
	ListJobs(ctx context.Context, page, perPage int) ([]db.Job, int, error)
	UpdateJob(ctx context.Context, id string, base int, f db.JobFields) (db.Job, error)
	PublishJob(ctx context.Context, id string, base int) (db.Job, error)
	UnpublishJob(ctx context.Context, id string, base int) (db.Job, error)
	DeleteJob(ctx context.Context, id string) (db.Job, error)
	AttachMedia(ctx context.Context, jobID, mediaID, phase string) error
	DetachMedia(ctx context.Context, jobID, mediaID string) error
	JobMedia(ctx context.Context, jobID string) ([]db.Media, error)
	GetMedia(ctx context.Context, id string) (db.Media, error)
	GetLead(ctx context.Context, id string) (db.Lead, error)
	AddAudit(ctx context.Context, e db.AuditEntry) error
}

// Handler answers the Jobs screen.
type Handler struct {
	Store Store
	// Records lists the live content records (editor.Service): the cities
	// and services a job may name.
	Records work.Records
	// Changed re-renders the pages a change touched, on every instance
	// (the signal media uploads use, ADR 048).
	Changed func(reason string)
	Log     *slog.Logger
}

// PerPage is the list's page size.
const PerPage = 25

// JobRow is one job in the list.
type JobRow struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// City is the city's name, "" until placed.
	City   string `json:"city"`
	Month  string `json:"month"`
	Status string `json:"status" tstype:"\"draft\" | \"published\""`
	Photos int    `json:"photos"`
	// HasPage says the job has enough for a page of its own.
	HasPage bool `json:"hasPage"`
}

// JobList is a page of the list.
type JobList struct {
	Jobs  []JobRow `json:"jobs"`
	Page  int      `json:"page"`
	Pages int      `json:"pages"`
	Total int      `json:"total"`
}

// JobPhoto is a photo or video of a job.
type JobPhoto struct {
	ID    string `json:"id"`
	Kind  string `json:"kind" tstype:"\"image\" | \"video\""`
	URL   string `json:"url"`
	Alt   string `json:"alt"`
	Phase string `json:"phase" tstype:"\"before\" | \"during\" | \"after\" | \"\""`
}

// JobDetail is one job as the screen edits it.
type JobDetail struct {
	ID           string     `json:"id"`
	Title        string     `json:"title"`
	CityID       string     `json:"cityId"`
	Month        string     `json:"month"`
	Service      string     `json:"service"`
	Story        string     `json:"story"`
	LeadID       string     `json:"leadId"`
	CustomerName string     `json:"customerName"`
	NameConsent  bool       `json:"nameConsent"`
	Status       string     `json:"status" tstype:"\"draft\" | \"published\""`
	Version      int        `json:"version"`
	Photos       []JobPhoto `json:"photos"`
	// SuggestedCityID is the live city nearest where the photos were
	// taken (within work.SuggestKm), "" for none; SuggestedMonth the
	// month the first photo that says so was taken.
	SuggestedCityID string `json:"suggestedCityId"`
	SuggestedMonth  string `json:"suggestedMonth"`
	Words           int    `json:"words"`
	HasPage         bool   `json:"hasPage"`
	// Needs is what the job lacks before it can be published, "" for
	// nothing; MayPublish whether this session may publish it.
	Needs      string `json:"needs"`
	MayPublish bool   `json:"mayPublish"`
	// MayLinkLead says this session may see and link leads.
	MayLinkLead bool `json:"mayLinkLead"`
}

// Rules are the numbers the screen states.
type Rules struct {
	MinPhotos int `json:"minPhotos"`
	MinWords  int `json:"minWords"`
	MaxTitle  int `json:"maxTitle"`
	MaxStory  int `json:"maxStory"`
	MaxName   int `json:"maxName"`
}

// JobChoices are the live cities and services to pick from, and the rules.
type JobChoices struct {
	Cities   []work.City    `json:"cities"`
	Services []work.Service `json:"services"`
	Rules    Rules          `json:"rules"`
}

// Deleted is a delete's answer.
type Deleted struct {
	OK bool `json:"ok"`
}

func (h *Handler) choices(ctx context.Context) (work.Choices, error) {
	ch, err := work.LoadChoices(ctx, h.Records)
	if err != nil {
		return ch, httperr.Unavailable("The cities and services could not be loaded right now. Try again.", err)
	}
	return ch, nil
}

// Choices answers the cities and services a job may name.
func (h *Handler) Choices(c echo.Context) error {
	ch, err := h.choices(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, JobChoices{Cities: ch.Cities, Services: ch.Services, Rules: Rules{
		MinPhotos: work.MinPhotos, MinWords: work.MinWords, MaxTitle: work.MaxTitle, MaxStory: work.MaxStory, MaxName: work.MaxName}})
}

// List answers a page of jobs, newest first.
func (h *Handler) List(c echo.Context) error {
	ctx := c.Request().Context()
	page, _ := strconv.Atoi(c.QueryParam("page"))
	page = max(page, 1)
	rows, total, err := h.Store.ListJobs(ctx, page, PerPage)
	if err != nil {
		return httperr.Unavailable("The jobs could not be loaded right now. Try again.", err)
	}
	ch, err := h.choices(ctx)
	if err != nil {
		return err
	}
	out := JobList{Jobs: make([]JobRow, 0, len(rows)), Page: page, Total: total, Pages: max(1, (total+PerPage-1)/PerPage)}
	for _, j := range rows {
		city, _ := ch.City(j.CityID)
		out.Jobs = append(out.Jobs, JobRow{ID: j.ID, Title: j.Title, City: city.Name, Month: j.Month, Status: j.Status, Photos: j.Photos, HasPage: work.HasPage(j.Photos, j.Story)})
	}
	return c.JSON(http.StatusOK, out)
}

// detail builds a job's answer from its row and photos.
func (h *Handler) detail(c echo.Context, status int, j db.Job, ch work.Choices) error {
	ms, err := h.Store.JobMedia(c.Request().Context(), j.ID)
	if err != nil {
		return httperr.Unavailable("The job's photos could not be loaded right now. Try again.", err)
	}
	p := auth.From(c)
	out := JobDetail{ID: j.ID, Title: j.Title, CityID: j.CityID, Month: j.Month, Service: j.Service, Story: j.Story,
		CustomerName: j.CustomerName, NameConsent: j.NameConsent, Status: j.Status, Version: j.Version, Photos: []JobPhoto{},
		Words: work.Words(j.Story), HasPage: work.HasPage(j.Photos, j.Story), Needs: work.CanPublish(j),
		MayPublish: p.Can(accounts.ContentEdit), MayLinkLead: p.Can(accounts.LeadsRead)}
	if out.MayLinkLead {
		out.LeadID = j.LeadID
	}
	for _, m := range ms {
		it := media.ItemOf(m)
		out.Photos = append(out.Photos, JobPhoto{ID: m.ID, Kind: it.Type, URL: it.URL, Alt: it.Alt, Phase: m.Phase})
		if out.SuggestedMonth == "" {
			out.SuggestedMonth = m.TakenMonth
		}
	}
	if j.Lat != nil && j.Lng != nil {
		if city, ok := ch.Suggest(*j.Lat, *j.Lng); ok {
			out.SuggestedCityID = city.ID
		}
	}
	return c.JSON(status, out)
}

// job reads the job named in the path.
func (h *Handler) job(c echo.Context) (db.Job, error) {
	j, err := h.Store.GetJob(c.Request().Context(), c.Param("id"))
	return j, storeError(err, "The job could not be loaded right now. Try again.")
}

// storeError turns a store error into the screen's answer.
func storeError(err error, unavailable string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, db.ErrNotFound):
		return &httperr.Error{Status: http.StatusNotFound, Message: "This job no longer exists.", Err: err}
	case errors.Is(err, db.ErrJobConflict):
		return &httperr.Error{Status: http.StatusConflict, Message: "Someone else changed this job while you were editing it. Reload it to see their change, then make yours again.", Err: err}
	case errors.Is(err, db.ErrBadPhase):
		return &httperr.Error{Status: http.StatusBadRequest, Message: "The phase must be before, during or after.", Err: err}
	}
	return httperr.Unavailable(unavailable, err)
}

// onSite refuses a change to a job already on the site by a session that
// may not publish: what the public reads follows the content roles.
func onSite(c echo.Context, j db.Job) error {
	if j.Status == db.JobPublished && !auth.From(c).Can(accounts.ContentEdit) {
		return &httperr.Error{Status: http.StatusForbidden, Message: "This job is on the site: only an editor or the owner's admin account can change it. Ask them, or have them take it off the site first."}
	}
	return nil
}

// changed re-renders the public pages after a change to a job on the site.
func (h *Handler) changed(j db.Job, reason string) {
	if j.Status == db.JobPublished && h.Changed != nil {
		h.Changed(reason)
	}
}

// Get answers one job.
func (h *Handler) Get(c echo.Context) error {
	j, err := h.job(c)
	if err != nil {
		return err
	}
	ch, err := h.choices(c.Request().Context())
	if err != nil {
		return err
	}
	return h.detail(c, http.StatusOK, j, ch)
}

// jobForm is a create's or save's body; Version is the version a save
// was based on.
type jobForm struct {
	work.Fields
	Version int `json:"version"`
}

// fields reads and checks the body against the live records. A lead is
// linked only by a session that may read leads, and only to one that
// exists; for any other session the job keeps the lead it had (keep).
func (h *Handler) fields(c echo.Context, keep string) (jobForm, db.JobFields, work.Choices, error) {
	var f jobForm
	if err := json.NewDecoder(http.MaxBytesReader(c.Response(), c.Request().Body, 64<<10)).Decode(&f); err != nil {
		return f, db.JobFields{}, work.Choices{}, &httperr.Error{Status: http.StatusBadRequest, Message: "The job could not be read: send its fields as JSON.", Err: err}
	}
	ch, err := h.choices(c.Request().Context())
	if err != nil {
		return f, db.JobFields{}, ch, err
	}
	jf, err := work.Clean(f.Fields, ch)
	var inv *work.Invalid
	if errors.As(err, &inv) {
		return f, jf, ch, &httperr.Error{Status: http.StatusBadRequest, Message: inv.Message, Err: err}
	}
	if !auth.From(c).Can(accounts.LeadsRead) {
		jf.LeadID = keep
	} else if jf.LeadID != "" && jf.LeadID != keep {
		if _, err := h.Store.GetLead(c.Request().Context(), jf.LeadID); errors.Is(err, db.ErrNotFound) {
			return f, jf, ch, &httperr.Error{Status: http.StatusBadRequest, Message: "That lead no longer exists: pick another, or none.", Err: err}
		} else if err != nil {
			return f, jf, ch, httperr.Unavailable("The lead could not be checked right now. Try again.", err)
		}
	}
	return f, jf, ch, nil
}

// Create adds a draft job.
func (h *Handler) Create(c echo.Context) error {
	_, jf, ch, err := h.fields(c, "")
	if err != nil {
		return err
	}
	j, err := h.Store.CreateJob(c.Request().Context(), jf)
	if err != nil {
		return storeError(err, "The job could not be saved right now. Try again.")
	}
	if j.NameConsent {
		h.audit(c, db.AuditJobNameConsent, j)
	}
	return h.detail(c, http.StatusCreated, j, ch)
}

// Save saves a job's fields, if nobody changed it since the version the
// screen read.
func (h *Handler) Save(c echo.Context) error {
	cur, err := h.job(c)
	if err != nil {
		return err
	}
	if err := onSite(c, cur); err != nil {
		return err
	}
	f, jf, ch, err := h.fields(c, cur.LeadID)
	if err != nil {
		return err
	}
	j, err := h.Store.UpdateJob(c.Request().Context(), cur.ID, f.Version, jf)
	if err != nil {
		return storeError(err, "The job could not be saved right now. Try again.")
	}
	if j.NameConsent && (!cur.NameConsent || cur.CustomerName != j.CustomerName) {
		h.audit(c, db.AuditJobNameConsent, j)
	}
	h.changed(j, "job saved")
	return h.detail(c, http.StatusOK, j, ch)
}

// Delete removes a job; its photos stay in the library.
func (h *Handler) Delete(c echo.Context) error {
	cur, err := h.job(c)
	if err != nil {
		return err
	}
	if err := onSite(c, cur); err != nil {
		return err
	}
	j, err := h.Store.DeleteJob(c.Request().Context(), cur.ID)
	if err != nil {
		return storeError(err, "The job could not be deleted right now. Try again.")
	}
	h.audit(c, db.AuditJobDelete, j)
	h.changed(j, "job deleted")
	return c.JSON(http.StatusOK, Deleted{OK: true})
}

// versionForm is a publish's or unpublish's body.
type versionForm struct {
	Version int `json:"version"`
}

// Publish puts a job on the site (content.edit, in the route's guard).
func (h *Handler) Publish(c echo.Context) error {
	return h.publish(c, true)
}

// Unpublish takes a job off the site; it stays on the Jobs screen.
func (h *Handler) Unpublish(c echo.Context) error {
	return h.publish(c, false)
}

func (h *Handler) publish(c echo.Context, on bool) error {
	var f versionForm
	if err := c.Bind(&f); err != nil || f.Version < 1 {
		return &httperr.Error{Status: http.StatusBadRequest, Message: `Send {"version": n} as JSON.`, Err: err}
	}
	cur, err := h.job(c)
	if err != nil {
		return err
	}
	if on && cur.Status != db.JobPublished {
		if needs := work.CanPublish(cur); needs != "" {
			return &httperr.Error{Status: http.StatusBadRequest, Message: needs}
		}
	}
	ctx := c.Request().Context()
	var j db.Job
	reason := "job published"
	if on {
		j, err = h.Store.PublishJob(ctx, cur.ID, f.Version)
	} else {
		j, err = h.Store.UnpublishJob(ctx, cur.ID, f.Version)
		reason = "job unpublished"
	}
	if err != nil {
		return storeError(err, "The job could not be changed right now. Try again.")
	}
	h.Log.Info(reason, "job", j.ID, "by", actor(c))
	if on {
		h.audit(c, db.AuditJobPublish, j)
	} else {
		h.audit(c, db.AuditJobUnpublish, j)
	}
	if h.Changed != nil {
		h.Changed(reason)
	}
	ch, err := h.choices(ctx)
	if err != nil {
		return err
	}
	return h.detail(c, http.StatusOK, j, ch)
}

func actor(c echo.Context) string {
	p := auth.From(c)
	if p.IsPIN() {
		return "pin"
	}
	return p.Account().ID
}

// audit records who did what to a job (its title in the detail); a
// failure is logged, not shown: the change itself has happened.
func (h *Handler) audit(c echo.Context, action string, j db.Job) {
	p := auth.From(c)
	e := db.AuditEntry{At: time.Now().UTC(), Actor: "PIN", Action: action, Detail: j.Title, IP: c.RealIP()}
	if !p.IsPIN() {
		u := p.Account()
		e.UserID, e.Actor = u.ID, u.Email
	}
	if err := h.Store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		h.Log.Error("audit log not written", "action", action, "err", err)
	}
}

// photoForm is an add's or a phase change's body.
type photoForm struct {
	MediaID string `json:"mediaId"`
	Phase   string `json:"phase"`
}

// AddPhoto puts a photo or video of the library in the job with a phase
// (PUT .../photos/:media changes a photo's phase the same way).
func (h *Handler) AddPhoto(c echo.Context) error {
	var f photoForm
	if err := c.Bind(&f); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: `Send {"mediaId": "...", "phase": "before"} as JSON.`, Err: err}
	}
	if id := c.Param("media"); id != "" {
		f.MediaID = id
	}
	cur, err := h.job(c)
	if err != nil {
		return err
	}
	if err := onSite(c, cur); err != nil {
		return err
	}
	ctx := c.Request().Context()
	// A photo moved from another job leaves that job: the same rule holds
	// there when it is on the site.
	if m, err := h.Store.GetMedia(ctx, f.MediaID); err == nil && m.JobID != nil && *m.JobID != cur.ID {
		from, err := h.Store.GetJob(ctx, *m.JobID)
		if err == nil {
			if err := onSite(c, from); err != nil {
				return err
			}
			defer h.changed(from, "job photo moved")
		}
	}
	if err := h.Store.AttachMedia(ctx, cur.ID, f.MediaID, f.Phase); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return &httperr.Error{Status: http.StatusNotFound, Message: "This photo or the job no longer exists.", Err: err}
		}
		return storeError(err, "The photo could not be added right now. Try again.")
	}
	h.changed(cur, "job photo added")
	return h.Get(c)
}

// RemovePhoto takes a photo or video out of the job; it stays in the
// library.
func (h *Handler) RemovePhoto(c echo.Context) error {
	cur, err := h.job(c)
	if err != nil {
		return err
	}
	if err := onSite(c, cur); err != nil {
		return err
	}
	if err := h.Store.DetachMedia(c.Request().Context(), cur.ID, c.Param("media")); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return &httperr.Error{Status: http.StatusNotFound, Message: "This photo is not in the job any more.", Err: err}
		}
		return storeError(err, "The photo could not be removed right now. Try again.")
	}
	h.changed(cur, "job photo removed")
	return h.Get(c)
}

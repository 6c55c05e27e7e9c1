// Package editor (web/editor) is the HTTP side of content editing (issue
// 22, docs/content-api.md): the Content Management and Location Pages
// screens' lists and editors, publishing now or on a schedule, history
// and restore, the draft's preview and guidance, the Redirects screen and
// the 404 monitor. The rules are the domain package editor's and package
// content's; these handlers parse, call them and answer. The routes and
// their guards are in server/install.go.
package editor

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// Handler answers the content screens.
type Handler struct {
	Editor *editor.Service
	// Render renders a public path with some content (the preview).
	Render editor.Render
	// BaseURL is the site's address: paths typed as full addresses on its
	// host are taken as paths, and guidance judges links against it.
	BaseURL string
	Log     *slog.Logger

	// renders lets one preview or guidance render run at a time, so an
	// editor's typing never takes the runtimes live pages need.
	renders chan struct{}
	// checkWait is how long the checks of a save (guidance) wait for
	// that turn before they answer "try again": the next save asks
	// again. previewWait is a preview's: the owner asked for that page
	// and is looking at the tab, so it waits its turn, up to a minute
	// or until the browser gives up.
	checkWait, previewWait time.Duration
}

// New returns the handler.
func New(h Handler) *Handler {
	h.renders = make(chan struct{}, 1)
	h.checkWait, h.previewWait = 5*time.Second, time.Minute
	return &h
}

// MaxBody bounds a draft (bytes): the longest record is a few tens of
// kilobytes; BODY_LIMIT caps every request before this.
const MaxBody = content.MaxRecordBytes

// ItemView is an item as lists show it.
type ItemView struct {
	ID       string `json:"id"`
	Kind     string `json:"kind" tstype:"Kind"`
	Slug     string `json:"slug"`
	LiveSlug string `json:"liveSlug"`
	// Title is the record's name as the editor knows it.
	Title  string `json:"title"`
	Status string `json:"status" tstype:"'draft' | 'published' | 'scheduled' | 'unpublished'"`
	// Pending: the working copy has changes that are not live.
	Pending bool `json:"pending"`
	Version int  `json:"version"`
	// Path is where the live copy is served ("" when nothing is).
	Path string `json:"path"`
	// PreviewPath is the page the working copy is seen on.
	PreviewPath      string     `json:"previewPath"`
	PublishAt        *time.Time `json:"publishAt"`
	PublishedAt      *time.Time `json:"publishedAt"`
	FirstPublishedAt *time.Time `json:"firstPublishedAt"`
	UpdatedAt        time.Time  `json:"updatedAt"`
	UpdatedBy        string     `json:"updatedBy"`
}

// ItemList is GET /api/admin/content?kind=: one page of a kind's items
// (q, page, perPage: web/paging, ADR 069).
type ItemList struct {
	Kind string `json:"kind" tstype:"Kind"`
	// Creatable: items of this kind can be added and deleted.
	Creatable bool       `json:"creatable"`
	Items     []ItemView `json:"items"`
	paging.Info
}

// ItemDetail is one item with its working and live copies.
type ItemDetail struct {
	ItemView
	Draft json.RawMessage `json:"draft"`
	// Live is the published copy (null when nothing is live).
	Live json.RawMessage `json:"live"`
	// Problems are the rules' findings on the working copy; hard ones
	// block a publish.
	Problems []content.Problem `json:"problems"`
	// Derived are what the server works out from the working copy: the
	// SEO title and description it uses while the owner's are empty, the
	// main text's words and a post's reading time (null when the working
	// copy cannot be read).
	Derived *content.Derived `json:"derived"`
}

// ConflictAnswer is a stale save's 409: who changed the item and when.
type ConflictAnswer struct {
	Error   string    `json:"error"`
	Version int       `json:"version"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// InvalidAnswer is a refused save or publish: the message, and the
// problems by field.
type InvalidAnswer struct {
	Error    string            `json:"error"`
	Problems []content.Problem `json:"problems"`
}

// ReferencedAnswer is a refused take-down (409): the records that name the
// page, by name, and whether a replacement must be chosen (Replace: a
// post cannot be without a category).
type ReferencedAnswer struct {
	Error     string            `json:"error"`
	Referrers []editor.Referrer `json:"referrers"`
	Replace   bool              `json:"replace"`
}

// Referrers is GET .../referrers: the records that name this one.
type Referrers struct {
	Referrers []editor.Referrer `json:"referrers"`
}

// Referrers lists the records that name an item (what its Unpublish or
// Delete would have to change).
func (h *Handler) Referrers(c echo.Context) error {
	ctx := c.Request().Context()
	if _, err := h.Editor.Get(ctx, c.Param("id")); err != nil {
		return answer(c, err)
	}
	rs, err := h.Editor.Referrers(ctx, c.Param("id"))
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, Referrers{Referrers: rs})
}

// History is GET .../revisions.
type History struct {
	Revisions []editor.RevisionView `json:"revisions"`
}

func view(it contentdb.Item) ItemView {
	if it.UpdatedByID == "seed" {
		// Seeded from the site's files: nobody has edited it here yet.
		it.UpdatedBy = "the original content"
	}
	v := ItemView{ID: it.ID, Kind: it.Kind, Slug: it.Slug, LiveSlug: it.LiveSlug, Title: titleOf(it), Status: it.Status, Pending: it.Pending,
		Version: it.Version, PreviewPath: editor.PreviewPath(it.Kind, it.Slug), PublishAt: it.PublishAt, PublishedAt: it.PublishedAt,
		FirstPublishedAt: it.FirstPublishedAt, UpdatedAt: it.UpdatedAt, UpdatedBy: it.UpdatedBy}
	if it.LiveSlug != "" {
		v.Path = editor.PathOf(it.Kind, it.LiveSlug)
	}
	return v
}

// titleOf reads the record's name from its working copy.
func titleOf(it contentdb.Item) string {
	var m map[string]any
	json.Unmarshal([]byte(it.Draft), &m)
	for _, k := range []string{"title", "name", "city", "cityName"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	switch it.Kind {
	case content.KindHome:
		return "Home page"
	case content.KindWords:
		return "Words across the site"
	case content.KindFAQ:
		return map[string]string{"home": "Home page FAQ", "homeDescriptions": "Home page: services we provide", "services": "Services page FAQ"}[it.Slug]
	}
	return it.Slug
}

func actor(c echo.Context) editor.Actor {
	p := auth.From(c)
	u := p.Account()
	name := u.Name
	if name == "" {
		name = u.Email
	}
	return editor.Actor{ID: u.ID, Name: name, Email: u.Email, IP: c.RealIP()}
}

// answer turns the editor's refusals into HTTP answers.
func answer(c echo.Context, err error) error {
	var conflict *contentdb.Conflict
	var invalid *editor.Invalid
	var redirect *editor.RedirectError
	var referenced *editor.Referenced
	switch {
	case errors.As(err, &conflict):
		return c.JSON(http.StatusConflict, ConflictAnswer{Error: "This page was changed by " + conflict.By + " at " + conflict.At.Format("Jan 2, 3:04 PM MST") +
			". Reload it to see their version, or copy your text first.", Version: conflict.Version, By: conflict.By, At: conflict.At})
	case errors.As(err, &invalid):
		ps := invalid.Problems
		if ps == nil {
			ps = []content.Problem{}
		}
		return c.JSON(http.StatusUnprocessableEntity, InvalidAnswer{Error: invalid.Message, Problems: ps})
	case errors.As(err, &referenced):
		return c.JSON(http.StatusConflict, ReferencedAnswer{Error: referenced.Message, Referrers: referenced.Referrers, Replace: referenced.Replace})
	case errors.As(err, &redirect):
		return httperr.New(http.StatusUnprocessableEntity, redirect.Message)
	case errors.Is(err, editor.ErrNotFound):
		return httperr.New(http.StatusNotFound, "No such page. It may have been deleted.")
	case errors.Is(err, editor.ErrFixedSlug):
		return httperr.New(http.StatusUnprocessableEntity, "This page's address cannot change; keep its slug.")
	case errors.Is(err, editor.ErrNotCreatable):
		return httperr.New(http.StatusUnprocessableEntity, "Pages of this kind can be edited but not added, taken down or deleted.")
	case errors.Is(err, editor.ErrPast):
		return httperr.New(http.StatusUnprocessableEntity, "Choose a publishing time in the future.")
	case errors.Is(err, contentdb.ErrNotScheduled):
		return httperr.New(http.StatusConflict, "This page is not scheduled.")
	case errors.Is(err, contentdb.ErrNotLive):
		return httperr.New(http.StatusConflict, "This page is not published.")
	}
	return httperr.Unavailable("The change could not be saved. Nothing was lost: try again.", err)
}

// List answers one page of the items of a kind: q matches the address
// (slug) and the name, page and perPage choose the page. The record
// pickers narrow it (filterOf): ids, county and exclude.
func (h *Handler) List(c echo.Context) error {
	kind := c.QueryParam("kind")
	f, err := filterOf(c.QueryParams(), kind)
	if err != nil {
		return err
	}
	perPage := paging.DefaultPerPage
	if f.IDs != nil {
		perPage = MaxIDs // every id asked for fits on the first page
	}
	pg, err := paging.From(c, perPage)
	if err != nil {
		return err
	}
	items, total, err := h.Editor.ListPage(c.Request().Context(), kind, db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()}, f)
	if err != nil {
		return answer(c, err)
	}
	out := ItemList{Kind: kind, Creatable: editor.Creatable(kind), Items: make([]ItemView, len(items)), Info: pg.Info(total)}
	for i, it := range items {
		out.Items[i] = view(it)
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) detail(ctx context.Context, it contentdb.Item) (ItemDetail, error) {
	problems, err := h.Editor.Problems(ctx, it)
	if err != nil {
		var invalid *editor.Invalid
		if !errors.As(err, &invalid) {
			return ItemDetail{}, err
		}
		problems = []content.Problem{{Kind: it.Kind, Slug: it.Slug, Message: invalid.Message, Hard: true}}
	}
	d := ItemDetail{ItemView: view(it), Draft: json.RawMessage(it.Draft), Live: json.RawMessage("null"), Problems: problems}
	if v, err := content.Decode(it.Kind, it.Slug, []byte(it.Draft)); err == nil {
		dv := content.DeriveOf(v)
		d.Derived = &dv
	}
	if it.Live != "" {
		d.Live = json.RawMessage(it.Live)
	}
	return d, nil
}

// Get reads one item.
func (h *Handler) Get(c echo.Context) error {
	ctx := c.Request().Context()
	it, err := h.Editor.Get(ctx, c.Param("id"))
	if err != nil {
		return answer(c, err)
	}
	d, err := h.detail(ctx, it)
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, d)
}

// write is a change's request: the version it is based on, and what
// the change needs.
type write struct {
	Version  int             `json:"version"`
	Kind     string          `json:"kind"`
	Data     json.RawMessage `json:"data"`
	At       *time.Time      `json:"at"`
	Revision string          `json:"revision"`
	// RemoveReferences: take the page down even though other pages name
	// it, removing it from them (ReplaceWith in its place, where a page
	// needs one: a post's category), in the same transaction.
	RemoveReferences bool   `json:"removeReferences"`
	ReplaceWith      string `json:"replaceWith"`
}

func bind(c echo.Context) (write, error) {
	var w write
	if err := c.Bind(&w); err != nil {
		return w, httperr.New(http.StatusBadRequest, "Send the change as JSON.")
	}
	if len(w.Data) > MaxBody {
		return w, httperr.New(http.StatusRequestEntityTooLarge, "This page is too long to save.")
	}
	return w, nil
}

// changed answers a write with the item as it now is.
func (h *Handler) changed(c echo.Context, status int, it contentdb.Item, err error) error {
	if err != nil {
		return answer(c, err)
	}
	d, err := h.detail(c.Request().Context(), it)
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(status, d)
}

// Create adds a draft (a post, a city, a category).
func (h *Handler) Create(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	it, err := h.Editor.Create(c.Request().Context(), w.Kind, w.Data, actor(c))
	return h.changed(c, http.StatusCreated, it, err)
}

// Save stores the working copy.
func (h *Handler) Save(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	it, err := h.Editor.Save(c.Request().Context(), c.Param("id"), w.Version, w.Data, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Publish makes the working copy live.
func (h *Handler) Publish(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	it, err := h.Editor.Publish(c.Request().Context(), c.Param("id"), w.Version, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Schedule publishes the working copy at a time to come.
func (h *Handler) Schedule(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	if w.At == nil {
		return httperr.New(http.StatusBadRequest, "Choose when to publish.")
	}
	it, err := h.Editor.Schedule(c.Request().Context(), c.Param("id"), w.Version, *w.At, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Unschedule cancels a schedule.
func (h *Handler) Unschedule(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	it, err := h.Editor.Unschedule(c.Request().Context(), c.Param("id"), w.Version, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Unpublish takes the page down.
func (h *Handler) Unpublish(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	d := editor.Detach{Remove: w.RemoveReferences, Replace: w.ReplaceWith}
	it, err := h.Editor.UnpublishDetaching(c.Request().Context(), c.Param("id"), w.Version, d, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Deleted is a delete's answer.
type Deleted struct {
	Deleted string `json:"deleted"`
}

// Delete removes an item; ?version= is the version it is based on;
// ?removeReferences=true&replaceWith= as for Unpublish.
func (h *Handler) Delete(c echo.Context) error {
	v, err := strconv.Atoi(c.QueryParam("version"))
	if err != nil {
		return httperr.New(http.StatusBadRequest, "Say which version you are deleting (?version=).")
	}
	d := editor.Detach{Remove: c.QueryParam("removeReferences") == "true", Replace: c.QueryParam("replaceWith")}
	it, err := h.Editor.DeleteDetaching(c.Request().Context(), c.Param("id"), v, d, actor(c))
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, Deleted{Deleted: it.ID})
}

// Restore copies a revision into the working copy, as a new draft.
func (h *Handler) Restore(c echo.Context) error {
	w, err := bind(c)
	if err != nil {
		return err
	}
	it, err := h.Editor.Restore(c.Request().Context(), c.Param("id"), w.Revision, w.Version, actor(c))
	return h.changed(c, http.StatusOK, it, err)
}

// Revisions lists the published versions with what each changed.
func (h *Handler) Revisions(c echo.Context) error {
	revs, err := h.Editor.History(c.Request().Context(), c.Param("id"))
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, History{Revisions: revs})
}

// withRender runs one preview or guidance render at a time; another
// waits up to wait (checkWait or previewWait), then is told to try again.
func (h *Handler) withRender(ctx context.Context, wait time.Duration, f func() error) error {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case h.renders <- struct{}{}:
		defer func() { <-h.renders }()
		return f()
	case <-t.C:
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Another preview is being rendered. Try again in a moment.", Quiet: true}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Guidance checks the working copy: the rules, and the SEO audit's page
// rules on its real render.
func (h *Handler) Guidance(c echo.Context) error {
	ctx := c.Request().Context()
	it, err := h.Editor.Get(ctx, c.Param("id"))
	if err != nil {
		return answer(c, err)
	}
	var g editor.Guidance
	err = h.withRender(ctx, h.checkWait, func() error {
		var err error
		g, err = h.Editor.Guidance(ctx, it, h.Render, h.BaseURL)
		return err
	})
	if err != nil {
		var he *httperr.Error
		if errors.As(err, &he) {
			return he
		}
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, g)
}

// Preview answers the working copy's real render in the real layout, at a
// private address: noindex, never cached, for a session that may edit.
func (h *Handler) Preview(c echo.Context) error {
	ctx := c.Request().Context()
	hdr := c.Response().Header()
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Robots-Tag", "noindex, nofollow")
	it, err := h.Editor.Get(ctx, c.Param("id"))
	if err != nil {
		return answer(c, err)
	}
	var body []byte
	err = h.withRender(ctx, h.previewWait, func() error {
		var err error
		body, err = h.Editor.Preview(ctx, it, h.Render)
		return err
	})
	var invalid *editor.Invalid
	if errors.As(err, &invalid) {
		return httperr.New(http.StatusUnprocessableEntity, invalid.Message)
	}
	if err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, withPreviewBar(body, "/admin/content?item="+url.QueryEscape(it.ID)))
}

// RedirectRow is one redirect.
type RedirectRow struct {
	From      string    `json:"from"`
	To        string    `json:"to"`
	Source    string    `json:"source"` // auto (a page's address changed) or manual
	CreatedAt time.Time `json:"createdAt"`
	CreatedBy string    `json:"createdBy"`
}

// RedirectList is GET /api/admin/redirects: one page of the redirects
// (q, page, perPage: web/paging).
type RedirectList struct {
	Redirects []RedirectRow `json:"redirects"`
	Max       int           `json:"max"`
	paging.Info
}

// Redirects answers one page of the redirects, by the address they
// leave; q matches either address.
func (h *Handler) Redirects(c echo.Context) error {
	pg, err := paging.From(c, paging.DefaultPerPage)
	if err != nil {
		return err
	}
	rs, total, err := h.Editor.RedirectsPage(c.Request().Context(), db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()})
	if err != nil {
		return httperr.Unavailable("The redirects could not be loaded.", err)
	}
	out := RedirectList{Redirects: make([]RedirectRow, len(rs)), Max: editor.MaxRedirects, Info: pg.Info(total)}
	for i, r := range rs {
		out.Redirects[i] = RedirectRow{From: r.From, To: r.To, Source: r.Source, CreatedAt: r.CreatedAt, CreatedBy: r.CreatedBy}
	}
	return c.JSON(http.StatusOK, out)
}

// AddRedirect records a 301 from one path of the site to another.
func (h *Handler) AddRedirect(c echo.Context) error {
	var in struct {
		From string `json:"from"`
		To   string `json:"to"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, "Send the redirect as JSON: {\"from\": \"/old\", \"to\": \"/new\"}.")
	}
	r, err := h.Editor.AddRedirect(c.Request().Context(), in.From, in.To, h.host(), actor(c))
	if err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusCreated, RedirectRow{From: r.From, To: r.To, Source: r.Source, CreatedAt: r.CreatedAt, CreatedBy: r.CreatedBy})
}

// DeleteRedirect removes a redirect (?from=/old).
func (h *Handler) DeleteRedirect(c echo.Context) error {
	from := c.QueryParam("from")
	if err := h.Editor.DeleteRedirect(c.Request().Context(), from, h.host(), actor(c)); err != nil {
		return answer(c, err)
	}
	return c.JSON(http.StatusOK, Deleted{Deleted: from})
}

func (h *Handler) host() string {
	host := strings.TrimPrefix(strings.TrimPrefix(h.BaseURL, "https://"), "http://")
	host, _, _ = strings.Cut(host, "/")
	if i := strings.LastIndex(host, ":"); i >= 0 {
		host = host[:i]
	}
	return host
}

// NotFoundList is GET /api/admin/not-found: one page of the paths that
// answered 404 over the last 30 days, most first (q, page, perPage:
// web/paging).
type NotFoundList struct {
	Paths []NotFoundPath `json:"paths"`
	Days  int            `json:"days"`
	paging.Info
}

// NotFoundPath is one path of the 404 monitor.
type NotFoundPath struct {
	Path     string    `json:"path"`
	Hits     int       `json:"hits"`
	LastSeen time.Time `json:"lastSeen"`
}

// NotFound answers one page of the 404 monitor; q matches the path.
func (h *Handler) NotFound(c echo.Context) error {
	pg, err := paging.From(c, paging.DefaultPerPage)
	if err != nil {
		return err
	}
	rows, total, err := h.Editor.NotFoundPage(c.Request().Context(), db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()})
	if err != nil {
		return httperr.Unavailable("The 404 list could not be loaded.", err)
	}
	out := NotFoundList{Paths: make([]NotFoundPath, len(rows)), Days: h.Editor.NotFoundWindow(), Info: pg.Info(total)}
	for i, r := range rows {
		// Rows stored before hidden characters were refused are shown
		// escaped, never as they would read.
		out.Paths[i] = NotFoundPath{Path: guard.ShowHidden(r.Path), Hits: r.Hits, LastSeen: r.LastSeen}
	}
	return c.JSON(http.StatusOK, out)
}

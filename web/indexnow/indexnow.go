// Package indexnow (web/indexnow) is the HTTP side of the SEO & IndexNow
// screen (spec 2.4, 3, 7): the IndexNow key, its public key file, manual
// submissions and their history, the SEO health monitor's results and its
// run button, and the list of routes. The domain packages indexnow and
// health hold the work; these handlers parse, call them and answer. The
// routes and their guards are in server/install.go.
package indexnow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
)

// Store is what the screen reads (db.Store).
type Store interface {
	ListIndexNowSubmissions(ctx context.Context, limit, offset int) ([]db.IndexNowSubmission, int, error)
	LatestHealthRun(ctx context.Context) (db.HealthRun, []db.HealthResult, error)
}

// Handler answers the SEO & IndexNow screen.
type Handler struct {
	Store Store
	Site  *site.Site
	// IndexNow submits URLs and keeps the key.
	IndexNow *indexnow.Service
	// Jobs runs the health monitor now (HealthJob); HealthInterval is how
	// often it runs by itself, Monitoring whether it is switched on.
	Jobs           runjob.Runner
	HealthJob      string
	HealthInterval time.Duration
	Monitoring     func(context.Context) (bool, error)
	Log            *slog.Logger
}

// IndexNow (spec 2.4, 7, 8): the admin screen keeps an IndexNow key and
// submits the site's URLs. The browser cannot post to search engines under
// the site's CSP (connect-src 'self'), so it asks this server, which posts
// {host, key, keyLocation, urlList} to INDEXNOW_ENDPOINT through the
// indexnow package. The key is INDEXNOW_KEY, or the one the admin screen
// saved in settings; it is served publicly at /{key}.txt, the file search
// engines fetch to verify that the key belongs to the site. Automatic
// submission after content changes is a job (server/jobs.go registers it).

// MaxIndexNowURLs is the most URLs one submission may carry (the
// IndexNow protocol's limit per request).
const MaxIndexNowURLs = indexnow.MaxURLs

// indexNowFileRE is a request path that could name a key file.
var indexNowFileRE = regexp.MustCompile(`^/([a-zA-Z0-9-]{8,128})\.txt$`)

// key returns the key in force, "" when there is none, and whether
// INDEXNOW_KEY fixes it.
func (h *Handler) key(ctx context.Context) (string, bool, error) {
	return h.IndexNow.Keys.Key(ctx)
}

func badKey() error {
	return &httperr.Error{Status: http.StatusBadRequest, Message: "The IndexNow key must be 8-128 characters: letters, digits or dashes."}
}

// saveKey stores the admin's key.
func (h *Handler) saveKey(ctx context.Context, key string) error {
	switch err := h.IndexNow.Keys.Save(ctx, key); {
	case errors.Is(err, indexnow.ErrBadKey):
		return badKey()
	case errors.Is(err, indexnow.ErrFixedKey):
		return &httperr.Error{Status: http.StatusConflict, Message: "The IndexNow key is set by your web host on the server; ask them to change it there (see the deployment guide)."}
	case err != nil:
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be saved.", Err: err}
	}
	return nil
}

// KeyFile serves /{key}.txt as the key in plain text when the name is the
// key in force. It is a middleware, not a route: "/:keyfile" would take
// every one-segment page from the page catch-all.
func (h *Handler) KeyFile(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return next(c)
		}
		m := indexNowFileRE.FindStringSubmatch(r.URL.Path)
		if m == nil {
			return next(c)
		}
		key, _, err := h.key(r.Context())
		if err != nil {
			h.Log.Error("indexnow: read key", "err", err)
			return next(c)
		}
		if key == "" || key != m[1] {
			return next(c)
		}
		c.Response().Header().Set("Cache-Control", "no-cache")
		return c.String(http.StatusOK, key)
	}
}

// GetKey returns the key in force, where its file is served, and whether
// INDEXNOW_KEY sets it (the screen then cannot replace it).
func (h *Handler) GetKey(c echo.Context) error {
	key, fixed, err := h.key(c.Request().Context())
	if err != nil {
		return httperr.Unavailable("The IndexNow key could not be loaded.", err)
	}
	out := IndexNowKey{Key: key, Fixed: fixed}
	if key != "" {
		out.KeyLocation = h.Site.Abs("/" + key + ".txt")
	}
	return c.JSON(http.StatusOK, out)
}

// PutKey validates and stores the key.
func (h *Handler) PutKey(c echo.Context) error {
	var body struct {
		Key string `json:"key"`
	}
	if err := c.Bind(&body); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the key as JSON: {\"key\": \"...\"}.", Err: err}
	}
	key := strings.TrimSpace(body.Key)
	if err := h.saveKey(c.Request().Context(), key); err != nil {
		return err
	}
	h.Log.Info("indexnow: key saved")
	return c.JSON(http.StatusOK, IndexNowKey{Key: key, KeyLocation: h.Site.Abs("/" + key + ".txt")})
}

// siteURLs checks that every URL is on the site's own host and returns
// them absolute and without duplicates. A path ("/contact") is taken
// relative to BASE_URL.
func (h *Handler) siteURLs(raw []string) ([]string, error) {
	base, err := url.Parse(h.Site.BaseURL())
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out, foreign []string
	for _, r := range raw {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		u, err := url.Parse(r)
		if err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(r, "/") && !strings.HasPrefix(r, "//") {
			u = base.ResolveReference(u)
		}
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, base.Host) || u.User != nil {
			foreign = append(foreign, r)
			continue
		}
		u.Fragment = ""
		s := u.String()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(foreign) > 0 {
		shown := foreign
		if len(shown) > 3 {
			shown = shown[:3]
		}
		return nil, &httperr.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(
			"Only this site's own addresses (%s) can be submitted; %d other URL(s) given, e.g. %s.", base.Host, len(foreign), strings.Join(shown, ", "))}
	}
	return out, nil
}

// Submit posts URLs to IndexNow: the given ones, or every sitemap URL when
// "all" is true. The key sent is stored first, so /{key}.txt answers it
// when the search engine comes to verify.
func (h *Handler) Submit(c echo.Context) error {
	var body struct {
		URLs   []string `json:"urls"`
		APIKey string   `json:"apiKey"`
		All    bool     `json:"all"`
	}
	if err := c.Bind(&body); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send JSON: {\"urls\": [...], \"apiKey\": \"...\"}.", Err: err}
	}
	ctx := c.Request().Context()
	key := strings.TrimSpace(body.APIKey)
	stored, fixed, err := h.key(ctx)
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be loaded.", Err: err}
	}
	if key == "" || fixed {
		key = stored
	}
	if key == "" {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Generate an IndexNow API key first."}
	}
	if !indexnow.ValidKey(key) {
		return badKey()
	}
	raw, trigger := body.URLs, indexnow.TriggerCustom
	if body.All {
		raw, trigger = nil, indexnow.TriggerAll
		for _, u := range h.Site.SitemapURLs() {
			raw = append(raw, u.Loc)
		}
	}
	if len(raw) > MaxIndexNowURLs {
		return &httperr.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("At most %d URLs can be submitted at once; %d given.", MaxIndexNowURLs, len(raw))}
	}
	urls, err := h.siteURLs(raw)
	if err != nil {
		return err
	}
	if len(urls) == 0 {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Please enter URLs to submit."}
	}
	if key != stored {
		if err := h.saveKey(ctx, key); err != nil {
			return err
		}
	}
	res, err := h.IndexNow.Submit(ctx, trigger, key, urls)
	if err != nil {
		// The kind of failure only: the endpoint's address stays in the log.
		return &httperr.Error{Status: http.StatusBadGateway, Message: "The submission to IndexNow failed: " + failure.Kind(failure.At(failure.IndexNow, err)) + ".", Err: err}
	}
	return c.JSON(http.StatusOK, IndexNowSubmitted{Submitted: len(urls), Status: res.Status})
}

// Submission is one row of the IndexNow tab's history.
type Submission struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
	// TriggeredBy is auto (a content change), all (Submit All Site Pages)
	// or custom (the admin's list).
	TriggeredBy string `json:"trigger"`
	URLCount    int    `json:"urlCount"`
	StatusCode  int    `json:"statusCode"`
	// Response is IndexNow's answer (or the kind of failure), truncated.
	Response string `json:"response"`
	Outcome  string `json:"outcome"`
	// URLs are the submitted addresses.
	URLs []string `json:"urls"`
}

// Submissions returns the submission history, newest first, a page at a
// time (?limit=20&offset=0; limit at most 100).
func (h *Handler) Submissions(c echo.Context) error {
	limit, _ := strconv.Atoi(c.QueryParam("limit"))
	offset, _ := strconv.Atoi(c.QueryParam("offset"))
	if limit < 1 || limit > 100 {
		limit = 20
	}
	offset = max(offset, 0)
	rows, total, err := h.Store.ListIndexNowSubmissions(c.Request().Context(), limit, offset)
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The submission history could not be loaded.", Err: err}
	}
	out := make([]Submission, len(rows))
	for i, r := range rows {
		out[i] = Submission{ID: r.ID, CreatedAt: r.CreatedAt, TriggeredBy: r.TriggeredBy, URLs: indexnow.SubmissionURLs(r),
			URLCount: r.URLCount, StatusCode: r.StatusCode, Response: r.Response, Outcome: r.Outcome}
	}
	return c.JSON(http.StatusOK, SubmissionPage{Submissions: out, Total: total, Limit: limit, Offset: offset})
}

// IndexNowKey is the IndexNow key in force and where its file is served.
type IndexNowKey struct {
	Key         string `json:"key"`
	KeyLocation string `json:"keyLocation"`
	// Fixed: INDEXNOW_KEY sets it, and the screen cannot replace it.
	Fixed bool `json:"fixed"`
}

// IndexNowSubmitted is a manual submission's answer.
type IndexNowSubmitted struct {
	Submitted int `json:"submitted"`
	Status    int `json:"status"`
}

// SubmissionPage is GET /api/admin/indexnow/submissions.
type SubmissionPage struct {
	Submissions []Submission `json:"submissions"`
	Total       int          `json:"total"`
	Limit       int          `json:"limit"`
	Offset      int          `json:"offset"`
}

package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/indexnow"
)

// IndexNow (spec 2.4, 7, 8): the admin screen keeps an IndexNow key and
// submits the site's URLs. The browser cannot post to search engines under
// the site's CSP (connect-src 'self'), so it asks this server, which posts
// {host, key, keyLocation, urlList} to INDEXNOW_ENDPOINT through the
// indexnow package. The key is INDEXNOW_KEY, or the one the admin screen
// saved in settings; it is served publicly at /{key}.txt, the file search
// engines fetch to verify that the key belongs to the site. Automatic
// submission after content changes is a job (server/jobs.go).

// MaxIndexNowURLs is the most URLs one submission may carry (the
// IndexNow protocol's limit per request).
const MaxIndexNowURLs = indexnow.MaxURLs

// indexNowPayload is the body IndexNow expects (spec 3).
type indexNowPayload = indexnow.Payload

// indexNowFileRE is a request path that could name a key file.
var indexNowFileRE = regexp.MustCompile(`^/([a-zA-Z0-9-]{8,128})\.txt$`)

// indexNow holds the submission service.
type indexNow struct {
	s   *Server
	svc *indexnow.Service
}

// key returns the key in force, "" when there is none.
func (in *indexNow) key(ctx context.Context) (string, bool, error) {
	if in.s.store == nil && in.s.cfg.IndexNowKey == "" {
		return "", false, nil
	}
	return in.svc.Keys.Key(ctx)
}

func badKey() error {
	return &StatusError{Status: http.StatusBadRequest, Message: "The IndexNow key must be 8-128 characters: letters, digits or dashes."}
}

// saveKey stores the admin's key.
func (in *indexNow) saveKey(ctx context.Context, key string) error {
	switch err := in.svc.Keys.Save(ctx, key); {
	case errors.Is(err, indexnow.ErrBadKey):
		return badKey()
	case errors.Is(err, indexnow.ErrFixedKey):
		return &StatusError{Status: http.StatusConflict, Message: "The IndexNow key is set on the server (INDEXNOW_KEY); change it there."}
	case err != nil:
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be saved.", Err: err}
	}
	return nil
}

// keyFile serves /{key}.txt as the key in plain text when the name is the
// key in force.
func (in *indexNow) keyFile(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return next(c)
		}
		m := indexNowFileRE.FindStringSubmatch(r.URL.Path)
		if m == nil {
			return next(c)
		}
		key, _, err := in.key(r.Context())
		if err != nil {
			in.s.log.Error("indexnow: read key", "err", err)
			return next(c)
		}
		if key == "" || key != m[1] {
			return next(c)
		}
		c.Response().Header().Set("Cache-Control", "no-cache")
		return c.String(http.StatusOK, key)
	}
}

// getKey returns the key in force, where its file is served, and whether
// INDEXNOW_KEY sets it (the screen then cannot replace it).
func (in *indexNow) getKey(c echo.Context) error {
	key, fixed, err := in.key(c.Request().Context())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be loaded.", Err: err}
	}
	out := map[string]any{"key": key, "keyLocation": "", "fixed": fixed}
	if key != "" {
		out["keyLocation"] = in.s.site.Abs("/" + key + ".txt")
	}
	return c.JSON(http.StatusOK, out)
}

// putKey validates and stores the key.
func (in *indexNow) putKey(c echo.Context) error {
	var body struct {
		Key string `json:"key"`
	}
	if err := c.Bind(&body); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the key as JSON: {\"key\": \"...\"}.", Err: err}
	}
	key := strings.TrimSpace(body.Key)
	if err := in.saveKey(c.Request().Context(), key); err != nil {
		return err
	}
	in.s.log.Info("indexnow: key saved")
	return c.JSON(http.StatusOK, IndexNowKey{Key: key, KeyLocation: in.s.site.Abs("/" + key + ".txt")})
}

// siteURLs checks that every URL is on the site's own host and returns
// them absolute and without duplicates. A path ("/contact") is taken
// relative to BASE_URL.
func (in *indexNow) siteURLs(raw []string) ([]string, error) {
	base, err := url.Parse(in.s.cfg.BaseURL)
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
		return nil, &StatusError{Status: http.StatusBadRequest, Message: fmt.Sprintf(
			"Only this site's own addresses (%s) can be submitted; %d other URL(s) given, e.g. %s.", base.Host, len(foreign), strings.Join(shown, ", "))}
	}
	return out, nil
}

// submit posts URLs to IndexNow: the given ones, or every sitemap URL when
// "all" is true. The key sent is stored first, so /{key}.txt answers it
// when the search engine comes to verify.
func (in *indexNow) submit(c echo.Context) error {
	var body struct {
		URLs   []string `json:"urls"`
		APIKey string   `json:"apiKey"`
		All    bool     `json:"all"`
	}
	if err := c.Bind(&body); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send JSON: {\"urls\": [...], \"apiKey\": \"...\"}.", Err: err}
	}
	ctx := c.Request().Context()
	key := strings.TrimSpace(body.APIKey)
	stored, fixed, err := in.key(ctx)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be loaded.", Err: err}
	}
	if key == "" || fixed {
		key = stored
	}
	if key == "" {
		return &StatusError{Status: http.StatusBadRequest, Message: "Generate an IndexNow API key first."}
	}
	if !indexnow.ValidKey(key) {
		return badKey()
	}
	raw, trigger := body.URLs, indexnow.TriggerCustom
	if body.All {
		raw, trigger = nil, indexnow.TriggerAll
		for _, u := range in.s.site.SitemapURLs() {
			raw = append(raw, u.Loc)
		}
	}
	if len(raw) > MaxIndexNowURLs {
		return &StatusError{Status: http.StatusBadRequest, Message: fmt.Sprintf("At most %d URLs can be submitted at once; %d given.", MaxIndexNowURLs, len(raw))}
	}
	urls, err := in.siteURLs(raw)
	if err != nil {
		return err
	}
	if len(urls) == 0 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Please enter URLs to submit."}
	}
	if key != stored {
		if err := in.saveKey(ctx, key); err != nil {
			return err
		}
	}
	res, err := in.svc.Submit(ctx, trigger, key, urls)
	if err != nil {
		// The kind of failure only: the endpoint's address stays in the log.
		return &StatusError{Status: http.StatusBadGateway, Message: "The submission to IndexNow failed: " + failure.Kind(failure.At(failure.IndexNow, err)) + ".", Err: err}
	}
	return c.JSON(http.StatusOK, IndexNowSubmitted{Submitted: len(urls), Status: res.Status})
}

// Submission is one row of the IndexNow tab's history.
type Submission struct {
	db.IndexNowSubmission
	URLs []string `json:"urls"`
}

// submissions returns the submission history, newest first, a page at a
// time (?limit=20&offset=0; limit at most 100).
func (in *indexNow) submissions(c echo.Context) error {
	limit, _ := strconv.Atoi(c.QueryParam("limit"))
	offset, _ := strconv.Atoi(c.QueryParam("offset"))
	if limit < 1 || limit > 100 {
		limit = 20
	}
	offset = max(offset, 0)
	rows, total, err := in.s.store.ListIndexNowSubmissions(c.Request().Context(), limit, offset)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The submission history could not be loaded.", Err: err}
	}
	out := make([]Submission, len(rows))
	for i, r := range rows {
		out[i] = Submission{IndexNowSubmission: r, URLs: indexnow.SubmissionURLs(r)}
	}
	return c.JSON(http.StatusOK, SubmissionPage{Submissions: out, Total: total, Limit: limit, Offset: offset})
}

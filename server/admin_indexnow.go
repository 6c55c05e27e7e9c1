package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
)

// IndexNow (spec 2.4, 7, 8): the admin screen keeps an IndexNow key and
// submits the site's URLs. The browser cannot post to search engines under
// the site's CSP (connect-src 'self'), so it asks this server, which posts
// {host, key, keyLocation, urlList} to INDEXNOW_ENDPOINT. The key is
// stored in settings and served publicly at /{key}.txt, the file search
// engines fetch to verify that the key belongs to the site.

// indexNowKeySetting is the settings key of the stored IndexNow key.
const indexNowKeySetting = "indexnow_key"

// MaxIndexNowURLs is the most URLs one submission may carry (the
// IndexNow protocol's limit per request).
const MaxIndexNowURLs = 10_000

// indexNowKeyRE is a valid key: 8-128 letters, digits or dashes (the
// IndexNow protocol's rule).
var indexNowKeyRE = regexp.MustCompile(`^[a-zA-Z0-9-]{8,128}$`)

// indexNowFileRE is a request path that could name a key file.
var indexNowFileRE = regexp.MustCompile(`^/([a-zA-Z0-9-]{8,128})\.txt$`)

// indexNow holds the submission client.
type indexNow struct {
	s    *Server
	http *http.Client
}

// indexNowAPI registers the token-gated key and submission endpoints on g
// and the public key file on e.
func (s *Server) indexNowAPI(g *echo.Group, e *echo.Echo) {
	in := &indexNow{s: s, http: &http.Client{Timeout: 20 * time.Second}}
	g.GET("/indexnow/key", in.getKey)
	g.PUT("/indexnow/key", in.putKey)
	g.POST("/indexnow/submit", in.submit)
	// The key file is answered by a middleware rather than a route: a
	// "/:keyfile" route would take every one-segment path (/contact,
	// /services...) from the page catch-all. The middleware only looks at
	// GET and HEAD paths shaped like a key file and passes everything else,
	// including a name that is not the stored key, to the router's choice.
	e.Use(in.keyFile)
}

// storedKey returns the saved key, "" when none is saved.
func (in *indexNow) storedKey(ctx context.Context) (string, error) {
	if in.s.store == nil {
		return "", nil
	}
	k, err := in.s.store.GetSetting(ctx, indexNowKeySetting)
	if errors.Is(err, db.ErrNotFound) {
		return "", nil
	}
	return k, err
}

func (in *indexNow) saveKey(ctx context.Context, key string) error {
	return in.s.store.SetSettings(ctx, map[string]string{indexNowKeySetting: key}, time.Now().UTC())
}

func badKey() error {
	return &StatusError{Status: http.StatusBadRequest, Message: "The IndexNow key must be 8-128 characters: letters, digits or dashes."}
}

// keyFile serves /{key}.txt as the key in plain text when the name is the
// stored key.
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
		key, err := in.storedKey(r.Context())
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

// getKey returns the stored key and where its file is served.
func (in *indexNow) getKey(c echo.Context) error {
	key, err := in.storedKey(c.Request().Context())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be loaded.", Err: err}
	}
	out := map[string]string{"key": key, "keyLocation": ""}
	if key != "" {
		out["keyLocation"] = in.s.abs("/" + key + ".txt")
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
	if !indexNowKeyRE.MatchString(key) {
		return badKey()
	}
	if err := in.saveKey(c.Request().Context(), key); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be saved.", Err: err}
	}
	in.s.log.Info("indexnow: key saved")
	return c.JSON(http.StatusOK, map[string]string{"key": key, "keyLocation": in.s.abs("/" + key + ".txt")})
}

// indexNowPayload is the body IndexNow expects (spec 3).
type indexNowPayload struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation"`
	URLList     []string `json:"urlList"`
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
	stored, err := in.storedKey(ctx)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be loaded.", Err: err}
	}
	if key == "" {
		key = stored
	}
	if key == "" {
		return &StatusError{Status: http.StatusBadRequest, Message: "Generate an IndexNow API key first."}
	}
	if !indexNowKeyRE.MatchString(key) {
		return badKey()
	}
	raw := body.URLs
	if body.All {
		raw = nil
		for _, u := range in.s.SitemapURLs() {
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
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "The IndexNow key could not be saved.", Err: err}
		}
	}
	base, _ := url.Parse(in.s.cfg.BaseURL)
	p := indexNowPayload{Host: base.Hostname(), Key: key, KeyLocation: in.s.abs("/" + key + ".txt"), URLList: urls}
	status, err := in.post(ctx, p)
	if err != nil {
		return &StatusError{Status: http.StatusBadGateway, Message: "IndexNow did not accept the submission: " + err.Error() + ".", Err: err}
	}
	in.s.log.Info("indexnow: submitted", "urls", len(urls), "status", status)
	return c.JSON(http.StatusOK, map[string]any{"submitted": len(urls), "status": status})
}

// post sends the payload and returns IndexNow's status (200 or 202 mean
// received). Any other status is an error carrying IndexNow's words.
func (in *indexNow) post(ctx context.Context, p indexNowPayload) (int, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.s.cfg.IndexNowEndpoint, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	res, err := in.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("the endpoint could not be reached (%v)", err)
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		msg := fmt.Sprintf("HTTP %d", res.StatusCode)
		if hint := indexNowStatusHint[res.StatusCode]; hint != "" {
			msg += " (" + hint + ")"
		}
		if t := strings.Join(strings.Fields(string(text)), " "); t != "" {
			msg += ": " + t
		}
		return res.StatusCode, errors.New(msg)
	}
	return res.StatusCode, nil
}

// indexNowStatusHint explains IndexNow's documented error answers.
var indexNowStatusHint = map[int]string{
	http.StatusBadRequest:          "invalid format",
	http.StatusForbidden:           "key not valid: the key file was not found or does not match",
	http.StatusUnprocessableEntity: "URLs do not belong to the host or the key does not match",
	http.StatusTooManyRequests:     "too many requests",
}

package server

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/httperr"
)

// msgBadText is the answer to text the site cannot store: PostgreSQL
// refuses a NUL byte in text ("invalid byte sequence for encoding UTF8:
// 0x00"), and invalid UTF-8 would be stored mangled or refused later,
// away from the visitor who could fix it.
const msgBadText = "The request contains a character we cannot accept (a NUL character or invalid UTF-8). Please remove it and try again."

// textIntake refuses, at the edge, any request whose query string or
// form or JSON body holds text that cannot be stored (validText), with a
// 400 that says so, before a handler can accept it and a database refuse
// it afterwards (a lead "received" and never stored, an analytics batch
// rejected whole). Uploads stream and are not read here; their text
// arrives in the query string, which is checked. The estimate form skips
// it: it answers per field, with everything typed kept (validateEstimate).
func (s *Server) textIntake(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if p := r.URL.Path; p == "/estimate" || p == "/api/estimate" {
			return next(c)
		}
		if !queryOK(r.URL.RawQuery) {
			return badText(c)
		}
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
		default:
			return next(c)
		}
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		// An upload's body is not read here whatever its type: the body
		// limit does not apply to uploads, so reading one would hold what
		// anyone sends in memory before the session is even checked. The
		// upload handlers stream multipart and refuse anything else.
		if ct == "multipart/form-data" || r.Body == nil || isUploadRequest(r.Method, r.URL.Path) {
			return next(c)
		}
		// The body limit middleware has already capped what this reads;
		// the cap here keeps that true should a route ever skip it.
		body, err := io.ReadAll(io.LimitReader(r.Body, s.bodyLimit+1))
		if err != nil {
			return err
		}
		if int64(len(body)) > s.bodyLimit {
			return echo.ErrStatusRequestEntityTooLarge
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		ok := true
		switch {
		case ct == "application/x-www-form-urlencoded":
			ok = queryOK(string(body))
		case ct == "application/json" || strings.HasSuffix(ct, "+json") || (ct == "text/plain" && looksJSON(body)):
			ok = jsonTextOK(body)
		default:
			ok = utf8.Valid(body) && bytes.IndexByte(body, 0) < 0
		}
		if !ok {
			return badText(c)
		}
		return next(c)
	}
}

func badText(c echo.Context) error {
	if httperr.WantsJSON(c) {
		// errors.form is where the site's forms show a message.
		return c.JSON(http.StatusBadRequest, map[string]any{"error": msgBadText, "errors": map[string]string{"form": msgBadText}})
	}
	return &StatusError{Status: http.StatusBadRequest, Message: msgBadText}
}

// queryOK checks every key and value of a query string or form body,
// decoded: "%00" and "%FF" are caught as well as raw bytes.
func queryOK(raw string) bool {
	if raw == "" {
		return true
	}
	if !guard.ValidText(raw) {
		return false
	}
	vals, err := url.ParseQuery(raw)
	if err != nil {
		// A malformed escape: the handler answers it as it always has;
		// the raw text itself was checked.
		return true
	}
	for k, vs := range vals {
		if !guard.ValidText(k) {
			return false
		}
		for _, v := range vs {
			if !guard.ValidText(v) {
				return false
			}
		}
	}
	return true
}

func looksJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// jsonTextOK checks a JSON body's raw bytes and every string and key it
// decodes to ("\u0000" decodes to a NUL). A body that is not JSON is left
// to the handler, which answers it as malformed.
func jsonTextOK(body []byte) bool {
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return false
	}
	if !bytes.Contains(body, []byte(`\u0000`)) {
		return true
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return true
	}
	return jsonValueOK(v)
}

func jsonValueOK(v any) bool {
	switch x := v.(type) {
	case string:
		return guard.ValidText(x)
	case []any:
		for _, e := range x {
			if !jsonValueOK(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if !guard.ValidText(k) || !jsonValueOK(e) {
				return false
			}
		}
	}
	return true
}

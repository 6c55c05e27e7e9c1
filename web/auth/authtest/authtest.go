// Package authtest is a room's test setup: an echo instance that answers
// errors as the server's error handler does under /api/, and callers a
// test chooses with a bearer token, left on the request as Require leaves
// a checked session (auth.As). A room's tests route its handlers on it
// (without the guards), on a real test store; who may call which route,
// the guards of server/install.go, is tested across rooms in server/
// (routes_test.go tries every caller on every route).
package authtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The tokens of the callers New sets up. A test adds more with Caller or
// Account.
const (
	PIN = "pin" // the PIN: no account, the tools' role
)

// Room is an echo instance for one room's handlers and the callers its
// tests name.
type Room struct {
	*echo.Echo
	mu      sync.RWMutex
	callers map[string]auth.Principal
}

// New is an empty room whose only caller is the PIN. Routes that take a
// caller are registered with r.As as their middleware.
func New() *Room {
	r := &Room{Echo: echo.New(), callers: map[string]auth.Principal{PIN: {Role: accounts.RolePIN}}}
	r.HTTPErrorHandler = answerError
	// Client addresses come from the connection, as the server takes them
	// when it trusts no proxy.
	r.IPExtractor = echo.ExtractIPDirect()
	return r
}

// answerError answers an error as the server does under /api/: its
// status and {"error": message}, with the spec's title when it has one.
func answerError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg, title := httperr.Status(err), http.StatusText(httperr.Status(err)), ""
	var he *echo.HTTPError
	var se *httperr.Error
	if errors.As(err, &he) {
		status, msg = he.Code, fmt.Sprint(he.Message)
	}
	if errors.As(err, &se) {
		msg, title = se.Message, se.Title
	}
	body := map[string]string{"error": msg}
	if title != "" {
		body["title"] = title
	}
	c.JSON(status, body)
}

// As is the middleware of a route that takes a caller: the bearer
// token's principal, or 401 for a token the room does not know.
func (r *Room) As(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tok, _ := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
		r.mu.RLock()
		p, ok := r.callers[tok]
		r.mu.RUnlock()
		if !ok {
			return httperr.New(http.StatusUnauthorized, "no caller")
		}
		auth.As(c, p)
		return next(c)
	}
}

// Caller lets the token tok call as p.
func (r *Room) Caller(tok string, p auth.Principal) {
	r.mu.Lock()
	r.callers[tok] = p
	r.mu.Unlock()
}

// Users is the store an account is added to (db.Store).
type Users interface {
	CreateUser(ctx context.Context, u db.User) error
}

// Account stores u (with no password: a room's tests never sign in) and
// lets the token tok call as it, with a finished session.
func (r *Room) Account(t testing.TB, store Users, tok string, u db.User) db.User {
	t.Helper()
	u = AddUser(t, store, u)
	r.Caller(tok, auth.Principal{Session: db.Session{ID: "s-" + tok, UserID: u.ID, Stage: db.StageFull}, User: &u, Role: accounts.RoleOf(u.Roles)})
	return u
}

// AddUser stores an account, created and updated now.
func AddUser(t testing.TB, store Users, u db.User) db.User {
	t.Helper()
	now := time.Now().UTC()
	u.CreatedAt, u.UpdatedAt = now, now
	if err := store.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

// Response is an answer with its body read.
type Response struct {
	*http.Response
	Body string
}

// Serve answers req.
func (r *Room) Serve(req *http.Request) *Response {
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return &Response{Response: res, Body: string(b)}
}

// Call sends body as JSON (none when nil, a string as it is) as the
// caller named by tok ("" nobody), from a fixed client address.
func (r *Room) Call(t testing.TB, method, path, tok string, body any) *Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.10:4000"
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return r.Serve(req)
}

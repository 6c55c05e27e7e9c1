package auth

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// SessionRow is one live session as the Sessions screen lists it: no
// token, no token hash.
type SessionRow struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"` // "pin" or "account"
	Name       string    `json:"name"`
	Email      string    `json:"email"`
	IP         string    `json:"ip"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	Current    bool      `json:"current"`
}

// SessionList is GET /api/admin/sessions: one page of the live sessions
// the caller may see (q, page, perPage: web/paging).
type SessionList struct {
	Sessions []SessionRow `json:"sessions"`
	// All is true when the list holds everyone's sessions (sessions.all).
	All bool `json:"all"`
	paging.Info
}

// Current answers the request's session at any stage (the admin app asks
// on load: an account session survives a reload): 204 when the request
// presents none (the gate, and no error in the browser's console), 401
// when the one it presents has ended.
func (a *Service) Current(c echo.Context) error {
	if _, ok := a.credentialOf(c); !ok {
		return c.NoContent(http.StatusNoContent)
	}
	p, err := a.principal(c, true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a.view(p))
}

// Logout ends the presented session, a PIN or an account one, and clears
// the cookie. It needs no live session: ending an unknown or expired one
// is a no-op with the same answer, so it reveals nothing.
//
// The cookie is cleared only for a request that passes the cookie's CSRF
// check or carries a bearer token: a form on another site sends no
// cookie (SameSite=Strict), yet the answer to its top-level navigation
// may set one, and clearing it there would sign the owner out.
func (a *Service) Logout(c echo.Context) error {
	cred, ok := a.credentialOf(c)
	if ok && cred.cookie && crossSite(c.Request()) {
		return httperr.New(http.StatusForbidden, msgCrossSite)
	}
	if ok {
		if _, err := a.store.RevokeSession(c.Request().Context(), hashToken(cred.token)); err != nil {
			return httperr.Unavailable("Could not end the session. Try again.", err)
		}
	}
	if (ok && !cred.cookie) || !crossSite(c.Request()) {
		a.setCookie(c, "", time.Time{})
	}
	return c.NoContent(http.StatusNoContent)
}

// ListSessions answers one page of the live sessions the caller may see,
// newest first: their own, or with sessions.all everyone's. q matches the
// account's name and email and the address the session came from.
func (a *Service) ListSessions(c echo.Context) error {
	p := From(c)
	pg, err := paging.From(c, paging.DefaultPerPage)
	if err != nil {
		return err
	}
	all := p.Can(accounts.SessionsAll)
	q := db.SessionQuery{Page: db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()}}
	switch {
	case all:
	case p.User != nil:
		q.UserID = p.User.ID
	default: // the PIN: its own session only (mine)
		q.ID = p.Session.ID
	}
	list, total, err := a.store.SessionsPage(c.Request().Context(), time.Now().UTC(), q)
	if err != nil {
		return httperr.Unavailable("Could not read the sessions.", err)
	}
	out := SessionList{Sessions: make([]SessionRow, 0, len(list)), All: all, Info: pg.Info(total)}
	for _, se := range list {
		row := SessionRow{ID: se.ID, Kind: "pin", IP: se.IP, CreatedAt: se.CreatedAt, LastSeenAt: se.LastSeenAt, ExpiresAt: se.ExpiresAt, Current: se.ID == p.Session.ID}
		if se.UserID != "" {
			row.Kind, row.Name, row.Email = "account", se.Name, se.Email
		}
		out.Sessions = append(out.Sessions, row)
	}
	return c.JSON(http.StatusOK, out)
}

// mine reports whether se belongs to the caller: the same account, or
// for the PIN the caller's own session only.
func (a *Service) mine(p Principal, se db.Session) bool {
	if p.User != nil {
		return se.UserID == p.User.ID
	}
	return se.ID == p.Session.ID
}

// RevokeSession ends a session by its public id: the caller's own, or
// any with sessions.all. Another's answers 404, as one that ended.
func (a *Service) RevokeSession(c echo.Context) error {
	p := From(c)
	ctx := c.Request().Context()
	id := c.Param("id")
	if !p.Can(accounts.SessionsAll) {
		list, err := a.store.ListSessions(ctx, time.Now().UTC())
		if err != nil {
			return httperr.Unavailable("Could not read the sessions.", err)
		}
		own := false
		for _, se := range list {
			own = own || (se.ID == id && a.mine(p, se))
		}
		if !own {
			return httperr.New(http.StatusNotFound, "That session has already ended.")
		}
	}
	if err := a.store.RevokeSessionByID(ctx, id); errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusNotFound, "That session has already ended.")
	} else if err != nil {
		return httperr.Unavailable("Could not end the session. Try again.", err)
	}
	a.log.Info("admin: session ended", "session", id, "by", c.RealIP())
	return c.NoContent(http.StatusNoContent)
}

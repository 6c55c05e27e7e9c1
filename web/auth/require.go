package auth

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Messages of the session checks. The leads ones are spec 6's.
const (
	msgNoSession      = "Admin session required. Enter your PIN or sign in."
	msgSessionExpired = "Your session has ended. Enter your PIN or sign in again."
	msgFinishSignIn   = "Finish signing in first."
	msgSessionsBusy   = "Could not check the session. Try again in a minute."
	msgCrossSite      = "Cross-site request refused."
	msgRoleCannot     = "Your role cannot do this."
	msgLoginForLeads  = "Please log in to access lead data"
	msgStaffRequired  = "Staff privileges required to view leads"
	titleAuthRequired = "Authentication Required"
	titleAccessDenied = "Access Denied"
	msgAdminOnlyUsers = "Only admins can manage accounts and read the audit log."
	msgToolsNeedPIN   = "Sign in with an admin account, or enter the PIN, to use this tool."
	msgContentAccount = "Sign in with an admin or editor account to edit the site's content."
	msgSettingsAdmin  = "Sign in with an admin account to change these settings."
)

// denial is the answer to a live session that lacks a capability: spec
// 6's titled messages where the spec has them.
func denial(p Principal, c accounts.Capability) *httperr.Error {
	switch c {
	case accounts.LeadsRead, accounts.LeadsStatus, accounts.LeadsFull, accounts.LeadsNote, accounts.LeadsAssign, accounts.LeadsErase, accounts.PushSubscribe, accounts.PushAll:
		if p.IsPIN() {
			return httperr.Titled(http.StatusForbidden, titleAuthRequired, msgLoginForLeads)
		}
		if p.Role == "" {
			return httperr.Titled(http.StatusForbidden, titleAccessDenied, msgStaffRequired)
		}
	case accounts.UsersManage:
		return httperr.Titled(http.StatusForbidden, titleAccessDenied, msgAdminOnlyUsers)
	case accounts.SettingsWrite:
		return httperr.New(http.StatusForbidden, msgSettingsAdmin)
	case accounts.Tools, accounts.SessionsAll:
		return httperr.New(http.StatusForbidden, msgToolsNeedPIN)
	case accounts.ContentEdit:
		return httperr.New(http.StatusForbidden, msgContentAccount)
	}
	return httperr.New(http.StatusForbidden, msgRoleCannot)
}

// Require admits a request with a live, finished session whose role has
// every capability in caps (none: any live session), and leaves its
// Principal for From. It answers 401 without a live session, 403 for a
// role that lacks a capability or a cross-site request on a cookie. Each
// use slides the session's expiry.
func (a *Service) Require(caps ...accounts.Capability) echo.MiddlewareFunc {
	return a.RequireOr(nil, caps...)
}

// RequireAny admits a live, finished session whose role has at least one
// of caps: a screen two roles may open (Location Pages: the PIN's tools,
// an editor's content).
func (a *Service) RequireAny(caps ...accounts.Capability) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p, err := a.principal(c, false)
			if err != nil {
				return err
			}
			for _, cp := range caps {
				if p.Can(cp) {
					c.Set(principalKey, p)
					return next(c)
				}
			}
			return denial(p, caps[0])
		}
	}
}

// RequireOr is Require with the answer for a missing capability chosen
// by the route ('Access Restricted', 'Export Restricted').
func (a *Service) RequireOr(deny *httperr.Error, caps ...accounts.Capability) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p, err := a.principal(c, false)
			if err != nil {
				return err
			}
			for _, cp := range caps {
				if !p.Can(cp) {
					// The route's own answer is for an account whose role
					// is too low; the PIN and a role-less account get
					// spec 6's.
					if deny != nil && !p.IsPIN() && p.Role != "" {
						return deny
					}
					return denial(p, cp)
				}
			}
			c.Set(principalKey, p)
			return next(c)
		}
	}
}

// principal resolves the request's session. anyStage admits a session
// still between password and second factor (the second-factor
// endpoints and GET /session).
func (a *Service) principal(c echo.Context, anyStage bool) (Principal, error) {
	cred, ok := a.credentialOf(c)
	if !ok {
		return Principal{}, httperr.New(http.StatusUnauthorized, msgNoSession)
	}
	if cred.cookie && crossSite(c.Request()) {
		return Principal{}, httperr.New(http.StatusForbidden, msgCrossSite)
	}
	ctx := c.Request().Context()
	se, err := a.store.TouchSession(ctx, hashToken(cred.token), time.Now().UTC(), a.cfg.TokenTTL)
	if errors.Is(err, db.ErrNotFound) {
		if cred.cookie {
			a.setCookie(c, "", time.Time{})
		}
		return Principal{}, httperr.New(http.StatusUnauthorized, msgSessionExpired)
	}
	if err != nil {
		return Principal{}, httperr.Unavailable(msgSessionsBusy, err)
	}
	if se.Stage == "" {
		se.Stage = db.StageFull
	}
	if se.Stage != db.StageFull && !anyStage {
		return Principal{}, httperr.New(http.StatusUnauthorized, msgFinishSignIn)
	}
	if se.UserID == "" {
		return Principal{Session: se, Role: accounts.RolePIN}, nil
	}
	u, err := a.store.UserByID(ctx, se.UserID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && u.DisabledAt != nil) {
		a.store.RevokeSession(ctx, hashToken(cred.token))
		if cred.cookie {
			a.setCookie(c, "", time.Time{})
		}
		return Principal{}, httperr.New(http.StatusUnauthorized, msgSessionExpired)
	}
	if err != nil {
		return Principal{}, httperr.Unavailable(msgSessionsBusy, err)
	}
	return Principal{Session: se, User: &u, Role: accounts.RoleOf(u.Roles)}, nil
}

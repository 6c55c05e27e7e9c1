package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

// Account sign-in and the Users and Audit Log screens (issue 8), as
// docs/leads-api.md specifies. Account tokens are bearer tokens like the
// PIN's, stored hashed in admin_sessions with the user's id; the PIN-gated
// tools refuse them and these endpoints refuse PIN tokens.

// Messages of the accounts API.
const (
	msgAccountsBusy    = "Account data could not be loaded. Try again in a minute."
	msgLastAdmin       = "The last admin cannot be disabled or demoted."
	msgDuplicateEmail  = "An account with this email already exists."
	accountPageMaxSize = 200
)

// audit writes an audit row for the current request. A failure is
// logged, not shown: the action itself has happened.
func (s *Server) audit(c echo.Context, u db.User, action, leadID, detail string) {
	actor := u.Email
	if actor == "" {
		actor = "(unknown)"
	}
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, Action: action, LeadID: leadID, Detail: detail, IP: c.RealIP()}
	if err := s.store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		s.log.Error("audit log not written", "action", action, "err", err)
	}
}

// UserAnswer is the answer to an account change: the account as saved.
type UserAnswer struct {
	User db.User `json:"user"`
}

// userRow is one account on the Users screen, with whether strangers'
// failed sign-ins have locked it for browsers that never signed in to it.
type userRow struct {
	db.User
	SignInLocked bool       `json:"signInLocked"`
	LockedUntil  *time.Time `json:"lockedUntil"`
}

func (s *Server) listUsers(c echo.Context) error {
	ctx := c.Request().Context()
	us, err := s.store.ListUsers(ctx)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	now := time.Now().UTC()
	rows := make([]userRow, 0, len(us))
	for _, u := range us {
		r := userRow{User: u}
		if locked, until := s.auth.AccountLocked(ctx, u, now); locked {
			r.SignInLocked, r.LockedUntil = true, &until
		}
		rows = append(rows, r)
	}
	return c.JSON(http.StatusOK, map[string]any{"users": rows})
}

// hashNewPassword checks a password against the rules and hashes it
// inside the hash gate (argon2id is deliberately expensive).
func (s *Server) hashNewPassword(ctx context.Context, pw, email, name string) (string, error) {
	if err := accounts.CheckPassword(pw, email, name); err != nil {
		return "", &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	var hash string
	var herr error
	if err := s.hashGate.Do(ctx, func() { hash, herr = accounts.HashPassword(pw) }); err != nil {
		return "", &StatusError{Status: http.StatusServiceUnavailable, Message: "The server is busy. Try again in a few seconds.", Err: err}
	}
	return hash, herr
}

func (s *Server) createUser(c echo.Context) error {
	var in struct {
		Email, Name, Password, Role string
	}
	if err := c.Bind(&in); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the account as JSON: email, name, password and role."}
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	in.Name = strings.TrimSpace(in.Name)
	if err := accounts.CheckName(in.Name); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	if err := accounts.CheckRole(in.Role); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	hash, err := s.hashNewPassword(ctx, in.Password, email, in.Name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: email, Name: in.Name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now, Roles: []string{in.Role}}
	if err := s.store.CreateUser(ctx, u); errors.Is(err, db.ErrDuplicate) {
		return &StatusError{Status: http.StatusConflict, Message: msgDuplicateEmail}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The account could not be saved. Try again.", Err: err}
	}
	s.audit(c, auth.From(c).Account(), db.AuditUserCreated, "", fmt.Sprintf("%s (%s)", email, in.Role))
	return c.JSON(http.StatusCreated, UserAnswer{User: u})
}

func (s *Server) updateUser(c echo.Context) error {
	ctx := c.Request().Context()
	var in struct {
		Name     *string `json:"name"`
		Role     *string `json:"role"`
		Disabled *bool   `json:"disabled"`
		Password *string `json:"password"`
		Unlock   bool    `json:"unlock"`
		// ResetTwoFactor removes the account's authenticator (a lost phone).
		ResetTwoFactor bool `json:"resetTwoFactor"`
	}
	if err := c.Bind(&in); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the change as JSON: name, role, disabled, password, unlock or resetTwoFactor."}
	}
	target, err := s.store.UserByID(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	ch := db.UserChange{Disabled: in.Disabled, Unlock: in.Unlock}
	var what []string
	if in.Unlock {
		what = append(what, "sign-in unlocked")
	}
	if in.ResetTwoFactor {
		if err := s.store.ResetTOTP(ctx, target.ID); err != nil {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
		}
		s.audit(c, auth.From(c).Account(), db.AuditTwoFactorReset, "", target.Email)
		what = append(what, "two-factor reset")
		if len(what) == 1 && in.Name == nil && in.Role == nil && in.Disabled == nil && in.Password == nil && !in.Unlock {
			u, err := s.store.UserByID(ctx, target.ID)
			if err != nil {
				return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
			}
			return c.JSON(http.StatusOK, UserAnswer{User: u})
		}
	}
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		if err := accounts.CheckName(n); err != nil {
			return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Name = &n
		what = append(what, "name")
	}
	if in.Role != nil {
		if err := accounts.CheckRole(*in.Role); err != nil {
			return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Role = in.Role
		what = append(what, "role="+*in.Role)
	}
	if in.Disabled != nil {
		what = append(what, "disabled="+strconv.FormatBool(*in.Disabled))
	}
	if in.Password != nil {
		name := target.Name
		if ch.Name != nil {
			name = *ch.Name
		}
		hash, err := s.hashNewPassword(ctx, *in.Password, target.Email, name)
		if err != nil {
			return err
		}
		ch.PasswordHash = &hash
		what = append(what, "password reset")
	}
	if len(what) == 0 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Nothing to change."}
	}
	u, err := s.store.ChangeUser(ctx, target.ID, ch, time.Now().UTC())
	if errors.Is(err, db.ErrLastAdmin) {
		return &StatusError{Status: http.StatusConflict, Message: msgLastAdmin}
	} else if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
	}
	s.audit(c, auth.From(c).Account(), db.AuditUserUpdated, "", target.Email+": "+strings.Join(what, ", "))
	return c.JSON(http.StatusOK, UserAnswer{User: u})
}

// pageParams reads page and per_page (defaults 1 and 50, at most 200).
func pageParams(c echo.Context) (page, per int, err error) {
	page, per = 1, 50
	if v := c.QueryParam("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 || page > 1_000_000 {
			return 0, 0, &StatusError{Status: http.StatusBadRequest, Message: "Page must be a positive number."}
		}
	}
	if v := c.QueryParam("per_page"); v != "" {
		if per, err = strconv.Atoi(v); err != nil || per < 1 {
			return 0, 0, &StatusError{Status: http.StatusBadRequest, Message: "Per page must be a positive number."}
		}
		per = min(per, accountPageMaxSize)
	}
	return page, per, nil
}

func (s *Server) listAudit(c echo.Context) error {
	page, per, err := pageParams(c)
	if err != nil {
		return err
	}
	entries, total, err := s.store.ListAudit(c.Request().Context(), per, (page-1)*per)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The audit log could not be loaded.", Err: err}
	}
	return c.JSON(http.StatusOK, map[string]any{"entries": entries, "total": total, "page": page, "perPage": per})
}

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.
func (s *Server) noteFirstAdmin(ctx context.Context) {
	if s.store == nil {
		return
	}
	if n, err := s.store.CountAdmins(ctx); err == nil && n == 0 {
		s.log.Info("no admin account yet: the Secure Leads Manager needs one. Create it with: site user add --email you@example.com --role admin")
	}
}

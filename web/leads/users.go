package leads

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
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// Messages of the accounts API.
const (
	msgAccountsBusy   = "Account data could not be loaded. Try again in a minute."
	msgLastAdmin      = "The last admin cannot be disabled or demoted."
	msgOwnRole        = ReasonOwnAccount + ": another admin must change its role."
	msgOwnDisable     = ReasonOwnAccount + ": another admin must disable it."
	msgDuplicateEmail = "An account with this email already exists."
)

// UserAnswer is the answer to an account change: the account as saved.
type UserAnswer struct {
	User Account `json:"user"`
}

// Account is an account as the Users screen reads it: never its
// password hash, authenticator secret or sign-in counters.
type Account struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	// CreatedAt and UpdatedAt are when the account was made and last
	// changed; LastLoginAt its last sign-in, DisabledAt when it was
	// disabled and TOTPEnabledAt when its authenticator was set up (null:
	// never, not disabled, none).
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	LastLoginAt   *time.Time `json:"lastLoginAt"`
	DisabledAt    *time.Time `json:"disabledAt"`
	TOTPEnabledAt *time.Time `json:"totpEnabledAt"`
	Roles         []string   `json:"roles"`
}

// AccountOf is the stored account u as the screen reads it.
func AccountOf(u db.User) Account {
	return Account{ID: u.ID, Email: u.Email, Name: u.Name, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, LastLoginAt: u.LastLoginAt,
		DisabledAt: u.DisabledAt, TOTPEnabledAt: u.TOTPEnabledAt, Roles: u.Roles}
}

// UserRow is one account on the Users screen, with whether strangers'
// failed sign-ins have locked it for browsers that never signed in to it,
// and which changes the caller may make to it: the screen offers only
// those, and shows the reason in place of the others. UpdateUser applies
// the same rules (userActions), so the screen never offers what the
// server refuses.
type UserRow struct {
	Account
	SignInLocked bool       `json:"signInLocked"`
	LockedUntil  *time.Time `json:"lockedUntil"`
	// Self: this is the caller's own account.
	Self bool `json:"self"`
	// CanDisable: the caller may disable the account (an account already
	// disabled may always be enabled again).
	CanDisable    bool   `json:"canDisable"`
	DisableReason string `json:"disableReason,omitempty"`
	// CanChangeRole: the caller may give the account another role.
	CanChangeRole bool   `json:"canChangeRole"`
	RoleReason    string `json:"roleReason,omitempty"`
}

// Why an account change is refused, in the owner's words.
const (
	ReasonOwnAccount = "This is your own account"
	ReasonLastAdmin  = "The site needs at least one active admin"
)

// userActions decides whether the caller (callerID; "" for none) may
// disable target or change its role, given how many enabled admins there
// are: never their own account (another admin does that, so nobody locks
// themselves out), and never the last enabled admin. The store checks the
// last-admin rule again inside its serialised write (db.ChangeUser), so
// two admins disabling each other at once still leave one.
func userActions(callerID string, target db.User, activeAdmins int) (disable, role string) {
	if callerID != "" && target.ID == callerID {
		return ReasonOwnAccount, ReasonOwnAccount
	}
	if target.DisabledAt == nil && accounts.RoleOf(target.Roles) == accounts.RoleAdmin && activeAdmins <= 1 {
		return ReasonLastAdmin, ReasonLastAdmin
	}
	return "", ""
}

// Users answers one page of the accounts; q matches the name and the
// email. Whether an account may be disabled or demoted is judged against
// every active admin, not only this page's.
func (h *Handler) Users(c echo.Context) error {
	ctx := c.Request().Context()
	pg, err := paging.Parse(query(c), paging.DefaultPerPage)
	if err != nil {
		return err
	}
	us, total, err := h.Store.UsersPage(ctx, db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()})
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	admins, err := h.Store.ActiveUsersWithRole(ctx, accounts.RoleAdmin)
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	now := time.Now().UTC()
	me := auth.From(c).Account().ID
	rows := make([]UserRow, 0, len(us))
	for _, u := range us {
		r := UserRow{Account: AccountOf(u), Self: me != "" && u.ID == me}
		if locked, until := h.Auth.AccountLocked(ctx, u, now); locked {
			r.SignInLocked, r.LockedUntil = true, &until
		}
		r.DisableReason, r.RoleReason = userActions(me, u, admins)
		r.CanDisable, r.CanChangeRole = r.DisableReason == "", r.RoleReason == ""
		rows = append(rows, r)
	}
	return c.JSON(http.StatusOK, UserList{Users: rows, Info: pg.Info(total)})
}

// hashNewPassword checks a password against the rules and hashes it
// inside the hash gate (argon2id is deliberately expensive).
func (h *Handler) hashNewPassword(ctx context.Context, pw, email, name string) (string, error) {
	if err := accounts.CheckPassword(pw, email, name); err != nil {
		return "", &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	var hash string
	var herr error
	if err := h.Hash.Do(ctx, func() { hash, herr = accounts.HashPassword(pw) }); err != nil {
		return "", &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The server is busy. Try again in a few seconds.", Err: err}
	}
	return hash, herr
}

func (h *Handler) CreateUser(c echo.Context) error {
	var in struct {
		Email, Name, Password, Role string
	}
	if err := c.Bind(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the account as JSON: email, name, password and role."}
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	in.Name = strings.TrimSpace(in.Name)
	if err := accounts.CheckName(in.Name); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	if err := accounts.CheckRole(in.Role); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	hash, err := h.hashNewPassword(ctx, in.Password, email, in.Name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: email, Name: in.Name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now, Roles: []string{in.Role}}
	if err := h.Store.CreateUser(ctx, u); errors.Is(err, db.ErrDuplicate) {
		return &httperr.Error{Status: http.StatusConflict, Message: msgDuplicateEmail}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The account could not be saved. Try again.", Err: err}
	}
	h.audit(c, auth.From(c).Account(), db.AuditUserCreated, "", fmt.Sprintf("%s (%s)", email, in.Role))
	return c.JSON(http.StatusCreated, UserAnswer{User: AccountOf(u)})
}

func (h *Handler) UpdateUser(c echo.Context) error {
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
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the change as JSON: name, role, disabled, password, unlock or resetTwoFactor."}
	}
	target, err := h.Store.UserByID(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	// The rules the Users screen showed (userActions): the caller's own
	// account is refused before anything is changed. The last-admin rule
	// is the store's, checked in the same serialised step as the write.
	if me := auth.From(c).Account().ID; me != "" && target.ID == me {
		if in.Role != nil {
			return &httperr.Error{Status: http.StatusForbidden, Title: "Not Your Own Account", Message: msgOwnRole}
		}
		if in.Disabled != nil && *in.Disabled {
			return &httperr.Error{Status: http.StatusForbidden, Title: "Not Your Own Account", Message: msgOwnDisable}
		}
	}
	ch := db.UserChange{Disabled: in.Disabled, Unlock: in.Unlock}
	var what []string
	if in.Unlock {
		what = append(what, "sign-in unlocked")
	}
	if in.ResetTwoFactor {
		if err := h.Store.ResetTOTP(ctx, target.ID); err != nil {
			return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
		}
		h.audit(c, auth.From(c).Account(), db.AuditTwoFactorReset, "", target.Email)
		what = append(what, "two-factor reset")
		if len(what) == 1 && in.Name == nil && in.Role == nil && in.Disabled == nil && in.Password == nil && !in.Unlock {
			u, err := h.Store.UserByID(ctx, target.ID)
			if err != nil {
				return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
			}
			return c.JSON(http.StatusOK, UserAnswer{User: AccountOf(u)})
		}
	}
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		if err := accounts.CheckName(n); err != nil {
			return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Name = &n
		what = append(what, "name")
	}
	if in.Role != nil {
		if err := accounts.CheckRole(*in.Role); err != nil {
			return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
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
		hash, err := h.hashNewPassword(ctx, *in.Password, target.Email, name)
		if err != nil {
			return err
		}
		ch.PasswordHash = &hash
		what = append(what, "password reset")
	}
	if len(what) == 0 {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Nothing to change."}
	}
	u, err := h.Store.ChangeUser(ctx, target.ID, ch, time.Now().UTC())
	if errors.Is(err, db.ErrLastAdmin) {
		return &httperr.Error{Status: http.StatusConflict, Message: msgLastAdmin}
	} else if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
	}
	h.audit(c, auth.From(c).Account(), db.AuditUserUpdated, "", target.Email+": "+strings.Join(what, ", "))
	return c.JSON(http.StatusOK, UserAnswer{User: AccountOf(u)})
}

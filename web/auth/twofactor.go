package auth

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Messages of the second factor.
const (
	msgBadCode      = "That code is not valid. Try the newest code from your app."
	msgBadRecovery  = "That recovery code is not valid or was already used."
	msgCodeBody     = "Send the code as JSON: {\"code\": \"123456\"} or {\"recoveryCode\": \"...\"}."
	msgNotEnrolling = "Start the set-up again: no authenticator is being added."
	msgNoStage      = "This step is not due for your sign-in."
	msgEnrolledNow  = "An authenticator was added to this account meanwhile. Sign in again."
)

// Enrolment is POST /api/admin/2fa/start's answer: what the
// authenticator app needs, as a QR code drawn by the server and as text.
type Enrolment struct {
	Secret string `json:"secret"`
	URI    string `json:"uri"`
	QRSVG  string `json:"qrSvg"`
}

// codeInput is the second factor's request body.
type codeInput struct {
	Code         string `json:"code"`
	RecoveryCode string `json:"recoveryCode"`
}

func bindCode(c echo.Context) (codeInput, error) {
	var in codeInput
	if err := c.Bind(&in); err != nil || len(in.Code) > 32 || len(in.RecoveryCode) > 64 || (in.Code == "") == (in.RecoveryCode == "") {
		return in, httperr.New(http.StatusBadRequest, msgCodeBody)
	}
	return in, nil
}

// codeKeys are the counters a code guess is checked against: this
// session's and the account's, reserved before the check like every
// secret (guard).
func (a *Service) codeKeys(p Principal) []limitKey {
	return []limitKey{{a.limits.CodeSession, p.Session.ID}, {a.limits.CodeAccount, p.User.ID}}
}

// LoginCode finishes a sign-in at stage "totp" with a code from the
// authenticator (each 30-second code works once) or a recovery code
// (each works once).
func (a *Service) LoginCode(c echo.Context) error {
	p, err := a.principal(c, true)
	if err != nil {
		return err
	}
	if p.User == nil || p.Session.Stage != db.StageTOTP {
		return httperr.New(http.StatusConflict, msgNoStage)
	}
	in, err := bindCode(c)
	if err != nil {
		return err
	}
	u := *p.User
	ok, err := a.useCode(c, p, in)
	if err != nil {
		return err
	}
	if !ok {
		a.audit(c, u, db.AuditTwoFactorFailed, "")
		if in.RecoveryCode != "" {
			return httperr.New(http.StatusUnauthorized, msgBadRecovery)
		}
		return httperr.New(http.StatusUnauthorized, msgBadCode)
	}
	return a.finish(c, p, db.StageTOTP, in.RecoveryCode != "", nil)
}

// finish moves the session from stage to full, once, and answers the
// finished sign-in.
func (a *Service) finish(c echo.Context, p Principal, stage string, recovery bool, codes []string) error {
	ctx := c.Request().Context()
	cred, _ := a.credentialOf(c)
	moved, err := a.store.SetSessionStage(ctx, hashToken(cred.token), stage, db.StageFull)
	if err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	if !moved {
		return httperr.New(http.StatusConflict, msgNoStage)
	}
	u := *p.User
	detail := ""
	if recovery {
		detail = "with a recovery code"
		a.audit(c, u, db.AuditRecoveryCodeUsed, "")
	}
	a.signedIn(c, u, detail)
	p.Session.Stage = db.StageFull
	out := LoginResult{Stage: db.StageFull, Session: a.view(p), RecoveryCodes: codes}
	if n, err := a.store.RecoveryCodesLeft(ctx, u.ID); err == nil && codes == nil {
		out.RecoveryCodesLeft = &n
	}
	return c.JSON(http.StatusOK, out)
}

// StartEnrolment makes a new authenticator secret for the account
// (pending until a code confirms it) and answers the QR code and the
// secret. It is open at stage "enrol" and to a full account session
// (adding a new phone). A first authenticator needs the account's
// password ({"password"}); replacing one needs a current code ({"code"}).
func (a *Service) StartEnrolment(c echo.Context) error {
	p, err := a.principal(c, true)
	if err != nil {
		return err
	}
	if p.User == nil || (p.Session.Stage != db.StageEnrol && p.Session.Stage != db.StageFull) {
		return httperr.New(http.StatusConflict, msgNoStage)
	}
	if err := a.enrolStillDue(c, p); err != nil {
		return err
	}
	var in struct {
		Code     string `json:"code"`
		Password string `json:"password"`
	}
	if c.Request().ContentLength != 0 {
		if err := c.Bind(&in); err != nil || len(in.Code) > 32 || len(in.Password) > accounts.MaxPasswordLength*4 {
			return httperr.New(http.StatusBadRequest, msgEnrolBody)
		}
	}
	if p.User.TOTPSecret != "" {
		// Replacing an authenticator needs a code from the current one: a
		// stolen session alone must not be able to swap in the thief's
		// phone and new recovery codes. (A lost phone is an admin's reset.)
		if err := a.checkCurrentCode(c, p, in.Code, "replacing the authenticator"); err != nil {
			return err
		}
	} else if err := a.checkPassword(c, p, in.Password); err != nil {
		// A first authenticator needs the password again: a session alone
		// (a cookie taken from a staff member's phone) must not be able to
		// enrol the thief's phone and lock the person out (ADR 044).
		return err
	}
	secret, uri, err := accounts.NewTOTP(a.cfg.Issuer, p.User.Email)
	if err != nil {
		return err
	}
	svg, err := accounts.QRCodeSVG(uri)
	if err != nil {
		return err
	}
	if err := a.store.StartTOTP(c.Request().Context(), p.User.ID, secret); err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	return c.JSON(http.StatusOK, Enrolment{Secret: secret, URI: uri, QRSVG: svg})
}

// ConfirmEnrolment checks a first code from the new authenticator,
// enables it, and answers ten recovery codes, shown once and stored
// hashed. At stage "enrol" it also finishes the sign-in.
func (a *Service) ConfirmEnrolment(c echo.Context) error {
	p, err := a.principal(c, true)
	if err != nil {
		return err
	}
	if p.User == nil || (p.Session.Stage != db.StageEnrol && p.Session.Stage != db.StageFull) {
		return httperr.New(http.StatusConflict, msgNoStage)
	}
	in, err := bindCode(c)
	if err != nil || in.Code == "" {
		return httperr.New(http.StatusBadRequest, msgCodeBody)
	}
	if err := a.enrolStillDue(c, p); err != nil {
		return err
	}
	u := *p.User
	if u.TOTPPending == "" {
		return httperr.New(http.StatusConflict, msgNotEnrolling)
	}
	ctx := c.Request().Context()
	now := a.now()
	var step int64
	ok, err := a.checkSecret(ctx, c, "codes", a.codeKeys(p), false, func() bool {
		var match bool
		step, match = accounts.CheckTOTP(u.TOTPPending, in.Code, now)
		return match
	})
	if err != nil {
		return err
	}
	if !ok {
		return httperr.New(http.StatusUnauthorized, msgBadCode)
	}
	codes, hashes, err := accounts.NewRecoveryCodes()
	if err != nil {
		return err
	}
	if err := a.store.ConfirmTOTP(ctx, u.ID, u.TOTPPending, step, hashes, now); errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusConflict, msgNotEnrolling)
	} else if err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	a.audit(c, u, db.AuditTwoFactorEnrolled, "")
	u.TOTPSecret = u.TOTPPending
	p.User = &u
	if p.Session.Stage == db.StageEnrol {
		return a.finish(c, p, db.StageEnrol, false, codes)
	}
	return c.JSON(http.StatusOK, LoginResult{Stage: db.StageFull, Session: a.view(p), RecoveryCodes: codes})
}

// enrolStillDue refuses a session at stage "enrol" once its account has
// an authenticator (added from another sign-in meanwhile): the stage
// was given because there was none, and a session that kept it (stolen,
// or left open in another browser) must not replace the owner's
// authenticator with its own. The session is ended; a new sign-in asks
// for a code. Checked at start and again at confirm, on the account as
// it is now (principal reads it on every request).
func (a *Service) enrolStillDue(c echo.Context, p Principal) error {
	if p.Session.Stage != db.StageEnrol || p.User.TOTPSecret == "" {
		return nil
	}
	ctx := c.Request().Context()
	cred, _ := a.credentialOf(c)
	if _, err := a.store.RevokeSession(ctx, hashToken(cred.token)); err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	if cred.cookie {
		a.setCookie(c, "", time.Time{})
	}
	a.log.Warn("admin: enrolment refused to a stale sign-in; the account already has an authenticator", "user", p.User.ID, "ip", c.RealIP())
	a.audit(c, *p.User, db.AuditTwoFactorFailed, "enrolment refused: an authenticator is enrolled")
	return httperr.New(http.StatusUnauthorized, msgEnrolledNow)
}

// msgCurrentCode asks for a code of the authenticator being replaced.
const msgCurrentCode = "Enter a current code from your authenticator app to replace it. Lost the phone? Ask an admin to reset your two-factor authentication."

// checkCurrentCode checks code against the account's enrolled
// authenticator, as a sign-in does: single use, counted before the check.
// why names the step in the audit log when the code is wrong.
func (a *Service) checkCurrentCode(c echo.Context, p Principal, code, why string) error {
	msg := msgCurrentCode
	if why != "replacing the authenticator" {
		msg = msgRenewCode
	}
	if code == "" || len(code) > 32 {
		return httperr.New(http.StatusUnauthorized, msg)
	}
	u := *p.User
	ok, err := a.useCode(c, p, codeInput{Code: code})
	if err != nil {
		return err
	}
	if !ok {
		a.audit(c, u, db.AuditTwoFactorFailed, why)
		return httperr.New(http.StatusUnauthorized, msg)
	}
	return nil
}

// Messages of the password check before a first authenticator.
const (
	msgEnrolBody        = "Send the set-up as JSON: {\"password\": \"...\"} for a first authenticator, {\"code\": \"123456\"} to replace one."
	msgEnrolPassword    = "Enter your password to set up two-factor authentication."
	msgEnrolBadPassword = "That password is not right. Enter the password you sign in with."
)

// checkPassword checks the account's password before a first
// authenticator is enrolled. A wrong one counts against the same limits
// as a wrong password at sign-in (the client IP's and the account's, ADR
// 026), checked and reserved before the comparison, inside the hash gate.
func (a *Service) checkPassword(c echo.Context, p Principal, password string) error {
	if password == "" {
		return httperr.New(http.StatusUnauthorized, msgEnrolPassword)
	}
	u := *p.User
	ip := c.RealIP()
	keys := []limitKey{{a.limits.LoginIP, guard.ClientKey(ip)}, {a.limits.LoginAccount, AccountKey(u.Email, u, true)}}
	ok, err := a.checkSecret(c.Request().Context(), c, "sign-ins", keys, true, func() bool {
		return accounts.VerifyPassword(u.PasswordHash, password)
	})
	if err != nil {
		return err
	}
	if !ok {
		a.log.Warn("admin: wrong password before a first authenticator", "user", u.ID, "ip", ip)
		a.audit(c, u, db.AuditTwoFactorFailed, "wrong password before setting up an authenticator")
		return httperr.New(http.StatusUnauthorized, msgEnrolBadPassword)
	}
	return nil
}

// Recovery codes: how many are left, and a new set.
const (
	msgRenewCode   = "Enter the current 6-digit code from your authenticator app to make new recovery codes."
	msgNoTwoFactor = "This account has no authenticator, so it has no recovery codes. Set up two-factor authentication first."
	msgAccountOnly = "Recovery codes belong to an account. Sign in with your email and password."
)

// RecoveryCodesInfo is GET /api/admin/2fa/recovery-codes' answer.
type RecoveryCodesInfo struct {
	Left int `json:"left"`
}

// ownAuthenticator is the signed-in account for the recovery-code
// endpoints: a finished account session whose account has an
// authenticator.
func (a *Service) ownAuthenticator(c echo.Context) (Principal, error) {
	p, err := a.principal(c, false)
	if err != nil {
		return p, err
	}
	if p.User == nil {
		return p, httperr.New(http.StatusConflict, msgAccountOnly)
	}
	if p.User.TOTPSecret == "" {
		return p, httperr.New(http.StatusConflict, msgNoTwoFactor)
	}
	return p, nil
}

// RecoveryCodesLeft answers how many unused recovery codes the signed-in
// account has.
func (a *Service) RecoveryCodesLeft(c echo.Context) error {
	p, err := a.ownAuthenticator(c)
	if err != nil {
		return err
	}
	n, err := a.store.RecoveryCodesLeft(c.Request().Context(), p.User.ID)
	if err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	return c.JSON(http.StatusOK, RecoveryCodesInfo{Left: n})
}

// RenewRecoveryCodes makes a new set of ten recovery codes after a current
// code of the account's authenticator (single use, counted like a
// sign-in's): the old set stops working in the same transaction, and the
// new codes are answered once, stored hashed.
func (a *Service) RenewRecoveryCodes(c echo.Context) error {
	p, err := a.ownAuthenticator(c)
	if err != nil {
		return err
	}
	var in struct {
		Code string `json:"code"`
	}
	if err := c.Bind(&in); err != nil || in.Code == "" {
		return httperr.New(http.StatusBadRequest, msgRenewCode)
	}
	if err := a.checkCurrentCode(c, p, cleanDigits(in.Code), "renewing the recovery codes"); err != nil {
		return err
	}
	codes, hashes, err := accounts.NewRecoveryCodes()
	if err != nil {
		return err
	}
	u := *p.User
	if err := a.store.RenewRecoveryCodes(c.Request().Context(), u.ID, hashes); errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusConflict, msgNoTwoFactor)
	} else if err != nil {
		return httperr.Unavailable(msgSignInDown, err)
	}
	a.audit(c, u, db.AuditRecoveryCodesRenewed, "")
	return c.JSON(http.StatusOK, LoginResult{Stage: db.StageFull, Session: a.view(p), RecoveryCodes: codes})
}

// cleanDigits drops the spaces and dashes people type in a code.
func cleanDigits(s string) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(s)
}

// useCode checks a code of the account's authenticator, or a recovery
// code, as every secret is checked (counted per session and per account
// before the check), and spends it: each works once.
func (a *Service) useCode(c echo.Context, p Principal, in codeInput) (bool, error) {
	ctx := c.Request().Context()
	now := a.now()
	u := *p.User
	var storeErr error
	ok, err := a.checkSecret(ctx, c, "codes", a.codeKeys(p), false, func() bool {
		if in.RecoveryCode != "" {
			used, err := a.store.UseRecoveryCode(ctx, u.ID, accounts.HashRecoveryCode(in.RecoveryCode), now)
			storeErr = err
			return used
		}
		step, match := accounts.CheckTOTP(u.TOTPSecret, in.Code, now)
		if !match {
			return false
		}
		fresh, err := a.store.UseTOTPStep(ctx, u.ID, step)
		storeErr = err
		return fresh
	})
	if err != nil {
		return false, err
	}
	if storeErr != nil {
		return false, httperr.Unavailable(msgSignInDown, storeErr)
	}
	return ok, nil
}

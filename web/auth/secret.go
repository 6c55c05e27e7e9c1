package auth

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/httperr"
)

// limitKey names one limit a secret check counts against.
type limitKey struct {
	limiter guard.Attempts
	key     string
}

// checkSecret is the one rule for every PIN, password or code check: an
// attempt is reserved from each limiter before the comparison runs (so a
// parallel burst cannot get more than the limit checked), a slow
// comparison (slow true: bcrypt, argon2id) runs inside the server-wide
// hash gate, and only a success gives its attempts back. It returns a
// 429 when any key is out of attempts, a 503 when the gate is saturated,
// and whether compare matched.
func (a *Service) checkSecret(ctx context.Context, c echo.Context, what string, keys []limitKey, slow bool, compare func() bool) (bool, error) {
	now := time.Now().UTC()
	var held []guard.Canceler
	release := func() {
		for _, r := range held {
			r.Cancel()
		}
	}
	for _, k := range keys {
		r, ok, retry, err := k.limiter.ReserveAttempt(ctx, k.key, now)
		if err != nil {
			// Fail closed: without a count there is no check.
			release()
			return false, httperr.Unavailable("Sign-in is unavailable right now. Try again in a minute.", err)
		}
		if !ok {
			release()
			a.counts.lockouts[secretIndex(what)].Add(1)
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(retry.Seconds())+1))
			return false, httperr.New(http.StatusTooManyRequests, fmt.Sprintf("Too many incorrect %s. Try again in %s.", what, RoundUp(retry)))
		}
		held = append(held, r)
	}
	var match bool
	if !slow {
		match = compare()
	} else if err := a.gate.Do(ctx, func() { match = compare() }); err != nil {
		release() // nothing was checked: the attempt does not count
		c.Response().Header().Set("Retry-After", "5")
		return false, &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The server is busy checking other sign-ins. Try again in a few seconds.", Err: err}
	}
	if !match {
		a.counts.failures[secretIndex(what)].Add(1)
	}
	if match {
		// Only the success's own attempt is given back. The failures stay
		// counted until they age out: resetting them here would let a
		// burst that contains the right secret get more wrong ones checked.
		release()
	}
	return match, nil
}

// RoundUp says a wait the way people read it: "40 seconds", "8 minutes".
func RoundUp(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d seconds", int(d.Seconds())+1)
	}
	return fmt.Sprintf("%d minutes", int(d.Minutes())+1)
}

package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

// Links resolves a homeowner's link (db.Store once the links' store
// lands: LeadLinkByHash; SQLLinks until then).
type Links interface {
	LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error)
}

// tokenLen is a link token's length: 128 random bits in unpadded
// base64url.
const tokenLen = 22

// HashToken is a presented token's stored hash (hex SHA-256), "" for a
// malformed token. It is the links' own rule (portal.Hash), repeated here
// until that package lands; the two must agree.
func HashToken(token string) string {
	if len(token) != tokenLen {
		return ""
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// IssueHomeownerLink stores a new homeowner link for the lead and
// returns its token: what the estimate form's thank-you screen links to
// (server wiring: estimate.Handler.BookingLink). It stands in for the
// links' own issuing (portal.NewToken and its store method) until they
// land; the lead engineer swaps it for theirs.
func IssueHomeownerLink(ctx context.Context, x *sqlx.DB, leadID string, now time.Time) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	id := make([]byte, 12)
	rand.Read(id)
	_, err := x.ExecContext(ctx, x.Rebind(`INSERT INTO lead_links (id, lead_id, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`),
		hex.EncodeToString(id), leadID, db.LinkHomeowner, HashToken(token), now.UTC())
	if err != nil {
		return "", fmt.Errorf("homeowner link of lead %s: %w", leadID, err)
	}
	return token, nil
}

// SQLLinks reads lead_links directly: the live link of a hash
// (db.ErrNotFound when unknown, revoked or expired). It stands in for
// db.Store's LeadLinkByHash until that lands.
type SQLLinks struct{ DB *sqlx.DB }

// LeadLinkByHash finds a live link.
func (l SQLLinks) LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error) {
	var r struct {
		ID        string     `db:"id"`
		LeadID    string     `db:"lead_id"`
		Kind      string     `db:"kind"`
		TokenHash string     `db:"token_hash"`
		CreatedAt time.Time  `db:"created_at"`
		ExpiresAt *time.Time `db:"expires_at"`
		RevokedAt *time.Time `db:"revoked_at"`
		Opens     int        `db:"opens"`
		Last      *time.Time `db:"last_opened_at"`
	}
	err := l.DB.GetContext(ctx, &r, l.DB.Rebind(`SELECT id, lead_id, kind, token_hash, created_at, expires_at, revoked_at, opens, last_opened_at
		FROM lead_links WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`), hash, now.UTC())
	if errors.Is(err, sql.ErrNoRows) {
		return db.LeadLink{}, db.ErrNotFound
	}
	if err != nil {
		return db.LeadLink{}, fmt.Errorf("lead link: %w", err)
	}
	return db.LeadLink{ID: r.ID, LeadID: r.LeadID, Kind: r.Kind, TokenHash: r.TokenHash, CreatedAt: r.CreatedAt,
		ExpiresAt: r.ExpiresAt, RevokedAt: r.RevokedAt, Opens: r.Opens, LastOpenedAt: r.Last}, nil
}

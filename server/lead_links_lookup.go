package server

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// linkLookup resolves the private pages' tokens for web/leadfiles until
// the links' own store and package are merged (db.Store.LeadLinkByHash
// and portal.Hash, ADR 065): at the merge, wire the room with
// Links: svc.Store and Hash: portal.Hash, and delete this file. It reads
// lead_links (migration 108) with the same rule: a live link is known,
// not revoked and not expired at now.
type linkLookup struct{ store *db.Store }

func (l linkLookup) LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error) {
	if hash == "" {
		return db.LeadLink{}, db.ErrNotFound
	}
	var r struct {
		ID        string     `db:"id"`
		LeadID    string     `db:"lead_id"`
		Kind      string     `db:"kind"`
		CreatedAt time.Time  `db:"created_at"`
		ExpiresAt *time.Time `db:"expires_at"`
	}
	x := l.store.DB()
	err := x.GetContext(ctx, &r, x.Rebind(`SELECT id, lead_id, kind, created_at, expires_at FROM lead_links
		WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`), hash, now.UTC())
	if errors.Is(err, sql.ErrNoRows) {
		return db.LeadLink{}, db.ErrNotFound
	}
	if err != nil {
		return db.LeadLink{}, err
	}
	return db.LeadLink{ID: r.ID, LeadID: r.LeadID, Kind: r.Kind, TokenHash: hash, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt}, nil
}

// linkHash is portal.Hash's rule: hex SHA-256 of a 22-character
// base64url token of 16 bytes, "" for anything else.
func linkHash(token string) string {
	if len(token) != 22 {
		return ""
	}
	if b, err := base64.RawURLEncoding.Strict().DecodeString(token); err != nil || len(b) != 16 {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/portal"
)

// Links resolves a homeowner's link (db.Store's LeadLinkByHash, ADR 065).
type Links interface {
	LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error)
}

// HashToken is a presented token's stored hash, "" for a malformed one:
// the links' own rule (portal.Hash).
func HashToken(token string) string { return portal.Hash(token) }

// Issuer stores a homeowner link (db.Store).
type Issuer interface {
	IssueLeadLink(ctx context.Context, leadID, kind, hash string, expires *time.Time, by db.Actor, now time.Time) (db.LeadLink, error)
}

// IssueHomeownerLink stores a new homeowner link for the lead and
// returns its token: what the estimate form's thank-you screen links to
// (server wiring: estimate.Handler.BookingLink). Only the hash is
// stored (ADR 065).
func IssueHomeownerLink(ctx context.Context, s Issuer, leadID string, now time.Time) (string, error) {
	token, hash := portal.NewToken()
	if _, err := s.IssueLeadLink(ctx, leadID, db.LinkHomeowner, hash, nil, db.SystemActor, now.UTC()); err != nil {
		return "", fmt.Errorf("homeowner link of lead %s: %w", leadID, err)
	}
	return token, nil
}

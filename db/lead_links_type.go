package db

import "time"

// Kinds of lead_links (migration 108): the homeowner's own page and an
// insurer's read-only one.
const (
	LinkHomeowner = "homeowner"
	LinkAdjuster  = "adjuster"
)

// LeadLink is one private link to a lead's pages (table lead_links): only
// its token's hash is stored.
type LeadLink struct {
	ID, LeadID, Kind, TokenHash string
	CreatedAt                   time.Time
	ExpiresAt                   *time.Time
	RevokedAt                   *time.Time
	Opens                       int
	LastOpenedAt                *time.Time
}

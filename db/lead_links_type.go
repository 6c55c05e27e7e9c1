package db

import "time"

const (
	LinkHomeowner = "homeowner"
	LinkAdjuster  = "adjuster"
)

type LeadLink struct {
	ID, LeadID, Kind, TokenHash string
	CreatedAt                   time.Time
	ExpiresAt                   *time.Time
	RevokedAt                   *time.Time
	Opens                       int
	LastOpenedAt                *time.Time
}

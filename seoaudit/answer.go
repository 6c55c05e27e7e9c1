package seoaudit

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Run is an audit run as the SEO Audit screen reads it: when, why, over
// which site, and its counts and score.
type Run struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt"`
	TriggeredBy string    `json:"trigger" tstype:"'deploy' | 'content' | 'manual'"`
	BaseURL     string    `json:"baseUrl"`
	Pages       int       `json:"pages"`
	// Errors counts pages that could not be audited (not 200).
	Errors   int `json:"errors"`
	Passed   int `json:"passed"`
	Warnings int `json:"warnings"`
	Failed   int `json:"failed"`
	Score    int `json:"score"`
}

// RunOf is the stored run r as the screen reads it.
func RunOf(r db.SEOAuditRun) Run {
	return Run{ID: r.ID, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, TriggeredBy: r.TriggeredBy, BaseURL: r.BaseURL,
		Pages: r.Pages, Errors: r.Errors, Passed: r.Passed, Warnings: r.Warnings, Failed: r.Failed, Score: r.Score}
}

package schemacheck

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Run is a structured-data check as Schema Management reads it: when,
// why, over which site, and its counts and score.
type Run struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt"`
	TriggeredBy string    `json:"trigger" tstype:"'deploy' | 'content' | 'manual'"`
	BaseURL     string    `json:"baseUrl"`
	Pages       int       `json:"pages"`
	// Covered counts pages carrying readable structured data.
	Covered int `json:"covered"`
	// Unreadable counts pages that could not be checked (not 200).
	Unreadable int `json:"unreadable"`
	Items      int `json:"items"`
	Valid      int `json:"valid"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Score      int `json:"score"`
}

// RunOf is the stored run r as the screen reads it.
func RunOf(r db.SchemaCheckRun) Run {
	return Run{ID: r.ID, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, TriggeredBy: r.TriggeredBy, BaseURL: r.BaseURL, Pages: r.Pages,
		Covered: r.Covered, Unreadable: r.Unreadable, Items: r.Items, Valid: r.Valid, Errors: r.Errors, Warnings: r.Warnings, Score: r.Score}
}

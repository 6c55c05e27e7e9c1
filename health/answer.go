package health

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Run is a health run as the SEO & IndexNow screen reads it.
type Run struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt"`
	TriggeredBy string    `json:"trigger" tstype:"'schedule' | 'manual'"`
	Checked     int       `json:"checked"`
	Issues      int       `json:"issues"`
}

// Result is one address a run checked, as the screen reads it.
type Result struct {
	// URL is the site path checked (/contact, /sitemap.xml).
	URL         string    `json:"url"`
	Status      string    `json:"status" tstype:"'active' | '404' | 'redirect' | 'error'"`
	StatusCode  int       `json:"statusCode"`
	RedirectTo  string    `json:"redirectTo,omitempty"`
	Error       string    `json:"error,omitempty"`
	CanonicalOK bool      `json:"canonicalOk"`
	CheckedAt   time.Time `json:"lastChecked"`
}

// RunOf is the stored run r as the screen reads it.
func RunOf(r db.HealthRun) Run {
	return Run{ID: r.ID, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, TriggeredBy: r.TriggeredBy, Checked: r.Checked, Issues: r.Issues}
}

// ResultsOf is the stored results rs as the screen reads them, in their
// order (never nil).
func ResultsOf(rs []db.HealthResult) []Result {
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i] = Result{URL: r.URL, Status: r.Status, StatusCode: r.StatusCode, RedirectTo: r.RedirectTo, Error: r.Error, CanonicalOK: r.CanonicalOK, CheckedAt: r.CheckedAt}
	}
	return out
}

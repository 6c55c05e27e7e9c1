package securitycheck

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Scan is a security scan as the Security Scanner reads it: when, why,
// and how its checks came out.
type Scan struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt"`
	TriggeredBy string    `json:"trigger" tstype:"'boot' | 'schedule' | 'manual'"`
	Passed      int       `json:"passed"`
	Warnings    int       `json:"warnings"`
	Failed      int       `json:"failed"`
	NotChecked  int       `json:"notChecked"`
}

// CheckResult is one check of a scan as the screen reads it.
type CheckResult struct {
	ID             string    `json:"id"`
	Category       string    `json:"category"`
	Name           string    `json:"name"`
	Severity       string    `json:"severity" tstype:"'critical' | 'high' | 'medium' | 'low'"`
	Status         string    `json:"status" tstype:"'pass' | 'warning' | 'fail' | 'not-checked'"`
	Description    string    `json:"description"`
	Recommendation string    `json:"recommendation,omitempty"`
	CheckedAt      time.Time `json:"lastChecked"`
}

// Vulnerability is a failed check kept until someone acknowledges or
// fixes it, as the screen reads it.
type Vulnerability struct {
	ID              string    `json:"id"`
	Title           string    `json:"title"`
	Severity        string    `json:"severity" tstype:"'critical' | 'high' | 'medium' | 'low'"`
	Description     string    `json:"description"`
	CVE             string    `json:"cve,omitempty"`
	FixedIn         string    `json:"fixedIn,omitempty"`
	Status          string    `json:"status" tstype:"'open' | 'acknowledged' | 'fixed'"`
	FirstSeenAt     time.Time `json:"firstSeenAt"`
	LastSeenAt      time.Time `json:"lastSeenAt"`
	StatusChangedAt time.Time `json:"statusChangedAt"`
}

// ScanOf is the stored scan s as the screen reads it.
func ScanOf(s db.SecurityScan) Scan {
	return Scan{ID: s.ID, StartedAt: s.StartedAt, FinishedAt: s.FinishedAt, TriggeredBy: s.TriggeredBy, Passed: s.Passed, Warnings: s.Warnings, Failed: s.Failed, NotChecked: s.NotChecked}
}

// CheckResultsOf is the stored results rs as the screen reads them, in
// their order (never nil).
func CheckResultsOf(rs []db.SecurityResult) []CheckResult {
	out := make([]CheckResult, len(rs))
	for i, r := range rs {
		out[i] = CheckResult{ID: r.CheckID, Category: r.Category, Name: r.Name, Severity: r.Severity, Status: r.Status, Description: r.Description, Recommendation: r.Recommendation, CheckedAt: r.CheckedAt}
	}
	return out
}

// VulnerabilityOf is the stored vulnerability v as the screen reads it.
func VulnerabilityOf(v db.Vulnerability) Vulnerability {
	return Vulnerability{ID: v.CheckID, Title: v.Title, Severity: v.Severity, Description: v.Description, CVE: v.CVE, FixedIn: v.FixedIn,
		Status: v.Status, FirstSeenAt: v.FirstSeenAt, LastSeenAt: v.LastSeenAt, StatusChangedAt: v.StatusChangedAt}
}

// VulnerabilitiesOf is the stored vulnerabilities vs as the screen reads
// them, in their order (never nil).
func VulnerabilitiesOf(vs []db.Vulnerability) []Vulnerability {
	out := make([]Vulnerability, len(vs))
	for i, v := range vs {
		out[i] = VulnerabilityOf(v)
	}
	return out
}

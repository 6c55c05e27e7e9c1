package backup

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Run is a finished backup run as the Backups screen reads it: when, why,
// how it ended, and where its backup went.
type Run struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt"`
	Outcome     string    `json:"outcome"` // db.OutcomeOK or db.OutcomeFailed
	TriggeredBy string    `json:"triggeredBy"`
	// Name is the backup's folder under Location.
	Name     string `json:"name"`
	Location string `json:"location"`
	Bytes    int64  `json:"bytes"`
	Summary  string `json:"summary"`
	// RequestedBy is the account that pressed 'Back up now' ("" for the
	// schedule and site backup).
	RequestedBy string `json:"requestedBy"`
}

// RunOf is the stored run r as the screen reads it.
func RunOf(r db.BackupRun) Run {
	return Run{ID: r.ID, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, Outcome: r.Outcome, TriggeredBy: r.TriggeredBy,
		Name: r.Name, Location: r.Location, Bytes: r.Bytes, Summary: r.Summary, RequestedBy: r.RequestedBy}
}

// InProgress is the backup running now, as the Backups screen reads it.
type InProgress struct {
	ID          string    `json:"id"`
	StartedAt   time.Time `json:"startedAt"`
	TriggeredBy string    `json:"triggeredBy"`
	RequestedBy string    `json:"requestedBy"`
	// Progress says how far it got, in words; UpdatedAt when it last
	// said so.
	Progress  string    `json:"progress"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// inProgressOf is the stored running backup a as the screen reads it
// (nil for none).
func inProgressOf(a *db.ActiveBackup) *InProgress {
	if a == nil {
		return nil
	}
	return &InProgress{ID: a.ID, StartedAt: a.StartedAt, TriggeredBy: a.TriggeredBy, RequestedBy: a.RequestedBy, Progress: a.Progress, UpdatedAt: a.UpdatedAt}
}

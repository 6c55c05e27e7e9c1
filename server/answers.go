package server

import (
	"github.com/atlanta-restoration/site/db"
)

// The admin API's answers that are not a room's own: every answer is a
// named type (issue 21), so the browser's types can be checked against
// them (TestAdminTypesMatchTheServer).

// Queued answers a Run / Refresh / Validate All press: the run is queued,
// and After is the id of the latest run it will replace (the screen polls
// until a newer one appears).
type Queued struct {
	Queued bool   `json:"queued"`
	After  string `json:"after"`
}

// RoutesInfo is GET /api/admin/routes.
type RoutesInfo struct {
	BaseURL string      `json:"baseUrl"`
	Routes  []RouteInfo `json:"routes"`
}

// IndexNowKey is the IndexNow key in force and where its file is served.
type IndexNowKey struct {
	Key         string `json:"key"`
	KeyLocation string `json:"keyLocation"`
	// Fixed: INDEXNOW_KEY sets it, and the screen cannot replace it.
	Fixed bool `json:"fixed"`
}

// IndexNowSubmitted is a manual submission's answer.
type IndexNowSubmitted struct {
	Submitted int `json:"submitted"`
	Status    int `json:"status"`
}

// SubmissionPage is GET /api/admin/indexnow/submissions.
type SubmissionPage struct {
	Submissions []Submission `json:"submissions"`
	Total       int          `json:"total"`
	Limit       int          `json:"limit"`
	Offset      int          `json:"offset"`
}

// VulnerabilityAnswer is a vulnerability status change's answer.
type VulnerabilityAnswer struct {
	Vulnerability db.Vulnerability `json:"vulnerability"`
}

// Overview is GET /api/admin/overview: the dashboard's tiles.
type Overview struct {
	Tiles []Tile `json:"tiles"`
}

// ActivityList is GET /api/admin/jobs: the dashboard's recent activity.
type ActivityList struct {
	Activity []Activity `json:"activity"`
}

// VitalsReport is GET /api/admin/vitals: the 75th percentile of each Core
// Web Vital site-wide and per page kind, over Days days.
type VitalsReport struct {
	Overall []VitalRow `json:"overall"`
	ByKind  []VitalRow `json:"byKind"`
	Samples int        `json:"samples"`
	Days    int        `json:"days"`
}

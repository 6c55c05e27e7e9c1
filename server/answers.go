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

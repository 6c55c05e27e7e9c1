package leadstream

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Change is a lead change as the stream announces it (the "change"
// event): which lead, what happened and when. The store it came from
// stays on the server.
type Change struct {
	Kind   string    `json:"kind" tstype:"'created' | 'status' | 'note' | 'assigned' | 'escalated' | 'deleted' | 'homeowner' | 'document'"`
	LeadID string    `json:"leadId"`
	At     time.Time `json:"at"`
}

// ChangeOf is the store's change c as the stream announces it.
func ChangeOf(c db.LeadChange) Change { return Change{Kind: c.Kind, LeadID: c.LeadID, At: c.At} }

package leads

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
)

// Notes and assignment, hostile: empty, too long, NUL, unknown lead,
// bad JSON; 20 notes at once all land and end the first response time
// once; an account that cannot take leads is refused.
func TestLeadWorkHostile(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		seedLeads(t, store, 3)
		ctx := context.Background()
		note := func(tok, lead string, body any) *response {
			return lm.call(t, "POST", "/api/admin/leads/"+lead+"/notes", tok, body)
		}
		for _, c := range []struct {
			name string
			body any
			want int
		}{
			{"empty", map[string]string{"body": "   \n "}, 400},
			{"too long", map[string]string{"body": strings.Repeat("é", leads.MaxNoteLen+1)}, 400},
			{"NUL", map[string]string{"body": "call\x00back"}, 400},
			{"no body field", map[string]int{"x": 1}, 400},
			{"number", map[string]int{"body": 5}, 400},
			{"not JSON", "text", 400},
		} {
			if r := note(asStaff, "lead-002", c.body); r.StatusCode != c.want {
				t.Errorf("note %s: %d %s", c.name, r.StatusCode, r.Body)
			}
		}
		if r := note(asStaff, "no-such-lead", map[string]string{"body": "hello"}); r.StatusCode != 404 {
			t.Errorf("note on an unknown lead: %d", r.StatusCode)
		}
		if r := note(asStaff, strings.Repeat("a", 3000), map[string]string{"body": "hello"}); r.StatusCode != 404 {
			t.Errorf("note on a 3000-character id: %d", r.StatusCode)
		}
		// Markup is stored as text, exactly.
		if r := note(asStaff, "lead-002", map[string]string{"body": "<script>alert(1)</script>\r\nline two"}); r.StatusCode != 201 {
			t.Fatalf("note with markup: %d %s", r.StatusCode, r.Body)
		}
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				tok := asStaff
				if i%2 == 1 {
					tok = asAdmin
				}
				if r := note(tok, "lead-001", map[string]string{"body": fmt.Sprintf("note %d", i)}); r.StatusCode != 201 {
					t.Errorf("parallel note %d: %d %s", i, r.StatusCode, r.Body)
				}
			}(i)
		}
		wg.Wait()
		tl, err := store.LeadTimeline(ctx, "lead-001")
		if err != nil {
			t.Fatal(err)
		}
		notes := 0
		for _, e := range tl {
			if e.Kind == db.EventNote {
				notes++
				if e.UserID == "" || (e.Actor != "Crew Lead" && e.Actor != "The Owner") {
					t.Errorf("note without its author: %+v", e)
				}
			}
		}
		l, _ := store.GetLead(ctx, "lead-001")
		if notes != 20 || l.FirstResponseAt == nil {
			t.Errorf("20 parallel notes: %d on the timeline, first response %v", notes, l.FirstResponseAt)
		}
		var work LeadWork
		r := lm.call(t, "GET", "/api/admin/leads/lead-002/work", asStaff, nil)
		if json.Unmarshal([]byte(r.Body), &work) != nil || len(work.Timeline) < 2 || work.Timeline[0].Kind != db.EventCreated || work.Assignees != nil {
			t.Fatalf("staff's work view: %s", r.Body)
		}
		if last := work.Timeline[len(work.Timeline)-1]; last.Body != "<script>alert(1)</script>\nline two" {
			t.Errorf("note stored as %q", last.Body)
		}

		// Assignment.
		addUser(t, store, db.User{ID: "u-gone", Email: "gone@example.com", Name: "Gone Person", Roles: []string{"staff"}})
		off := true
		if _, err := store.ChangeUser(ctx, "u-gone", db.UserChange{Disabled: &off}, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		addUser(t, store, db.User{ID: "u-nobody", Email: "nobody@example.com", Name: "No Role"})
		for _, c := range []struct {
			name string
			body any
			want int
		}{
			{"disabled account", map[string]string{"userId": "u-gone"}, 400},
			{"role-less account", map[string]string{"userId": "u-nobody"}, 400},
			{"unknown account", map[string]string{"userId": "u-nope"}, 400},
			{"oversized id", map[string]string{"userId": strings.Repeat("u", 500)}, 400},
			{"SQL", map[string]string{"userId": "' OR 1=1 --"}, 400},
			{"missing", map[string]string{}, 400},
			{"not JSON", "u-crew", 400},
		} {
			if r := lm.call(t, "PUT", "/api/admin/leads/lead-002/assignee", asAdmin, c.body); r.StatusCode != c.want {
				t.Errorf("assign %s: %d %s", c.name, r.StatusCode, r.Body)
			}
		}
		if r := lm.call(t, "PUT", "/api/admin/leads/lead-002/assignee", asAdmin, map[string]string{"userId": "u-crew"}); r.StatusCode != 200 {
			t.Fatalf("assign to staff: %d %s", r.StatusCode, r.Body)
		}
		r = lm.call(t, "GET", "/api/admin/leads/lead-002/work", asAdmin, nil)
		if json.Unmarshal([]byte(r.Body), &work) != nil || work.AssignedTo == nil || *work.AssignedTo != "u-crew" || work.AssignedName != "Crew Lead" || len(work.Assignees) != 2 {
			t.Errorf("admin's work view after assigning: %s", r.Body)
		}
		// Unassigning, then nothing to change.
		if r := lm.call(t, "PUT", "/api/admin/leads/lead-002/assignee", asAdmin, map[string]string{"userId": ""}); r.StatusCode != 200 || strings.Contains(r.Body, "assignedTo") {
			t.Errorf("unassign: %d %s", r.StatusCode, r.Body)
		}
		if r := lm.call(t, "PUT", "/api/admin/leads/lead-002/assignee", asAdmin, map[string]string{"userId": ""}); r.StatusCode != 200 || strings.Contains(r.Body, "event") {
			t.Errorf("unassign again: %d %s", r.StatusCode, r.Body)
		}
		// A status change by a person is on the timeline with who.
		r = lm.call(t, "PATCH", "/api/admin/leads/lead-000", asStaff, map[string]string{"status": "scheduled"})
		var st LeadAnswer
		if json.Unmarshal([]byte(r.Body), &st); r.StatusCode != 200 || st.Event == nil || st.Event.Actor != "Crew Lead" || st.Event.From != "new" || st.Event.To != "scheduled" {
			t.Errorf("status change: %d %s", r.StatusCode, r.Body)
		}
		if l, _ := store.GetLead(ctx, "lead-000"); l.FirstResponseAt == nil {
			t.Error("a person's status change did not end the first response time")
		}
		// The dashboard's figures count them.
		var figures ResponseFigures
		r = lm.call(t, "GET", "/api/admin/leads/response-times", asStaff, nil)
		if json.Unmarshal([]byte(r.Body), &figures) != nil || len(figures.Windows) != 2 || figures.Windows[0].Days != 7 || figures.Windows[1].Days != 30 {
			t.Errorf("response times: %s", r.Body)
		}
	})
}

package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net/mail"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

// An emergency still new after LEAD_ESCALATE_AFTER notifies every admin
// again, by push to each admin's devices and by email to each enabled
// admin, once, even with two instances escalating at the same moment.
// Staff, disabled admins, calm leads, answered leads and recent leads
// are left alone.
func TestEscalationOnceAcrossInstances(t *testing.T) {
	db.ForEachDBPair(t, func(t *testing.T, a, b *db.Store) {
		ctx := context.Background()
		k := newPushKit(t, a, nil) // admin "adm" and staff "crew", a phone each
		smtp := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
		now := k.clk.now()
		off := true
		if err := a.CreateUser(ctx, db.User{ID: "old", Email: "former@example-restoration.test", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ChangeUser(ctx, "old", db.UserChange{Disabled: &off}, now); err != nil {
			t.Fatal(err)
		}
		lead := func(id string, age time.Duration, emergency bool, status string) {
			l := testLead(id)
			l.CreatedAt, l.UpdatedAt, l.IsEmergency, l.Status = now.Add(-age), now.Add(-age), emergency, status
			if err := a.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		lead("e-due", 11*time.Minute, true, "new")
		lead("e-recent", 9*time.Minute, true, "new")
		lead("e-answered", time.Hour, true, "contacted")
		lead("calm", time.Hour, false, "new")
		cfg := Config{Push: k.push, SMTP: smtpTo(smtp), From: &mail.Address{Address: testUser}, To: []string{testOwner}, EscalateAfter: 10 * time.Minute}
		na, _ := newNotifier(t, a, cfg, nil)
		nb, _ := newNotifier(t, b, cfg, nil)
		na.now, nb.now = k.clk.now, k.clk.now
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			total int
		)
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := []*Notifier{na, nb}[i%2].Escalate(ctx)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += got
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 1 {
			t.Fatalf("%d escalations, want 1", total)
		}
		var kinds []string
		for _, r := range outbox(t, a) {
			if r.Event == db.OutboxEscalated {
				kinds = append(kinds, r.Kind+" "+r.Target)
				if r.LeadID != "e-due" {
					t.Errorf("escalated %s", r.LeadID)
				}
			}
		}
		sort.Strings(kinds)
		devices, _ := a.PushSubscriptionsFor(ctx, "adm")
		want := []string{"email owner@example-restoration.test", "push " + devices[0].ID}
		if strings.Join(kinds, "|") != strings.Join(want, "|") {
			t.Errorf("escalation rows %q, want %q", kinds, want)
		}
		if got, err := nb.DeliverDue(ctx); err != nil || got != 2 {
			t.Fatalf("delivered %d, %v", got, err)
		}
		ds := k.svc.Deliveries()
		if len(ds) != 1 || ds[0].Device != k.admin.ID || ds[0].Urgency != "high" {
			t.Fatalf("pushes %+v", ds)
		}
		var m PushMessage
		json.Unmarshal(ds[0].Payload, &m)
		if m.Title != "EMERGENCY still new after 10 min: Water Damage in Marietta" || !m.Escalated || m.URL != "/admin/leads?lead=e-due" {
			t.Errorf("push %+v", m)
		}
		msgs := smtp.Messages()
		if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "owner@example-restoration.test" {
			t.Fatalf("emails %+v", msgs)
		}
		msg, _ := mail.ReadMessage(bytes.NewReader(msgs[0].Data))
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		if !strings.HasPrefix(subject, "EMERGENCY still new after 10 min: new lead from Maria Gonzalez") {
			t.Errorf("subject %q", subject)
		}
		// Later runs: the recent one comes due once, the escalated one
		// never again.
		k.clk.add(2 * time.Minute)
		if got, _ := na.Escalate(ctx); got != 1 {
			t.Errorf("second run escalated %d, want the recent one", got)
		}
		if got, _ := nb.Escalate(ctx); got != 0 {
			t.Errorf("third run escalated %d", got)
		}
	})
}

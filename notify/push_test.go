package notify

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

const testSubject = "mailto:oncall@example-restoration.test"

// pushKit is a store with an admin and a staff member, each with a phone
// subscribed at a fake push service, and a notifier pushing to it.
type pushKit struct {
	store        *db.Store
	svc          *notifytest.PushService
	push         *Push
	n            *Notifier
	clk          *clock
	admin, staff notifytest.PushDevice
}

func newPushKit(t *testing.T, store *db.Store, log *slog.Logger) pushKit {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	p, err := LoadPush(ctx, store, testSubject)
	if err != nil {
		t.Fatal(err)
	}
	svc := notifytest.NewPushService(t, notifytest.PushOptions{VAPIDPublicKey: p.PublicKey(), Subject: testSubject})
	p.Client = svc.Client()
	p.AllowHost = func(h string) bool { return h == "127.0.0.1" }
	k := pushKit{store: store, svc: svc, push: p}
	for _, u := range []db.User{
		{ID: "adm", Email: "owner@example-restoration.test", Name: "The Owner", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}},
		{ID: "crew", Email: "crew@example-restoration.test", Name: "Crew", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"staff"}},
	} {
		if err := store.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	k.admin, k.staff = k.subscribe(t, "adm"), k.subscribe(t, "crew")
	k.n, k.clk = newNotifier(t, store, Config{Push: p}, log)
	return k
}

// subscribe adds a new browser of the account, as the subscribe handler
// will: checked, then stored.
func (k pushKit) subscribe(t *testing.T, user string) notifytest.PushDevice {
	t.Helper()
	d := k.svc.NewDevice(t)
	sub, err := k.push.CheckSubscription(db.PushSubscription{UserID: user, Endpoint: d.Endpoint, P256dh: d.P256dh, Auth: d.Auth,
		Label: "Phone\r\nof " + user, CreatedAt: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.store.AddPushSubscription(context.Background(), sub); err != nil {
		t.Fatal(err)
	}
	return d
}

func pushMessages(t *testing.T, ds []notifytest.PushDelivery) map[string]PushMessage {
	t.Helper()
	out := map[string]PushMessage{}
	for _, d := range ds {
		var m PushMessage
		if err := json.Unmarshal(d.Payload, &m); err != nil {
			t.Fatalf("payload %q: %v", d.Payload, err)
		}
		out[d.Device] = m
	}
	return out
}

// Every subscribed device gets the lead, encrypted for it and signed with
// the site's VAPID key: an emergency as urgent, with a title starting
// EMERGENCY; the admin's with the phone, the staff member's masked; each
// with the lead's address in the leads manager.
func TestPushToEveryDevice(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	ctx := context.Background()
	if err := k.n.SaveLead(ctx, testLead("lead-p1")); err != nil {
		t.Fatal(err)
	}
	if got, err := k.n.DeliverDue(ctx); err != nil || got != 2 {
		t.Fatalf("delivered %d, %v", got, err)
	}
	if r := k.svc.Rejections(); len(r) != 0 {
		t.Fatalf("the push service refused: %v", r)
	}
	ds := k.svc.Deliveries()
	for _, d := range ds {
		if d.Urgency != "high" || d.TTL != int(PushTTL/time.Second) || d.Subject != testSubject || d.Audience != k.svc.URL ||
			!d.Expires.After(time.Now()) || d.BodyLen > 4096 {
			t.Errorf("delivery %+v", d)
		}
	}
	got := pushMessages(t, ds)
	want := map[string]PushMessage{
		k.admin.ID: {Title: "EMERGENCY: new lead, Water Damage in Marietta", Body: "Maria Gonzalez · (770) 555-0199",
			URL: "/admin/leads?lead=lead-p1", LeadID: "lead-p1", Tag: "lead-lead-p1", Emergency: true},
		k.staff.ID: {Title: "EMERGENCY: new lead, Water Damage in Marietta", Body: "Maria Gonzalez · (770) ***-**99",
			URL: "/admin/leads?lead=lead-p1", LeadID: "lead-p1", Tag: "lead-lead-p1", Emergency: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("payloads (-want, +got):\n%s", diff)
	}
	for _, d := range ds {
		if d.Device != k.staff.ID {
			continue
		}
		for _, private := range []string{"555-0199", "7705550199", "maria@", "Roswell", "30060", "State Farm", "Water heater"} {
			if strings.Contains(string(d.Payload), private) {
				t.Errorf("the staff member's push carries %q: %s", private, d.Payload)
			}
		}
	}
	// The devices' last push is recorded; the timeline has both.
	subs, _ := k.store.ListPushSubscriptions(ctx)
	for _, s := range subs {
		if s.LastSentAt == nil || strings.ContainsAny(s.Label, "\r\n") {
			t.Errorf("device %+v", s)
		}
	}
	tl, _ := k.store.LeadTimeline(ctx, "lead-p1")
	pushes := 0
	for _, e := range tl {
		if e.Kind == db.EventNotified && e.Channel == db.OutboxPush {
			pushes++
		}
	}
	if pushes != 2 {
		t.Errorf("timeline %+v", tl)
	}
	// Not an emergency: normal urgency, a plain title.
	calm := testLead("lead-p2")
	calm.IsEmergency = false
	k.n.SaveLead(ctx, calm)
	k.n.DeliverDue(ctx)
	for _, d := range k.svc.Deliveries()[2:] {
		var m PushMessage
		json.Unmarshal(d.Payload, &m)
		if d.Urgency != "normal" || m.Title != "New lead: Water Damage in Marietta" || m.Emergency {
			t.Errorf("calm lead: urgency %q, %+v", d.Urgency, m)
		}
	}
}

// The sender pushes as soon as a lead is saved: within 5 s (the issue's
// bound), without waiting for its poll.
func TestRunPushesWithinSeconds(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	k.n.now = func() time.Time { return time.Now().UTC() }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { k.n.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	time.Sleep(50 * time.Millisecond) // the sender is asleep
	start := time.Now()
	if err := k.n.SaveLead(context.Background(), testLead("lead-fast")); err != nil {
		t.Fatal(err)
	}
	if ds := k.svc.WaitDeliveries(2, 5*time.Second); len(ds) != 2 {
		t.Fatalf("%d pushes within 5 s", len(ds))
	}
	t.Logf("save to both pushes: %v", time.Since(start))
}

// The push service down (connections dropped), then answering 503, then
// back: the rows are retried with growing waits and each device gets the
// lead once. The dashboard shows the kind of failure, never the address.
func TestPushServiceDownThenBack(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	ctx := context.Background()
	k.svc.SetDown(true)
	if err := k.n.SaveLead(ctx, testLead("lead-p3")); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	for attempt := 1; ; attempt++ {
		if attempt == 2 {
			k.svc.SetDown(false)
			k.svc.AnswerNext(503, 503)
		}
		got, err := k.n.DeliverDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rows := outbox(t, k.store)
		if attempt == 3 {
			if got != 2 {
				t.Fatalf("attempt 3 delivered %d", got)
			}
			for _, r := range rows {
				if r.DeliveredAt == nil || r.Attempts != 3 {
					t.Errorf("row %+v", r)
				}
			}
			break
		}
		if got != 0 {
			t.Fatalf("attempt %d delivered %d", attempt, got)
		}
		for _, r := range rows {
			want := "push: connection closed early"
			if attempt == 2 {
				want = "push: HTTP 503 from the push service"
			}
			if r.LastError != want || r.FailedAt != nil {
				t.Errorf("attempt %d: row error %q, want %q", attempt, r.LastError, want)
			}
		}
		wait := rows[0].NextAttemptAt.Sub(k.clk.now())
		waits = append(waits, wait)
		k.clk.add(max(wait, rows[1].NextAttemptAt.Sub(k.clk.now())))
	}
	if waits[0] <= 0 || waits[1] < waits[0]/2 {
		t.Errorf("waits %v", waits)
	}
	if ds := k.svc.Deliveries(); len(ds) != 2 || ds[0].Device == ds[1].Device {
		t.Errorf("deliveries %+v", ds)
	}
	if r := k.svc.Rejections(); len(r) != 0 {
		t.Errorf("rejections %v", r)
	}
}

// A 429 with Retry-After waits as long as the service asked.
func TestPushRetryAfter(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	ctx := context.Background()
	k.svc.AnswerNext(429, 429)
	k.n.SaveLead(ctx, testLead("lead-p4"))
	k.n.DeliverDue(ctx)
	for _, r := range outbox(t, k.store) {
		if wait := r.NextAttemptAt.Sub(k.clk.now()); wait < 120*time.Second || r.LastError != "push: HTTP 429 from the push service" {
			t.Errorf("row %q retried in %v, want at least the 120 s asked", r.LastError, wait)
		}
	}
}

// A 410 from the push service removes that device at once and gives its
// row up; the other device gets the lead, and the next lead no longer
// goes to the removed one.
func TestPushGoneRemovesDevice(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	ctx := context.Background()
	k.svc.Expire(k.staff.ID)
	k.n.SaveLead(ctx, testLead("lead-p5"))
	if got, _ := k.n.DeliverDue(ctx); got != 1 {
		t.Fatalf("delivered %d", got)
	}
	if subs, _ := k.store.PushSubscriptionsFor(ctx, "crew"); len(subs) != 0 {
		t.Errorf("the expired device is still subscribed: %+v", subs)
	}
	if subs, _ := k.store.PushSubscriptionsFor(ctx, "adm"); len(subs) != 1 {
		t.Errorf("the admin's device went too: %+v", subs)
	}
	st, _ := k.n.Status(ctx, 10)
	if st.Failed != 1 || st.Pending != 0 || st.LastError != "push: HTTP 410 from the push service (subscription expired, device removed)" {
		t.Errorf("status %+v", st.OutboxStats)
	}
	k.clk.add(3 * time.Hour)
	if got, _ := k.n.DeliverDue(ctx); got != 0 {
		t.Error("the gone device's row was tried again")
	}
	k.n.SaveLead(ctx, testLead("lead-p6"))
	k.n.DeliverDue(ctx)
	for _, d := range k.svc.Deliveries() {
		if d.Device == k.staff.ID {
			t.Error("a push reached the expired device")
		}
	}
	if ds := k.svc.Deliveries(); len(ds) != 2 {
		t.Errorf("%d deliveries, want the admin's two", len(ds))
	}
}

// The role is read when the push is sent: an admin demoted between the
// lead and the send gets the masked push; a disabled account's device
// gets none.
func TestPushRoleReadAtSend(t *testing.T) {
	k := newPushKit(t, db.NewTestSQLite(t), nil)
	ctx := context.Background()
	now := time.Now().UTC()
	if err := k.store.CreateUser(ctx, db.User{ID: "adm2", Email: "second@example-restoration.test", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}}); err != nil {
		t.Fatal(err)
	}
	k.n.SaveLead(ctx, testLead("lead-p7"))
	staff, off := "staff", true
	if _, err := k.store.ChangeUser(ctx, "adm", db.UserChange{Role: &staff}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := k.store.ChangeUser(ctx, "crew", db.UserChange{Disabled: &off}, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.n.DeliverDue(ctx); got != 1 {
		t.Fatalf("delivered %d", got)
	}
	got := pushMessages(t, k.svc.Deliveries())
	if m, ok := got[k.admin.ID]; !ok || m.Body != "Maria Gonzalez · (770) ***-**99" {
		t.Errorf("demoted admin's push %+v", got)
	}
	if _, ok := got[k.staff.ID]; ok {
		t.Error("a disabled account's device got the lead")
	}
}

// A push signed with another key, or naming another contact, is refused
// by the service (as FCM refuses it): the fake checks for real, and the
// row is given up after PermanentAttempts.
func TestPushServiceChecksVAPID(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(p *Push)
	}{
		{"another key", func(p *Push) { p.Keys, _ = GenerateVAPIDKeys() }},
		{"another contact", func(p *Push) { p.Subject = "mailto:someone-else@example.test" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newPushKit(t, db.NewTestSQLite(t), nil)
			ctx := context.Background()
			tc.change(k.push)
			k.n.SaveLead(ctx, testLead("lead-p8"))
			for range PermanentAttempts {
				k.n.DeliverDue(ctx)
				k.clk.add(2 * time.Hour)
			}
			if ds := k.svc.Deliveries(); len(ds) != 0 {
				t.Fatalf("%d accepted", len(ds))
			}
			if r := k.svc.Rejections(); len(r) != 2*PermanentAttempts || !strings.Contains(r[0], "VAPID") {
				t.Errorf("rejections %v", r)
			}
			st, _ := k.n.Status(ctx, 10)
			if st.Failed != 2 || st.LastError != "push: HTTP 403 from the push service" {
				t.Errorf("status %+v", st.OutboxStats)
			}
		})
	}
}

// The keys are made once and shared: instances booting together on one
// database all read the same pair.
func TestVAPIDKeysMadeOnce(t *testing.T) {
	db.ForEachDBPair(t, func(t *testing.T, a, b *db.Store) {
		ctx := context.Background()
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			keys = map[VAPIDKeys]int{}
		)
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k, err := LoadVAPIDKeys(ctx, []*db.Store{a, b}[i%2], time.Now().UTC())
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				keys[k]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if len(keys) != 1 {
			t.Fatalf("%d different key pairs", len(keys))
		}
		for k := range keys {
			if err := k.Check(); err != nil || len(k.Public) != 87 || len(k.Private) != 43 {
				t.Errorf("keys %+v: %v", k, err)
			}
		}
		// A damaged pair is an error, not silently replaced.
		if err := a.SetSettings(ctx, map[string]string{VAPIDSetting: `{"public":"AAAA","private":"BBBB"}`}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadVAPIDKeys(ctx, b, time.Now()); err == nil {
			t.Error("a damaged key pair was accepted")
		}
	})
}

func TestCheckSubscription(t *testing.T) {
	keys, _ := GenerateVAPIDKeys()
	p := NewPush(keys, testSubject)
	svc := notifytest.NewPushService(t, notifytest.PushOptions{VAPIDPublicKey: keys.Public, Subject: testSubject})
	d := svc.NewDevice(t)
	good := db.PushSubscription{Endpoint: "https://fcm.googleapis.com/fcm/send/abc:def", P256dh: d.P256dh, Auth: d.Auth, Label: "Pixel"}
	if _, err := p.CheckSubscription(good); err != nil {
		t.Fatalf("FCM subscription: %v", err)
	}
	for _, ep := range []string{"https://updates.push.services.mozilla.com/wpush/v2/x", "https://web.push.apple.com/QO", "https://wns2-bl2p.notify.windows.com/w/?token=x"} {
		s := good
		s.Endpoint = ep
		if _, err := p.CheckSubscription(s); err != nil {
			t.Errorf("%s: %v", ep, err)
		}
	}
	for name, s := range map[string]db.PushSubscription{
		"plain http":       {Endpoint: "http://fcm.googleapis.com/fcm/send/x", P256dh: d.P256dh, Auth: d.Auth},
		"unknown host":     {Endpoint: "https://evil.test/push", P256dh: d.P256dh, Auth: d.Auth},
		"internal address": {Endpoint: "https://169.254.169.254/latest/meta-data", P256dh: d.P256dh, Auth: d.Auth},
		"look-alike host":  {Endpoint: "https://fcm.googleapis.com.evil.test/x", P256dh: d.P256dh, Auth: d.Auth},
		"credentials":      {Endpoint: "https://u:p@fcm.googleapis.com/x", P256dh: d.P256dh, Auth: d.Auth},
		"too long":         {Endpoint: "https://fcm.googleapis.com/" + strings.Repeat("x", 2048), P256dh: d.P256dh, Auth: d.Auth},
	} {
		if _, err := p.CheckSubscription(s); !errors.Is(err, ErrBadEndpoint) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, s := range map[string]db.PushSubscription{
		"no key":         {Endpoint: good.Endpoint, Auth: d.Auth},
		"short key":      {Endpoint: good.Endpoint, P256dh: "BAAA", Auth: d.Auth},
		"key off curve":  {Endpoint: good.Endpoint, P256dh: "BA" + strings.Repeat("A", 85), Auth: d.Auth},
		"short auth":     {Endpoint: good.Endpoint, P256dh: d.P256dh, Auth: "AAAA"},
		"not base64 key": {Endpoint: good.Endpoint, P256dh: "!!!", Auth: d.Auth},
	} {
		if _, err := p.CheckSubscription(s); !errors.Is(err, ErrBadPushKeys) {
			t.Errorf("%s: %v", name, err)
		}
	}
	s := good
	s.Label = strings.Repeat("é", 200) + "\x00"
	if got, _ := p.CheckSubscription(s); len([]rune(got.Label)) != maxLabelLen {
		t.Errorf("label %q", got.Label)
	}
}

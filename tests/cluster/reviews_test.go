package cluster_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/tests/sitetest"
)

// A completed lead gets one review request with two instances on one
// PostgreSQL database (ADR 063), though both instances mark it completed
// at once, twice, and both senders look for due requests.
func TestReviewRequestOnceOnTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	dsn := db.NewTestPostgresDatabase(t, "reviews")
	smtp := notifytest.NewServer(t, notifytest.Options{})
	bin := sitetest.Build(t)
	env := []string{"DATABASE_URL=" + dsn, "ADMIN_PIN=" + pin, "SOURCE_DIR=" + root, "BASE_URL=https://www.cluster-test.example",
		"SSR_POOL_SIZE=1", "MAX_CONNS_PER_IP=0", "SHUTDOWN_DRAIN=1s", "SMTP_URL=smtp://" + smtp.Addr, "LEAD_NOTIFY_TO=office@example.com"}
	a := sitetest.Start(t, bin, "A", append(env, "DATA_DIR="+t.TempDir()))
	b := sitetest.Start(t, bin, "B", append(env, "DATA_DIR="+t.TempDir()))
	a.WaitReady(t, ceiling)
	b.WaitReady(t, ceiling)
	token := sitetest.AdminToken(t, bin, env, a.Base, "owner@cluster-test.example", "Review-requests-4-every-job")

	if code, body := do(t, "PUT", b.Base+"/api/admin/review-requests", token, "application/json", strings.NewReader(`{"delayMinutes":0,"reviewLink":""}`)); code != http.StatusOK {
		t.Fatalf("delay: %d %s", code, body)
	}
	form := url.Values{"name": {"Maria Gonzalez"}, "phone": {"(770) 555-0199"}, "email": {"maria@example.com"}, "city": {"Smyrna"},
		"damageType": {"Water Damage"}, "emergency": {"no"}, "website": {""}}
	if code, body := do(t, "POST", a.Base+"/api/estimate", "", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), "Accept", "application/json"); code != http.StatusCreated {
		t.Fatalf("estimate: %d %s", code, body)
	}
	x, err := sqlx.Connect("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var lead string
	if err := x.Get(&lead, `SELECT id FROM avatar_leads WHERE email = 'maria@example.com'`); err != nil {
		t.Fatal(err)
	}

	// Both instances complete it at once, then again after a step back.
	for _, status := range []string{"completed", "scheduled", "completed"} {
		var wg sync.WaitGroup
		for _, in := range []*instance{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := bytes.NewReader([]byte(`{"status":"` + status + `"}`))
				if code, out := do(t, "PATCH", in.Base+"/api/admin/leads/"+lead, token, "application/json", body); code != http.StatusOK {
					t.Errorf("%s on %s: %d %s", status, in.Base, code, out)
				}
			}()
		}
		wg.Wait()
	}

	reviews := func() int {
		n := 0
		for _, m := range smtp.Messages() {
			if len(m.To) == 1 && m.To[0] == "maria@example.com" && bytes.Contains(m.Data, []byte("Subject: How did we do?")) {
				n++
			}
		}
		return n
	}
	if _, ok := waitFor(ceiling, func() bool { return reviews() >= 1 }); !ok {
		t.Fatalf("no review request reached the mail server\nA:\n%s\nB:\n%s", a.Log.String(), b.Log.String())
	}
	// The request was claimed, its one email row delivered: nothing else
	// is left that could send a second.
	var st struct {
		State     string `db:"state"`
		Rows      int    `db:"rows"`
		Delivered int    `db:"delivered"`
	}
	if _, ok := waitFor(ceiling, func() bool {
		return x.Get(&st, `SELECT r.state, (SELECT COUNT(*) FROM outbox o WHERE o.lead_id = r.lead_id AND o.kind IN ('review', 'review_sms')) AS rows,
			(SELECT COUNT(*) FROM outbox o WHERE o.lead_id = r.lead_id AND o.kind = 'review' AND o.delivered_at IS NOT NULL) AS delivered
			FROM review_requests r WHERE r.lead_id = $1`, lead) == nil && st.Delivered == 1
	}); !ok {
		t.Fatalf("request %+v", st)
	}
	var requests int
	x.Get(&requests, `SELECT COUNT(*) FROM review_requests WHERE lead_id = $1`, lead)
	if st.State != db.ReviewStateQueued || st.Rows != 1 || requests != 1 || reviews() != 1 {
		t.Errorf("request %+v, %d requests, %d review emails; want one of each", st, requests, reviews())
	}
}

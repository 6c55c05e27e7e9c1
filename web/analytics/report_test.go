package analytics

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/analytics/analyticstest"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// TestAnalyticsFiguresAgree: random histories (analyticstest.Generate)
// read through the handler agree with every invariant and definition,
// for ranges of raw days and, once older days are rolled up and pruned,
// ranges spanning rolled-up and raw days, with the same answer.
func TestAnalyticsFiguresAgree(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		ctx := context.Background()
		label := Places(r.site).Label
		for seed := int64(1); seed <= 6; seed++ {
			for _, q := range []string{`DELETE FROM analytics_events`, `DELETE FROM analytics_daily`, `DELETE FROM analytics_rollups`} {
				if _, err := store.SQL().Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			now := time.Now()
			evs := analyticstest.Generate(rand.New(rand.NewSource(seed)), now, 20)
			if err := store.AddEvents(ctx, evs); err != nil {
				t.Fatal(err)
			}
			raw := map[int]analytics.Report{}
			for _, days := range []int{1, 4, 10} {
				rep := r.report(t, days)
				if problems := analyticstest.Check(rep, analyticstest.Oracle(evs, rep.From, rep.To, label)); len(problems) > 0 {
					t.Fatalf("seed %d, %d raw days:\n%s", seed, days, strings.Join(problems, "\n"))
				}
				raw[days] = rep
			}
			if _, err := store.RollUp(ctx, analytics.Day(now.AddDate(0, 0, -2)), analytics.Day(now.AddDate(0, 0, -5)), now.UTC()); err != nil {
				t.Fatal(err)
			}
			for _, days := range []int{1, 4, 10} {
				rep := r.report(t, days)
				if problems := analyticstest.Check(rep, analyticstest.Oracle(evs, rep.From, rep.To, label)); len(problems) > 0 {
					t.Fatalf("seed %d, %d days, partly rolled up:\n%s", seed, days, strings.Join(problems, "\n"))
				}
				if diff := cmp.Diff(raw[days], rep); diff != "" {
					t.Errorf("seed %d, %d days: rolling up changed the answer (-raw, +rolled up):\n%s", seed, days, diff)
				}
			}
		}
	})
}

// Reads while the roll-up job runs and events arrive: every answer is
// 200 and its figures agree (a day is read either rolled up or raw,
// never both or neither).
func TestAnalyticsReadsDuringRollUp(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		ctx := context.Background()
		now := time.Now()
		evs := analyticstest.Generate(rand.New(rand.NewSource(7)), now, 12)
		if err := store.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := 10; d >= 1; d-- {
				if _, err := store.RollUp(ctx, analytics.Day(now.AddDate(0, 0, -d)), analytics.Day(now.AddDate(0, 0, -30)), now.UTC()); err != nil {
					t.Error(err)
				}
			}
		}()
		errs := make(chan string, 40)
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := r.Call(t, "GET", "/api/admin/analytics?days=12", authtest.PIN, nil)
				var out analytics.Report
				if err := json.Unmarshal([]byte(res.Body), &out); err != nil || res.StatusCode != 200 {
					errs <- fmt.Sprintf("%d %s", res.StatusCode, res.Body)
					return
				}
				if p := analyticstest.Check(out, analyticstest.Oracle(evs, out.From, out.To, Places(r.site).Label)); len(p) > 0 {
					errs <- strings.Join(p, "\n")
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}

func TestAnalyticsEmptyState(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	res := r.Call(t, "GET", "/api/admin/analytics", authtest.PIN, nil)
	if !strings.Contains(res.Body, `"empty":true`) || !strings.Contains(res.Body, `"visitors":0`) {
		t.Errorf("a new site: %s", res.Body)
	}
	if v := r.Call(t, "GET", "/api/admin/vitals", authtest.PIN, nil); !strings.Contains(v.Body, `"samples":0`) {
		t.Errorf("vitals on a new site: %s", v.Body)
	}
}

// savedGoals reads the goals the Analytics screen measures against.
func (r *room) savedGoals(t *testing.T) Goals {
	t.Helper()
	var out struct{ Goals Goals }
	json.Unmarshal([]byte(r.Call(t, "GET", "/api/admin/analytics", authtest.PIN, nil).Body), &out)
	return out.Goals
}

// The screens refuse a range they do not have and hostile goals, with
// the one clear message, without touching the saved goals, and stay
// consistent under 100 parallel saves. (Who may call them, their
// no-store and a body over BODY_LIMIT are server/'s
// TestAnalyticsAdminEndpointsUnderAttack.)
func TestAnalyticsHostileInput(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		tok := authtest.PIN
		good := map[string]any{"visitors": 4000, "leads": 120, "conversion": 3}
		for _, days := range []string{"0", "367", "-1", "abc", "1e3", "30.5", "99999999999999999999", "%3Cscript%3E"} {
			if res := r.Call(t, "GET", "/api/admin/analytics?days="+days, tok, nil); res.StatusCode != 400 || !strings.Contains(res.Body, "days must be between 1 and 366.") || strings.Contains(res.Body, "<script>") {
				t.Errorf("days=%s: %d %s", days, res.StatusCode, res.Body)
			}
		}
		if res := r.Call(t, "PUT", "/api/admin/analytics/goals", tok, good); res.StatusCode != 200 {
			t.Fatalf("goals: %d %s", res.StatusCode, res.Body)
		}
		const msg = "Goals must be positive: visitors and leads as whole numbers, conversion as a percentage up to 100."
		for name, body := range map[string]string{
			"markup":     `{"visitors":"<script>alert(1)</script>","leads":1,"conversion":1}`,
			"formula":    `{"visitors":"=HYPERLINK(\"http://x\")","leads":1,"conversion":1}`,
			"fraction":   `{"visitors":10.5,"leads":1,"conversion":1}`,
			"huge":       `{"visitors":1e300,"leads":1,"conversion":1}`,
			"zero":       `{"visitors":0,"leads":1,"conversion":1}`,
			"over 100 %": `{"visitors":10,"leads":1,"conversion":101}`,
			"missing":    `{"visitors":10}`,
			"not JSON":   `visitors=10`,
		} {
			req := httptest.NewRequest("PUT", "/api/admin/analytics/goals", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			res := r.Serve(req)
			if res.StatusCode != 400 {
				t.Errorf("%s: %d %s", name, res.StatusCode, res.Body)
			}
			if !strings.Contains(res.Body, msg) {
				t.Errorf("%s: unclear message %s", name, res.Body)
			}
			if strings.Contains(res.Body, "<script>") {
				t.Errorf("%s: markup echoed: %s", name, res.Body)
			}
		}
		if g := r.savedGoals(t); g.Visitors != 4000 || g.Leads != 120 || g.Conversion != 3 {
			t.Errorf("hostile input changed the saved goals: %+v", g)
		}
		// 100 parallel saves: every one answered 200, and what is stored is
		// one of them, whole.
		var wg sync.WaitGroup
		codes := make(chan int, 100)
		for i := 1; i <= 100; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				codes <- r.Call(t, "PUT", "/api/admin/analytics/goals", tok, map[string]any{"visitors": i * 100, "leads": i, "conversion": 1}).StatusCode
			}(i)
		}
		wg.Wait()
		close(codes)
		for c := range codes {
			if c != 200 {
				t.Errorf("parallel save: %d", c)
			}
		}
		if g := r.savedGoals(t); g.Visitors != g.Leads*100 || g.Leads < 1 || g.Leads > 100 {
			t.Errorf("parallel saves left mixed goals: %+v", g)
		}
	})
}

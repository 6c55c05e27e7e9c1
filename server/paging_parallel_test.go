package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/web/paging"
)

// pagedAnswer is what every paged admin list answers beside its rows
// (paging.Info), and how many rows it held: the one array field of the
// answer.
type pagedAnswer struct {
	paging.Info
	rows int
}

func readPaged(t *testing.T, body string) (pagedAnswer, error) {
	var a pagedAnswer
	if err := json.Unmarshal([]byte(body), &a.Info); err != nil {
		return a, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &fields); err != nil {
		return a, err
	}
	arrays := 0
	for _, raw := range fields {
		var rows []json.RawMessage
		if len(raw) > 0 && raw[0] == '[' && json.Unmarshal(raw, &rows) == nil {
			a.rows = len(rows)
			arrays++
		}
	}
	if arrays != 1 {
		return a, fmt.Errorf("%d row arrays in the answer, want 1", arrays)
	}
	return a, nil
}

// Every paged admin list holds its bounds and answers the same page under
// 100 parallel requests as it does alone, on both databases: a 200 with the exact total and
// at most MaxPerPage rows (a client asking for 100,000 gets 200), and a
// plain 400 for a bad page, whatever else is being asked at the time
// (docs/admin.md, ADR 069). The data does not change meanwhile, so each
// answer must equal the one the same request got alone, byte for byte,
// except the sessions list, where the caller's own session is seen again
// on every request.
func TestPagedListsHoldUnderParallelRequests(t *testing.T) {
	db.ForEachDB(t, pagedListsUnderParallelRequests)
}

func pagedListsUnderParallelRequests(t *testing.T, store *db.Store) {
	srv, err := buildServer(t, testParts{Config: testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()}), Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	addUser(t, store, staffEmail, staffPass, "staff", "Crew Lead")
	h := srv.Handler()
	seedLeads(t, store, 260)
	token := signIn(t, h, adminEmail, adminPass)
	ctx := context.Background()
	content := contentdb.New(store)
	if err := content.ChangeRedirects(ctx, func([]contentdb.Redirect) ([]contentdb.Redirect, []string, error) {
		var add []contentdb.Redirect
		for i := range 230 {
			add = append(add, contentdb.Redirect{From: fmt.Sprintf("/old/page-%03d", i), To: "/about", Source: "manual", CreatedAt: time.Now(), CreatedBy: "test"})
		}
		return add, nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	hits := map[string]int{}
	for i := range 120 {
		hits[fmt.Sprintf("/missing/%03d", i)] = i + 1
	}
	if err := content.AddNotFoundHits(ctx, time.Now().UTC().Format("2006-01-02"), hits, time.Now(), 500); err != nil {
		t.Fatal(err)
	}

	lists := []string{"/api/admin/leads", "/api/admin/audit", "/api/admin/users", "/api/admin/sessions",
		"/api/admin/media", "/api/admin/content?kind=city", "/api/admin/redirects", "/api/admin/not-found"}
	type call struct {
		path  string
		valid bool
	}
	var calls []call
	for _, l := range lists {
		sep := "?"
		if strings.Contains(l, "?") {
			sep = "&"
		}
		for _, q := range []string{"", "page=2&perPage=7", "perPage=100000", "page=999", "q=a", "q=zzzz-nothing"} {
			p := l
			if q != "" {
				p += sep + q
			}
			calls = append(calls, call{p, true})
		}
		for _, q := range []string{"page=0", "page=abc", "perPage=0"} {
			calls = append(calls, call{l + sep + q, false})
		}
	}

	// Each request alone first: what the parallel answers must equal.
	alone := map[string]*response{}
	for _, c := range calls {
		r := jsonReq(t, h, "GET", c.path, token, nil)
		alone[c.path] = r
		if !c.valid {
			if r.StatusCode != http.StatusBadRequest {
				t.Errorf("%s alone: %d %.200s, want 400", c.path, r.StatusCode, r.Body)
			}
			continue
		}
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s alone: %d %.200s", c.path, r.StatusCode, r.Body)
		}
		a, err := readPaged(t, r.Body)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if a.rows > paging.MaxPerPage || a.PerPage > paging.MaxPerPage || a.rows > a.PerPage || a.Total < a.rows {
			t.Errorf("%s alone: %d rows, %d per page, %d in all", c.path, a.rows, a.PerPage, a.Total)
		}
	}
	// The lists that grow past a page do: the cap is exercised, not assumed.
	for _, l := range []string{"/api/admin/leads", "/api/admin/redirects"} {
		a, _ := readPaged(t, alone[l+"?perPage=100000"].Body)
		if a.rows != paging.MaxPerPage || a.Total <= paging.MaxPerPage {
			t.Errorf("%s?perPage=100000: %d rows of %d, want %d", l, a.rows, a.Total, paging.MaxPerPage)
		}
	}

	// Then 100 at once, the calls dealt round-robin.
	const parallel = 100
	var wg sync.WaitGroup
	errs := make(chan string, parallel)
	start := make(chan struct{})
	for i := range parallel {
		c := calls[(i*7)%len(calls)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := jsonReq(t, h, "GET", c.path, token, nil)
			want := alone[c.path]
			if r.StatusCode != want.StatusCode {
				errs <- fmt.Sprintf("%s: %d %.200s, alone %d", c.path, r.StatusCode, r.Body, want.StatusCode)
				return
			}
			if !c.valid {
				if r.Body != want.Body {
					errs <- fmt.Sprintf("%s: %q, alone %q", c.path, r.Body, want.Body)
				}
				return
			}
			if strings.Contains(c.path, "/sessions") {
				got, err := readPaged(t, r.Body)
				was, _ := readPaged(t, want.Body)
				if err != nil || got != was {
					errs <- fmt.Sprintf("%s: %+v (%v), alone %+v", c.path, got, err, was)
				}
				return
			}
			if r.Body != want.Body {
				errs <- fmt.Sprintf("%s: the answer differs from the one alone:\n%.300s\nalone:\n%.300s", c.path, r.Body, want.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

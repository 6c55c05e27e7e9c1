package schemacheck

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/words"
)

// Fetch runs a GET for a site path through the server's own handler and
// returns the status and body.
type Fetch func(ctx context.Context, path string) (status int, body []byte, err error)

// Store keeps checks; *db.Store is one.
type Store interface {
	SaveSchemaCheck(ctx context.Context, run db.SchemaCheckRun, pages []db.SchemaCheckPage) (db.SchemaCheckRun, error)
}

// Triggers recorded with a run.
const (
	TriggerDeploy  = "deploy"  // the first run after boot
	TriggerContent = "content" // after a content change re-rendered the pages
	TriggerManual  = "manual"  // the admin pressed Validate All
)

// DefaultScore is spec 5's validation score when there is nothing to
// score.
const DefaultScore = 98

// Checker checks every indexable page of the route table.
type Checker struct {
	Fetch Fetch
	// Pages lists the pages to check with their kind and expected types.
	Pages   func() []Page
	Base    string
	Options Options
	Store   Store
	Log     *slog.Logger

	ran atomic.Bool
	// last is each page's result of the last run, before the comparison
	// across pages, with the bytes it was checked on: a page whose bytes
	// and kind have not changed since is not parsed again (a publish
	// changes a few pages of many, and each change re-runs the check).
	mu   sync.Mutex
	last map[string]checked
}

// checked is a page's result and what it was checked on.
type checked struct {
	sum    [sha256.Size]byte
	kind   string
	expect string
	result PageResult
}

// Run checks every page and stores the result: the schema check job's
// body.
func (c *Checker) Run(ctx context.Context) (string, error) {
	trigger := TriggerContent
	if jobs.IsManual(ctx) {
		trigger = TriggerManual
	} else if !c.ran.Load() {
		trigger = TriggerDeploy
	}
	run, _, err := c.Check(ctx, trigger)
	if err != nil {
		return "", err
	}
	c.ran.Store(true)
	return Summary(run), nil
}

// Summary is a run's line for the dashboard's recent activity.
func Summary(r db.SchemaCheckRun) string {
	s := fmt.Sprintf("Schema check: %d of %s carry structured data; %d%% of items valid (%s, %s)", r.Covered, words.Count(r.Pages, "page", "pages"), r.Score, words.Count(r.Errors, "error", "errors"), words.Count(r.Warnings, "warning", "warnings"))
	if r.Unreadable > 0 {
		s += fmt.Sprintf("; %s could not be checked", words.Count(r.Unreadable, "page", "pages"))
	}
	return s
}

// Score is the share of items without an error, as a whole percentage;
// DefaultScore when there is nothing to score.
func Score(items, valid int) int {
	if items == 0 {
		return DefaultScore
	}
	return int(math.Round(float64(valid) * 100 / float64(items)))
}

// Check fetches and checks every page one at a time, compares shared
// blocks across pages and stores the run.
func (c *Checker) Check(ctx context.Context, trigger string) (db.SchemaCheckRun, []PageResult, error) {
	run := db.SchemaCheckRun{StartedAt: time.Now().UTC(), TriggeredBy: trigger, BaseURL: c.Base}
	var results []*PageResult
	c.mu.Lock()
	last := c.last
	c.mu.Unlock()
	next := map[string]checked{}
	for _, p := range c.Pages() {
		if err := ctx.Err(); err != nil {
			return run, nil, err
		}
		r := c.page(ctx, p, last, next)
		results = append(results, &r)
	}
	c.mu.Lock()
	c.last = next
	c.mu.Unlock()
	compareShared(results)
	rows := make([]db.SchemaCheckPage, 0, len(results))
	out := make([]PageResult, 0, len(results))
	for _, r := range results {
		if r.Error != "" {
			run.Unreadable++
		} else {
			if r.Covered() {
				run.Covered++
			}
			e, w := r.Counts()
			run.Errors += e
			run.Warnings += w
			run.Items += r.Items
			run.Valid += r.Valid
		}
		b, err := json.Marshal(r)
		if err != nil {
			return run, nil, err
		}
		rows = append(rows, db.SchemaCheckPage{Path: r.Path, Kind: r.Kind, StatusCode: r.StatusCode, Result: string(b), Error: r.Error})
		out = append(out, *r)
	}
	run.Pages = len(results)
	run.Score = Score(run.Items, run.Valid)
	run.FinishedAt = time.Now().UTC()
	saved, err := c.Store.SaveSchemaCheck(ctx, run, rows)
	if err != nil {
		return run, nil, err
	}
	if c.Log != nil && run.Errors+run.Unreadable > 0 {
		c.Log.Info("schema check found errors", "errors", run.Errors, "unchecked", run.Unreadable, "score", run.Score)
	}
	return saved, out, nil
}

// page fetches and checks one page: again only when its bytes, kind or
// expected types differ from the last run's (last), whose result is then
// reused; next receives what this run checked.
func (c *Checker) page(ctx context.Context, p Page, last, next map[string]checked) PageResult {
	status, body, err := c.Fetch(ctx, p.Path)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("HTTP %d: only pages that answer 200 are checked", status)
	}
	if err != nil {
		return PageResult{Path: p.Path, Kind: p.Kind, StatusCode: status, Types: []string{}, Expected: append([]string{}, p.Expect...),
			Missing: []string{}, Findings: []Finding{}, Error: err.Error()}
	}
	k := checked{sum: sha256.Sum256(body), kind: p.Kind, expect: strings.Join(p.Expect, "\x00")}
	if was, ok := last[p.Path]; ok && was.sum == k.sum && was.kind == k.kind && was.expect == k.expect {
		k.result = was.result
	} else {
		k.result = CheckPage(body, p, c.Options)
	}
	next[p.Path] = k
	r := k.result
	// The comparison across pages appends to a page's findings: never to
	// the remembered ones.
	r.Findings = slices.Clip(slices.Clone(r.Findings))
	return r
}

// Decode turns a stored page row back into its result.
func Decode(p db.SchemaCheckPage) PageResult {
	r := PageResult{Path: p.Path, Kind: p.Kind, StatusCode: p.StatusCode, Error: p.Error}
	if err := json.Unmarshal([]byte(p.Result), &r); err != nil && r.Error == "" {
		r.Error = "stored result unreadable: " + err.Error()
	}
	for _, l := range []*[]string{&r.Types, &r.Expected, &r.Missing} {
		if *l == nil {
			*l = []string{}
		}
	}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	return r
}

package dashboard

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// fakeStore answers the tool cards' reads; err fails every one.
type fakeStore struct {
	err      error
	seo      *db.SEOAuditRun
	scan     *db.SecurityScan
	open     int
	schema   *db.SchemaCheckRun
	subs     []db.IndexNowSubmission
	counts   []db.Count
	media    []db.Media
	vitalErr error
}

func (f *fakeStore) LatestSEOAuditRun(context.Context) (db.SEOAuditRun, error) {
	if f.err != nil {
		return db.SEOAuditRun{}, f.err
	}
	if f.seo == nil {
		return db.SEOAuditRun{}, db.ErrNotFound
	}
	return *f.seo, nil
}
func (f *fakeStore) LatestSecurityScan(context.Context) (db.SecurityScan, []db.SecurityResult, error) {
	if f.err != nil {
		return db.SecurityScan{}, nil, f.err
	}
	if f.scan == nil {
		return db.SecurityScan{}, nil, db.ErrNotFound
	}
	return *f.scan, nil, nil
}
func (f *fakeStore) CountOpenVulnerabilities(context.Context) (int, error) { return f.open, f.err }
func (f *fakeStore) VitalCounts(context.Context, string, string) ([]db.VitalCount, error) {
	return nil, errors.Join(f.err, f.vitalErr)
}
func (f *fakeStore) RecentJobRuns(context.Context, int, bool) ([]db.JobRun, error) { return nil, f.err }
func (f *fakeStore) RecentMedia(context.Context, int) ([]db.Media, error)          { return f.media, f.err }
func (f *fakeStore) LatestSchemaCheckRun(context.Context) (db.SchemaCheckRun, error) {
	if f.err != nil {
		return db.SchemaCheckRun{}, f.err
	}
	if f.schema == nil {
		return db.SchemaCheckRun{}, db.ErrNotFound
	}
	return *f.schema, nil
}
func (f *fakeStore) ListIndexNowSubmissions(context.Context, int, int) ([]db.IndexNowSubmission, int, error) {
	return f.subs, len(f.subs), f.err
}
func (f *fakeStore) Counts(context.Context, string, string) ([]db.Count, error) {
	return f.counts, f.err
}

func handler(f *fakeStore, key string, auto bool, keyErr error) *Handler {
	return &Handler{Store: f, More: f, IndexNow: func(context.Context) (string, bool, error) { return key, auto, keyErr }}
}

// TestToolStatuses: each card says the spec's word only when it is true,
// a plain one otherwise, and "Could not be read" when its figure fails.
func TestToolStatuses(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	down := errors.New("database down")
	cases := []struct {
		name string
		got  func() ToolStatus
		want string
		prio string
	}{
		{"seo none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).seoTool(ctx) }, "Not run yet", "medium"},
		{"seo failing", func() ToolStatus {
			return handler(&fakeStore{seo: &db.SEOAuditRun{Score: 80, Pages: 10, Failed: 3, Warnings: 2}}, "", true, nil).seoTool(ctx)
		}, "3 failing checks", "high"},
		{"seo warnings", func() ToolStatus {
			return handler(&fakeStore{seo: &db.SEOAuditRun{Score: 95, Pages: 10, Warnings: 1}}, "", true, nil).seoTool(ctx)
		}, "1 warning", "medium"},
		{"seo clean", func() ToolStatus {
			return handler(&fakeStore{seo: &db.SEOAuditRun{Score: 100, Pages: 10}}, "", true, nil).seoTool(ctx)
		}, "Active", "low"},
		{"seo unreadable", func() ToolStatus { return handler(&fakeStore{err: down}, "", true, nil).seoTool(ctx) }, "Could not be read", "medium"},
		{"indexnow no key", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).indexNowTool(ctx) }, "Needs a key", "high"},
		{"indexnow key error", func() ToolStatus { return handler(&fakeStore{}, "", true, down).indexNowTool(ctx) }, "Could not be read", "medium"},
		{"indexnow failed", func() ToolStatus {
			return handler(&fakeStore{subs: []db.IndexNowSubmission{{URLCount: 3, Outcome: db.OutcomeFailed, CreatedAt: now}}}, "k", true, nil).indexNowTool(ctx)
		}, "Last submission failed", "high"},
		{"indexnow auto off", func() ToolStatus { return handler(&fakeStore{}, "k", false, nil).indexNowTool(ctx) }, "Auto-submit off", "medium"},
		{"indexnow active", func() ToolStatus {
			return handler(&fakeStore{subs: []db.IndexNowSubmission{{URLCount: 3, Outcome: db.OutcomeOK, CreatedAt: now}}}, "k", true, nil).indexNowTool(ctx)
		}, "Active", "low"},
		{"security none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).securityTool(ctx, now) }, "Not scanned yet", "medium"},
		{"security open", func() ToolStatus {
			return handler(&fakeStore{scan: &db.SecurityScan{FinishedAt: now}, open: 2}, "", true, nil).securityTool(ctx, now)
		}, "2 open issues", "high"},
		{"security stale", func() ToolStatus {
			return handler(&fakeStore{scan: &db.SecurityScan{FinishedAt: now.Add(-3 * 24 * time.Hour)}}, "", true, nil).securityTool(ctx, now)
		}, "Scan overdue", "high"},
		{"security secure", func() ToolStatus {
			return handler(&fakeStore{scan: &db.SecurityScan{FinishedAt: now, Passed: 12}}, "", true, nil).securityTool(ctx, now)
		}, "Secure", "low"},
		{"schema none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).schemaTool(ctx) }, "Not checked yet", "medium"},
		{"schema warnings", func() ToolStatus {
			return handler(&fakeStore{schema: &db.SchemaCheckRun{Pages: 117, Score: 100, Warnings: 1287}}, "", true, nil).schemaTool(ctx)
		}, "1287 warnings", "medium"},
		{"schema errors", func() ToolStatus {
			return handler(&fakeStore{schema: &db.SchemaCheckRun{Pages: 117, Score: 90, Errors: 2, Unreadable: 1}}, "", true, nil).schemaTool(ctx)
		}, "3 errors", "high"},
		{"schema clean", func() ToolStatus {
			return handler(&fakeStore{schema: &db.SchemaCheckRun{Pages: 117, Score: 100}}, "", true, nil).schemaTool(ctx)
		}, "Optimized", "low"},
		{"schema unreadable", func() ToolStatus { return handler(&fakeStore{err: down}, "", true, nil).schemaTool(ctx) }, "Could not be read", "medium"},
		{"analytics none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).analyticsTool(ctx, now) }, "No visits yet", "low"},
		{"analytics visits", func() ToolStatus {
			return handler(&fakeStore{counts: []db.Count{{Kind: db.EventPageview, Dim: db.DimTotal, Events: 40, Visitors: 12}}}, "", true, nil).analyticsTool(ctx, now)
		}, "Monitoring", "low"},
		{"performance none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).performanceTool(ctx, now) }, "No visits measured yet", "low"},
		{"performance unreadable", func() ToolStatus { return handler(&fakeStore{vitalErr: down}, "", true, nil).performanceTool(ctx, now) }, "Could not be read", "medium"},
		{"upload none", func() ToolStatus { return handler(&fakeStore{}, "", true, nil).uploadTool(ctx) }, "Ready", "low"},
		{"upload unreadable", func() ToolStatus { return handler(&fakeStore{err: down}, "", true, nil).uploadTool(ctx) }, "Could not be read", "medium"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.got()
			if got.Status != tc.want || got.Priority != tc.prio || got.Detail == "" || got.Tone == "" {
				t.Errorf("got %+v, want status %q priority %q with a detail and tone", got, tc.want, tc.prio)
			}
		})
	}
}

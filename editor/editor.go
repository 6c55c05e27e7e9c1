// Package editor is content editing: the owner and editors
// change the site's texts from the admin, with drafts, checks, publishing
// now or on a schedule, revisions, slug changes that leave a 301 behind,
// redirects and the 404 monitor. The database holds the content once the
// site runs (db/contentdb); the embedded content/ files seed an empty
// database. Every check is package content's one set of rules. No HTTP
// here: the room is web/editor.
package editor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/jobs"
)

// Store is where content is kept (contentdb.Store).
type Store interface {
	Count(ctx context.Context) (int, error)
	Seed(ctx context.Context, items []contentdb.SeedItem, at time.Time) (int, error)
	SeedMissing(ctx context.Context, items []contentdb.SeedItem, at time.Time) (int, error)
	Live(ctx context.Context) ([]contentdb.Item, error)
	List(ctx context.Context, kind string) ([]contentdb.Item, error)
	ListPage(ctx context.Context, kind string, p db.Page, f contentdb.Filter) ([]contentdb.Item, int, error)
	Get(ctx context.Context, id string) (contentdb.Item, error)
	Create(ctx context.Context, kind, slug, draftJSON string, position int, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	SaveDraft(ctx context.Context, id string, base int, slug, draftJSON string, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	PublishWith(ctx context.Context, id string, base int, by contentdb.Actor, now time.Time, plan contentdb.RedirectPlan) (contentdb.Item, contentdb.Revision, error)
	PublishBatch(ctx context.Context, recs []contentdb.BatchRecord, by contentdb.Actor, now time.Time, plan contentdb.RedirectPlan) ([]contentdb.Item, error)
	Schedule(ctx context.Context, id string, base int, at time.Time, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	Unschedule(ctx context.Context, id string, base int, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	Due(ctx context.Context, now time.Time) ([]contentdb.Item, error)
	Unpublish(ctx context.Context, id string, base int, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	Delete(ctx context.Context, id string, base int) (contentdb.Item, error)
	Revisions(ctx context.Context, itemID string) ([]contentdb.Revision, error)
	Restore(ctx context.Context, itemID, revisionID string, base int, by contentdb.Actor, now time.Time) (contentdb.Item, error)
	Redirects(ctx context.Context) ([]contentdb.Redirect, error)
	RedirectsPage(ctx context.Context, p db.Page) ([]contentdb.Redirect, int, error)
	ChangeRedirects(ctx context.Context, plan func(current []contentdb.Redirect) ([]contentdb.Redirect, []string, error)) error
	AddNotFoundHits(ctx context.Context, day string, hits map[string]int, now time.Time, maxPathsPerDay int) error
	TopNotFound(ctx context.Context, fromDay string, limit int) ([]contentdb.NotFoundRow, error)
	NotFoundPage(ctx context.Context, fromDay string, p db.Page) ([]contentdb.NotFoundRow, int, error)
	PruneNotFound(ctx context.Context, beforeDay string) (int64, error)
	DeleteNotFound(ctx context.Context, path string) error
	All(ctx context.Context) ([]contentdb.Item, error)
	RewriteRefs(ctx context.Context, plan func(all []contentdb.Item) contentdb.RefRewrite) (int, error)
	RewriteRefsIn(ctx context.Context, scope contentdb.RefScope, plan func(items []contentdb.Item) contentdb.RefRewrite) (int, error)
	UnpublishDetaching(ctx context.Context, id string, base int, plan contentdb.DetachPlan, by contentdb.Actor, now time.Time) (contentdb.Item, []contentdb.Item, error)
	DeleteDetaching(ctx context.Context, id string, base int, plan contentdb.DetachPlan, by contentdb.Actor, now time.Time) (contentdb.Item, []contentdb.Item, error)
}

// Auditor records who published, unpublished, deleted or restored what
// (db.Store's audit log).
type Auditor interface {
	AddAudit(ctx context.Context, e db.AuditEntry) error
}

// Audit log actions of content editing.
const (
	AuditPublish     = "content_publish"
	AuditSchedule    = "content_schedule"
	AuditUnschedule  = "content_unschedule"
	AuditUnpublish   = "content_unpublish"
	AuditDelete      = "content_delete"
	AuditRestore     = "content_restore"
	AuditCreate      = "content_create"
	AuditRedirectAdd = "redirect_add"
	AuditRedirectDel = "redirect_delete"
)

// Service edits content.
type Service struct {
	Store Store
	Audit Auditor
	// Changed makes the database's live content current on this instance
	// and every other one, and re-renders the pages it changed.
	Changed func(reason string)
	// Paths are the public paths the current site serves (the route
	// table): a redirect may not shadow one.
	Paths func() []string
	// Photo reports whether a media item is a photo of the library (a
	// hero or cover must be one).
	Photo func(ctx context.Context, id string) (bool, error)
	Log   *slog.Logger
	// Now is the clock (tests move it).
	Now func() time.Time
	// NotFoundKeep is how many days the 404 log keeps and the monitor
	// lists (RETAIN_NOT_FOUND_DAYS); 0 is NotFoundDays.
	NotFoundKeep int
	// Render renders a working copy's page before it is published or
	// scheduled (publishcheck.go): a page that fails or times out is
	// refused. The server sets it; `site content import`, which has no
	// renderer, leaves it nil and relies on the rules (limits.go).
	Render Render
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Errors a caller shows as they are.
var (
	// ErrNotFound: no such item (or revision).
	ErrNotFound = errors.New("not found")
	// ErrFixedSlug: this kind's slug names a fixed page or is referred to
	// by other records, so it cannot change.
	ErrFixedSlug = errors.New("this page's address cannot change")
	// ErrNotCreatable: items of this kind are edited, never added or
	// deleted (the services, counties, fixed city pages, info pages, FAQ
	// blocks and the home page).
	ErrNotCreatable = errors.New("pages of this kind can be edited but not added or deleted")
	// ErrPast: a schedule must be in the future.
	ErrPast = errors.New("choose a time in the future")
)

// Invalid is a draft that cannot be read or that a hard problem blocks.
type Invalid struct {
	Message  string
	Problems []content.Problem
}

func (e *Invalid) Error() string { return e.Message }

// Actor is who edits.
type Actor = contentdb.Actor

// Seed stores the embedded content when the database holds none (a fresh
// install, or the first boot after this feature shipped). Several
// instances booting at once seed it once. Then the stored references
// become ids (MigrateRefs), whether just seeded or stored before ids.
func (s *Service) Seed(ctx context.Context, c *content.Set) (int, error) {
	n, err := s.seed(ctx, c)
	if err != nil {
		return 0, err
	}
	if _, err := s.MigrateRefs(ctx); err != nil {
		return 0, err
	}
	if _, err := s.PlaceCities(ctx, c); err != nil {
		return 0, err
	}
	return n, nil
}

func (s *Service) seed(ctx context.Context, c *content.Set) (int, error) {
	n, err := s.Store.Count(ctx)
	if err != nil {
		return 0, err
	}
	var items []contentdb.SeedItem
	for _, r := range c.Records() {
		if n > 0 && !slices.Contains(content.AddedKinds, r.Kind) {
			continue
		}
		items = append(items, contentdb.SeedItem{Kind: r.Kind, Slug: r.Slug, JSON: string(r.JSON), Position: r.Position})
	}
	at, err := time.Parse("2006-01-02", c.Updated)
	if err != nil {
		at = s.now()
	}
	if n > 0 {
		// A database seeded before a kind existed gets that kind's records.
		return s.Store.SeedMissing(ctx, items, at)
	}
	return s.Store.Seed(ctx, items, at)
}

// Load builds the site's content from what is live in the database, with
// the problems the rules find in it. Hard problems were refused when
// published, so they are logged, not fatal: a boot never fails on what
// the owner saved.
func (s *Service) Load(ctx context.Context) (*content.Set, error) {
	items, err := s.Store.Live(ctx)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	c, problems, err := content.FromRecords(readable(records(items, true), liveIndex(items)), updated(items))
	if err != nil {
		return nil, err
	}
	for _, p := range content.HardProblems(problems) {
		s.Log.Error("published content has a problem", "problem", p.String())
	}
	return c, nil
}

// records turns items into content records: their live copies (live) or
// their working copies. A copy seeded from the embedded files has no
// publish time of its own: it was not published by anybody.
func records(items []contentdb.Item, live bool) []content.Record {
	out := make([]content.Record, 0, len(items))
	for _, it := range items {
		r := content.Record{Kind: it.Kind, Slug: it.Slug, JSON: []byte(it.Draft), Position: it.Position, Origin: it.Origin, ItemID: it.ID}
		if it.UpdatedByID != seedActor {
			r.PublishedAt = it.PublishedAt
		}
		if live {
			r.Slug, r.JSON = it.LiveSlug, []byte(it.Live)
		}
		out = append(out, r)
	}
	return out
}

// seedActor is who stored the seeded copies (contentdb.Seed).
const seedActor = "seed"

// updated is the content's date: the latest publish, seeding included.
func updated(items []contentdb.Item) string {
	var latest time.Time
	for _, it := range items {
		if it.PublishedAt != nil && it.PublishedAt.After(latest) {
			latest = *it.PublishedAt
		}
	}
	if latest.IsZero() {
		return time.Now().UTC().Format("2006-01-02")
	}
	return latest.UTC().Format("2006-01-02")
}

// Candidate is the site as it would be with one item's working copy
// published: the live content with that record replaced (or added).
func (s *Service) Candidate(ctx context.Context, it contentdb.Item) (*content.Set, []content.Problem, error) {
	c, problems, _, err := s.candidate(ctx, it)
	return c, problems, err
}

// candidate is Candidate with the index of the records it is made of.
func (s *Service) candidate(ctx context.Context, it contentdb.Item) (*content.Set, []content.Problem, *content.RefIndex, error) {
	live, err := s.Store.Live(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("content: %w", err)
	}
	rs := make([]content.Record, 0, len(live)+1)
	var ts []content.RefTarget
	for _, l := range live {
		if l.ID != it.ID {
			rs = append(rs, records([]contentdb.Item{l}, true)...)
			if t, ok := target(l, true); ok {
				ts = append(ts, t)
			}
		}
	}
	if t, ok := target(it, false); ok {
		ts = append(ts, t)
	}
	now := s.now()
	ix := content.NewRefIndex(ts)
	rs = append(rs, content.Record{Kind: it.Kind, Slug: it.Slug, JSON: []byte(it.Draft), Position: it.Position, PublishedAt: &now, Origin: it.Origin})
	c, problems, err := content.FromRecords(readable(rs, ix), updated(live))
	if err != nil {
		return nil, nil, nil, &Invalid{Message: err.Error()}
	}
	return c, problems, ix, nil
}

// Problems are the problems of one item's working copy, in the site it
// would make: its own, and the site-wide ones it would cause (a seventh
// primary service).
func (s *Service) Problems(ctx context.Context, it contentdb.Item) ([]content.Problem, error) {
	_, all, ix, err := s.candidate(ctx, it)
	if err != nil {
		return nil, err
	}
	out := []content.Problem{}
	for _, p := range all {
		if (p.Kind == it.Kind && p.Slug == it.Slug) || p.Slug == "" {
			out = append(out, p)
		}
	}
	out = append(out, s.refProblems(ctx, it, ix)...)
	return append(out, s.photoProblems(ctx, it)...), nil
}

// photoProblems checks that a working copy's photo is one of the media
// library's photos.
func (s *Service) photoProblems(ctx context.Context, it contentdb.Item) []content.Problem {
	var d struct {
		Image *content.Image `json:"image"`
	}
	if json.Unmarshal([]byte(it.Draft), &d) != nil || d.Image == nil || d.Image.Media == "" || s.Photo == nil {
		return nil
	}
	ok, err := s.Photo(ctx, d.Image.Media)
	if err != nil {
		return []content.Problem{{Kind: it.Kind, Slug: it.Slug, Field: "image.media", Message: "the media library could not be read; try again", Hard: true}}
	}
	if !ok {
		return []content.Problem{{Kind: it.Kind, Slug: it.Slug, Field: "image.media", Message: "is not a photo of the media library (it may have been deleted)", Hard: true}}
	}
	return nil
}

// Creatable reports whether items of a kind can be added, taken down and
// deleted (posts, cities, categories); the others are edited only.
func Creatable(kind string) bool {
	switch kind {
	case content.KindArticle, content.KindCity, content.KindCategory:
		return true
	}
	return false
}

// movable kinds may change their slug once published: their address
// moves, and a 301 from the old one is recorded.
func movable(kind string) bool { return kind == content.KindArticle || kind == content.KindCity }

// PathOf is the public address of a record, "" for records with no page
// of their own.
func PathOf(kind, slug string) string {
	switch kind {
	case content.KindService:
		return "/services/" + slug
	case content.KindCounty:
		return "/service-areas/" + slug
	case content.KindCity, content.KindCityProfile:
		return "/areas/" + slug
	case content.KindArticle:
		return "/blog/" + slug
	case content.KindPage:
		return "/" + slug
	case content.KindHome, content.KindWords:
		// The site's wording shows on many pages; the home page shows most.
		return "/"
	}
	return ""
}

// decode reads a working copy sent by an editor: it must be its kind's
// JSON with no unknown field, and its key is what its content says.
// A record is an object for most kinds and a list for a FAQ block, so it
// is read as any JSON value.
func decode(kind string, data json.RawMessage) (string, string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&v); err != nil {
		return "", "", &Invalid{Message: "The page could not be read: " + err.Error()}
	}
	if dec.More() {
		return "", "", &Invalid{Message: "The page could not be read: it holds more than one value."}
	}
	m, _ := v.(map[string]any)
	slug := ""
	switch kind {
	case content.KindCity:
		county, _ := m["county"].(string)
		city, _ := m["slug"].(string)
		slug = county + "/" + city
	default:
		slug, _ = m["slug"].(string)
	}
	slug = strings.TrimSpace(slug)
	compact, err := json.Marshal(v)
	if err != nil {
		return "", "", &Invalid{Message: "The page could not be read."}
	}
	rec, err := content.Decode(kind, slug, compact)
	if err != nil {
		return "", "", &Invalid{Message: "The page could not be read: " + err.Error()}
	}
	if kind == content.KindArticle {
		// The reading time is the server's, from the body's words, never
		// what was sent.
		m["readTime"] = content.DeriveOf(rec).ReadTime
		if compact, err = json.Marshal(m); err != nil {
			return "", "", &Invalid{Message: "The page could not be read."}
		}
	}
	return slug, string(compact), nil
}

// keyed says whether a kind's key is in its content (the others keep the
// key they were stored with).
func keyed(kind string) bool {
	switch kind {
	case content.KindCityProfile, content.KindFAQ, content.KindHome, content.KindPage, content.KindWords:
		return false
	}
	return true
}

// slugProblem checks a new or changed key's form before the store sees it.
func slugProblem(kind, slug string) error {
	parts := []string{slug}
	if kind == content.KindCity {
		county, city, ok := strings.Cut(slug, "/")
		if !ok {
			return &Invalid{Message: "Give the city a county and a slug."}
		}
		parts = []string{county, city}
	}
	for _, p := range parts {
		if !content.ValidSlug(p) {
			return &Invalid{Message: fmt.Sprintf("%q is not a valid address: use lower-case letters, digits and single dashes, such as my-page-title.", p),
				Problems: []content.Problem{{Kind: kind, Slug: slug, Field: "slug", Message: "is not a slug (lower-case words joined by dashes)", Hard: true}}}
		}
	}
	return nil
}

// storeErr turns the store's refusals into the errors callers show.
func storeErr(err error) error {
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, contentdb.ErrSlugTaken):
		return &Invalid{Message: "Another page already uses this address. Choose another slug."}
	}
	return err
}

// List lists the items of a kind.
func (s *Service) List(ctx context.Context, kind string) ([]contentdb.Item, error) {
	if !known(kind) {
		return nil, &Invalid{Message: "Unknown kind of content."}
	}
	return s.Store.List(ctx, kind)
}

// ListPage reads one page of a kind's items that f keeps and how many
// match p.Q in all (contentdb.Store.ListPage says what the search
// matches).
func (s *Service) ListPage(ctx context.Context, kind string, p db.Page, f contentdb.Filter) ([]contentdb.Item, int, error) {
	if !known(kind) {
		return nil, 0, &Invalid{Message: "Unknown kind of content."}
	}
	return s.Store.ListPage(ctx, kind, p, f)
}

func known(kind string) bool {
	for _, k := range content.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Get reads one item.
func (s *Service) Get(ctx context.Context, id string) (contentdb.Item, error) {
	it, err := s.Store.Get(ctx, id)
	return it, storeErr(err)
}

// Create adds a draft of a kind that can be added (a post, a city, a
// category). It is not public until published.
func (s *Service) Create(ctx context.Context, kind string, data json.RawMessage, by Actor) (contentdb.Item, error) {
	if !known(kind) {
		return contentdb.Item{}, &Invalid{Message: "Unknown kind of content."}
	}
	if !Creatable(kind) {
		return contentdb.Item{}, ErrNotCreatable
	}
	slug, draft, err := decode(kind, data)
	if err != nil {
		return contentdb.Item{}, err
	}
	if err := slugProblem(kind, slug); err != nil {
		return contentdb.Item{}, err
	}
	if draft, err = s.toIDs(ctx, kind, draft); err != nil {
		return contentdb.Item{}, err
	}
	items, err := s.Store.List(ctx, kind)
	if err != nil {
		return contentdb.Item{}, err
	}
	pos := 0
	for _, it := range items {
		pos = max(pos, it.Position+1)
	}
	it, err := s.Store.Create(ctx, kind, slug, draft, pos, by, s.now())
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	s.audit(ctx, by, AuditCreate, it, "")
	return it, nil
}

// Save stores a working copy based on version base. It may have problems
// (a draft need not be finished); the stale base of a second editor is a
// *contentdb.Conflict.
func (s *Service) Save(ctx context.Context, id string, base int, data json.RawMessage, by Actor) (contentdb.Item, error) {
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	slug, draft, err := decode(cur.Kind, data)
	if err != nil {
		return contentdb.Item{}, err
	}
	if draft, err = s.toIDs(ctx, cur.Kind, draft); err != nil {
		return contentdb.Item{}, err
	}
	if !keyed(cur.Kind) {
		// An info page names its address in its content too: a new one
		// could never be published under the key it is stored with.
		if cur.Kind == content.KindPage && slug != cur.Slug {
			return contentdb.Item{}, ErrFixedSlug
		}
		slug = cur.Slug
	}
	if slug != cur.Slug {
		if !movable(cur.Kind) {
			return contentdb.Item{}, ErrFixedSlug
		}
		if cur.Kind == content.KindCity && strings.SplitN(slug, "/", 2)[0] != strings.SplitN(cur.Slug, "/", 2)[0] {
			return contentdb.Item{}, &Invalid{Message: "A city stays in its county; add it to the other county instead."}
		}
		if err := slugProblem(cur.Kind, slug); err != nil {
			return contentdb.Item{}, err
		}
	}
	it, err := s.Store.SaveDraft(ctx, id, base, slug, draft, by, s.now())
	return it, storeErr(err)
}

// Publish makes an item's working copy live, refused while it has a hard
// problem. A published page that changed address leaves a 301 from the
// old one (chains collapsed, no loops), and the pages the change touches
// are re-rendered on every instance.
func (s *Service) Publish(ctx context.Context, id string, base int, by Actor) (contentdb.Item, error) {
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	if err := s.publishable(ctx, cur); err != nil {
		return contentdb.Item{}, err
	}
	it, _, err := s.Store.PublishWith(ctx, id, base, by, s.now(), s.movePlan(cur, by))
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	s.answered(ctx, cur, it)
	s.audit(ctx, by, AuditPublish, it, "")
	s.Changed("published " + it.Kind + " " + it.LiveSlug)
	return it, nil
}

// answered takes a published item's addresses off the 404 monitor: its
// page answers at the new one, and a 301 at the old one.
func (s *Service) answered(ctx context.Context, before, after contentdb.Item) {
	for _, p := range []string{PathOf(after.Kind, after.LiveSlug), PathOf(before.Kind, before.LiveSlug)} {
		if p == "" {
			continue
		}
		if err := s.Store.DeleteNotFound(ctx, p); err != nil {
			s.Log.Warn("404 list not updated", "path", p, "err", err)
		}
	}
}

// publishable refuses a working copy with a hard problem, or whose page
// cannot be rendered.
func (s *Service) publishable(ctx context.Context, it contentdb.Item) error {
	problems, err := s.Problems(ctx, it)
	if err != nil {
		return err
	}
	if hard := content.HardProblems(problems); len(hard) > 0 {
		return &Invalid{Message: "Fix the problems marked before publishing: " + hard[0].Field + " " + hard[0].Message + ".", Problems: hard}
	}
	return s.renders(ctx, it)
}

// movePlan is a publish's redirect change: a page whose address changes
// leaves a 301 from the old address (and every redirect that led there
// now leads to the new one); a redirect from the new address goes, as a
// page answers there now.
func (s *Service) movePlan(cur contentdb.Item, by Actor) contentdb.RedirectPlan {
	from, to := PathOf(cur.Kind, cur.LiveSlug), PathOf(cur.Kind, cur.Slug)
	return func(current []contentdb.Redirect) ([]contentdb.Redirect, []string, error) {
		var remove []string
		rest := current[:0:0]
		for _, r := range current {
			if r.From == to {
				remove = append(remove, r.From)
			} else {
				rest = append(rest, r)
			}
		}
		if cur.LiveSlug == "" || from == to || from == "" {
			return nil, remove, nil
		}
		up, rm, err := planRedirect(rest, from, to, contentdb.SourceAuto, by.Name, s.now())
		return up, append(remove, rm...), err
	}
}

// Schedule publishes an item's working copy at a time to come (the
// publish job does it, once across instances). It is checked now as a
// publish would be.
func (s *Service) Schedule(ctx context.Context, id string, base int, at time.Time, by Actor) (contentdb.Item, error) {
	if !at.After(s.now()) {
		return contentdb.Item{}, ErrPast
	}
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	if err := s.publishable(ctx, cur); err != nil {
		return contentdb.Item{}, err
	}
	it, err := s.Store.Schedule(ctx, id, base, at, by, s.now())
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	s.audit(ctx, by, AuditSchedule, it, at.UTC().Format(time.RFC3339))
	return it, nil
}

// Unschedule cancels a schedule.
func (s *Service) Unschedule(ctx context.Context, id string, base int, by Actor) (contentdb.Item, error) {
	it, err := s.Store.Unschedule(ctx, id, base, by, s.now())
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	s.audit(ctx, by, AuditUnschedule, it, "")
	return it, nil
}

// PublishDue publishes every scheduled item that is due: the publish
// job's work. An item that can no longer be published (a problem came
// in with another change) stays scheduled and is reported.
func (s *Service) PublishDue(ctx context.Context) (string, error) {
	due, err := s.Store.Due(ctx, s.now())
	if err != nil {
		return "", err
	}
	var done, failed []string
	for _, it := range due {
		by := Actor{ID: it.UpdatedByID, Name: it.UpdatedBy}
		if err := s.publishable(ctx, it); err != nil {
			failed = append(failed, it.Slug)
			s.Log.Warn("scheduled content not published", "kind", it.Kind, "slug", it.Slug, "err", err)
			continue
		}
		pub, _, err := s.Store.PublishWith(ctx, it.ID, it.Version, by, s.now(), s.movePlan(it, by))
		if err != nil {
			// Another instance published it first, or an editor saved
			// since: the next run sees the new state.
			failed = append(failed, it.Slug)
			s.Log.Warn("scheduled content not published", "kind", it.Kind, "slug", it.Slug, "err", err)
			continue
		}
		s.answered(ctx, it, pub)
		s.audit(ctx, by, AuditPublish, pub, "scheduled")
		done = append(done, pub.Kind+" "+pub.LiveSlug)
	}
	if len(done) > 0 {
		s.Changed("scheduled publish: " + strings.Join(done, ", "))
	}
	switch {
	case len(done) == 0 && len(failed) == 0:
		return "", jobs.Skip("nothing due")
	case len(failed) > 0:
		return fmt.Sprintf("published %d, %d could not be: %s", len(done), len(failed), strings.Join(failed, ", ")), nil
	}
	return "published " + strings.Join(done, ", "), nil
}

// Unpublish takes a page down: it answers 404 and leaves the sitemap. A
// page other records refer to is refused with a *Referenced naming them
// (UnpublishDetaching removes the references first).
func (s *Service) Unpublish(ctx context.Context, id string, base int, by Actor) (contentdb.Item, error) {
	return s.UnpublishDetaching(ctx, id, base, Detach{}, by)
}

// Delete removes an item (its revisions stay readable in the history),
// refused as Unpublish is while other records refer to it.
func (s *Service) Delete(ctx context.Context, id string, base int, by Actor) (contentdb.Item, error) {
	return s.DeleteDetaching(ctx, id, base, Detach{}, by)
}

// Restore copies a revision into the working copy, as a new draft.
func (s *Service) Restore(ctx context.Context, id, revision string, base int, by Actor) (contentdb.Item, error) {
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	revs, err := s.Store.Revisions(ctx, id)
	if err != nil {
		return contentdb.Item{}, err
	}
	var rev *contentdb.Revision
	for i := range revs {
		if revs[i].ID == revision {
			rev = &revs[i]
		}
	}
	if rev == nil {
		return contentdb.Item{}, ErrNotFound
	}
	if rev.Slug != cur.Slug && !movable(cur.Kind) {
		return contentdb.Item{}, ErrFixedSlug
	}
	it, err := s.Store.Restore(ctx, id, revision, base, by, s.now())
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	s.audit(ctx, by, AuditRestore, it, fmt.Sprintf("revision %d", rev.Number))
	return it, nil
}

func (s *Service) audit(ctx context.Context, by Actor, action string, it contentdb.Item, detail string) {
	slug := it.Slug
	if slug == "" {
		slug = it.LiveSlug
	}
	d := it.Kind + " " + slug
	if detail != "" {
		d += " (" + detail + ")"
	}
	// The email names the account (two editors may share a display
	// name); the audit log shows the name beside it.
	who := by.Email
	if who == "" {
		who = by.Name
	}
	e := db.AuditEntry{At: s.now().UTC(), Actor: who, Action: action, Detail: d, IP: by.IP}
	if by.ID != "" && by.ID != "pin" && by.ID != seedActor {
		e.UserID = by.ID
	}
	if err := s.Audit.AddAudit(ctx, e); err != nil {
		s.Log.Error("audit log write failed", "action", action, "err", err)
	}
}

package editor

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// ImportReport says what an import changed.
type ImportReport struct {
	Published, Unchanged int
	// NotInFiles are live items the files do not have: left as they are
	// (an import never takes a page down).
	NotInFiles []string
	// Guidance are the files' problems that do not block.
	Guidance []content.Problem
}

// ImportError is an import refused: every problem found, and nothing
// changed.
type ImportError struct {
	Problems []string
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("nothing was imported; fix these %d problem(s) and import again:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// Import publishes content files (`site content import DIR`, read by
// content.ReadFolder): every record whose live copy differs is saved and
// published as by, and a record the database does not have is added
// (kinds that can be added). It is all or nothing: every record is
// checked first, as the admin checks a save and a publish (the rules, the
// address rules, the size rule, the media library's photos), and an
// *ImportError lists every problem; then every change is published in one
// transaction, so a refusal there (another editor saved meanwhile) changes
// nothing either. The pages are re-rendered once, at the end.
func (s *Service) Import(ctx context.Context, c *content.Set, by Actor) (ImportReport, error) {
	var rep ImportReport
	var problems []string
	all := c.Check()
	for _, p := range content.HardProblems(all) {
		problems = append(problems, p.String())
	}
	for _, p := range all {
		if !p.Hard {
			rep.Guidance = append(rep.Guidance, p)
		}
	}
	plan, err := s.planImport(ctx, c.Records(), by)
	if err != nil {
		return rep, err
	}
	problems = append(problems, plan.problems...)
	if len(problems) > 0 {
		return rep, &ImportError{Problems: problems}
	}
	rep.Unchanged = plan.unchanged
	seen := map[string]bool{}
	for _, r := range c.Records() {
		seen[r.Kind+"\x00"+r.Slug] = true
	}
	for _, it := range plan.all {
		if it.Live == "" || it.Status == contentdb.StatusUnpublished {
			continue // not on the site (as Store.Live)
		}
		if !seen[it.Kind+"\x00"+it.LiveSlug] {
			rep.NotInFiles = append(rep.NotInFiles, it.Kind+" "+it.LiveSlug)
		}
	}
	if len(plan.batch) == 0 {
		return rep, nil
	}
	published, err := s.Store.PublishBatch(ctx, plan.batch, by, s.now(), chainPlans(plan.moves))
	if err != nil {
		var be *contentdb.BatchError
		if errors.As(err, &be) {
			msg := storeErr(be.Err).Error()
			var conflict *contentdb.Conflict
			if errors.As(be.Err, &conflict) {
				msg = "was changed by " + conflict.By + " while the import ran"
			}
			return rep, &ImportError{Problems: []string{be.Kind + " " + be.Slug + ": " + msg}}
		}
		var re *RedirectError
		if errors.As(err, &re) {
			return rep, &ImportError{Problems: []string{re.Message}}
		}
		return rep, fmt.Errorf("nothing was imported: %w", err)
	}
	for i, pub := range published {
		s.answered(ctx, plan.before[i], pub)
		s.audit(ctx, by, AuditPublish, pub, "imported")
	}
	rep.Published = len(published)
	// A record may name one the import added after it: now it has an id.
	_, err = s.importedRefs(ctx, plan.all, plan.targets, published)
	s.Changed(fmt.Sprintf("content imported: %d published", rep.Published))
	if err != nil {
		return rep, fmt.Errorf("the import was published, but its references were not all stored as records (the next start of the site converts them): %w", err)
	}
	return rep, nil
}

// importPlan is what an import would change: the records to publish
// (with each item as it was, and its redirect change), how many are
// unchanged, and every problem found; all are the items it was planned
// on (as Store.All lists them), targets what each is called.
type importPlan struct {
	batch     []contentdb.BatchRecord
	before    []contentdb.Item
	moves     []contentdb.RedirectPlan
	unchanged int
	problems  []string
	all       []contentdb.Item
	targets   []copyTargets
}

// planImport matches every record to its item and checks it as a save
// and a publish from the admin would.
func (s *Service) planImport(ctx context.Context, records []content.Record, by Actor) (importPlan, error) {
	var p importPlan
	// References are stored as the records' ids (ADR 046): the files name
	// them by address, converted here against every record there is; one
	// the import adds is converted after the publish (importedRefs).
	// Everything is read once, and each record finds its item in a map,
	// so a record costs the same whatever the size of the site.
	all, err := s.Store.All(ctx)
	if err != nil {
		return p, err
	}
	p.all = all
	p.targets = make([]copyTargets, len(all))
	for i, it := range all {
		p.targets[i] = targetsOf(it)
	}
	index := indexOf(p.targets)
	// The item a record updates: the last (as List orders a kind) whose
	// working or live slug is the record's.
	at := map[string]int{}
	next := map[string]int{}
	for i, it := range all {
		at[it.Kind+"\x00"+it.Slug] = i
		at[it.Kind+"\x00"+it.LiveSlug] = i
		next[it.Kind] = max(next[it.Kind], it.Position+1)
	}
	for _, r := range records {
		name := r.Kind + " " + r.Slug
		refuse := func(msg string) { p.problems = append(p.problems, name+": "+msg) }
		if len(r.JSON) > content.MaxRecordBytes {
			refuse(fmt.Sprintf("is %d KB; a page can be at most %d KB", (len(r.JSON)+1023)/1024, content.MaxRecordBytes>>10))
			continue
		}
		data := string(r.JSON)
		if refers(r.Kind) {
			ids, _ := content.ToIDs(r.Kind, r.JSON, index)
			data = string(ids)
		}
		var cur *contentdb.Item
		if i, ok := at[r.Kind+"\x00"+r.Slug]; ok {
			cur = &all[i]
		}
		rec := contentdb.BatchRecord{Kind: r.Kind, Slug: r.Slug, JSON: data}
		before := contentdb.Item{Kind: r.Kind}
		switch {
		case cur == nil && !Creatable(r.Kind):
			refuse("is not on the site, and pages of this kind can be edited but not added")
			continue
		case cur == nil:
			if err := slugProblem(r.Kind, r.Slug); err != nil {
				refuse(err.Error())
				continue
			}
			rec.Position = next[r.Kind]
			next[r.Kind]++
		case cur.Live == data && cur.LiveSlug == r.Slug && cur.Draft == data && cur.Slug == r.Slug:
			p.unchanged++
			continue
		default:
			rec.ID, rec.Base = cur.ID, cur.Version
			before = *cur
		}
		for _, pr := range s.photoProblems(ctx, contentdb.Item{Kind: r.Kind, Slug: r.Slug, Draft: data}) {
			refuse("field " + pr.Field + ": " + pr.Message)
		}
		p.batch = append(p.batch, rec)
		p.before = append(p.before, before)
		moved := before
		moved.Slug = r.Slug
		p.moves = append(p.moves, s.movePlan(moved, by))
	}
	return p, nil
}

// chainPlans runs redirect plans one after the other on the redirects as
// each leaves them, and returns the change from the current redirects to
// the last state: one redirect change for a batch.
func chainPlans(plans []contentdb.RedirectPlan) contentdb.RedirectPlan {
	return func(current []contentdb.Redirect) ([]contentdb.Redirect, []string, error) {
		state := map[string]contentdb.Redirect{}
		for _, r := range current {
			state[r.From] = r
		}
		list := func() []contentdb.Redirect {
			out := make([]contentdb.Redirect, 0, len(state))
			for _, r := range state {
				out = append(out, r)
			}
			sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
			return out
		}
		for _, plan := range plans {
			up, rm, err := plan(list())
			if err != nil {
				return nil, nil, err
			}
			for _, from := range rm {
				delete(state, from)
			}
			for _, r := range up {
				state[r.From] = r
			}
		}
		var upsert []contentdb.Redirect
		var remove []string
		was := map[string]contentdb.Redirect{}
		for _, r := range current {
			was[r.From] = r
			if _, ok := state[r.From]; !ok {
				remove = append(remove, r.From)
			}
		}
		for _, r := range list() {
			if w, ok := was[r.From]; !ok || w.To != r.To || w.Source != r.Source || w.CreatedBy != r.CreatedBy || !w.CreatedAt.Equal(r.CreatedAt) {
				upsert = append(upsert, r)
			}
		}
		return upsert, remove, nil
	}
}

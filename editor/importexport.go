package editor

import (
	"context"
	"fmt"
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

// Import publishes content files (`site content import DIR`): every
// record whose live copy differs is saved and published as by, a record
// the database does not have is added (kinds that can be added). It
// refuses files with a hard problem and changes nothing then. The pages
// are re-rendered once, at the end.
func (s *Service) Import(ctx context.Context, c *content.Site, by Actor) (ImportReport, error) {
	var rep ImportReport
	problems := c.Check()
	if hard := content.HardProblems(problems); len(hard) > 0 {
		lines := make([]string, len(hard))
		for i, p := range hard {
			lines[i] = p.String()
		}
		return rep, fmt.Errorf("the files have problems that block a publish:\n  %s", strings.Join(lines, "\n  "))
	}
	for _, p := range problems {
		rep.Guidance = append(rep.Guidance, p)
	}
	live, err := s.Store.Live(ctx)
	if err != nil {
		return rep, err
	}
	seen := map[string]bool{}
	for _, r := range c.Records() {
		seen[r.Kind+"\x00"+r.Slug] = true
		changed, err := s.importRecord(ctx, r, by)
		if err != nil {
			return rep, fmt.Errorf("%s %s: %w", r.Kind, r.Slug, err)
		}
		if changed {
			rep.Published++
		} else {
			rep.Unchanged++
		}
	}
	for _, it := range live {
		if !seen[it.Kind+"\x00"+it.LiveSlug] {
			rep.NotInFiles = append(rep.NotInFiles, it.Kind+" "+it.LiveSlug)
		}
	}
	// A record may name one the import added after it: now it has an id.
	if _, err := s.MigrateRefs(ctx); err != nil {
		return rep, err
	}
	if rep.Published > 0 {
		s.Changed(fmt.Sprintf("content imported: %d published", rep.Published))
	}
	return rep, nil
}

// importRecord publishes one record when it differs from what is live.
func (s *Service) importRecord(ctx context.Context, r content.Record, by Actor) (bool, error) {
	items, err := s.Store.List(ctx, r.Kind)
	if err != nil {
		return false, err
	}
	var cur *contentdb.Item
	for i := range items {
		if items[i].Slug == r.Slug || items[i].LiveSlug == r.Slug {
			cur = &items[i]
		}
	}
	data, err := s.toIDs(ctx, r.Kind, string(r.JSON))
	if err != nil {
		return false, err
	}
	if cur == nil {
		if !Creatable(r.Kind) {
			return false, ErrNotCreatable
		}
		it, err := s.Store.Create(ctx, r.Kind, r.Slug, data, r.Position, by, s.now())
		if err != nil {
			return false, storeErr(err)
		}
		cur = &it
	} else {
		if cur.Live == data && cur.LiveSlug == r.Slug && cur.Draft == data {
			return false, nil
		}
		it, err := s.Store.SaveDraft(ctx, cur.ID, cur.Version, r.Slug, data, by, s.now())
		if err != nil {
			return false, storeErr(err)
		}
		cur = &it
	}
	pub, _, err := s.Store.PublishWith(ctx, cur.ID, cur.Version, by, s.now(), s.movePlan(*cur, by))
	if err != nil {
		return false, storeErr(err)
	}
	s.answered(ctx, *cur, pub)
	s.audit(ctx, by, AuditPublish, pub, "imported")
	return true, nil
}

package editor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// References by identity (ADR 046). The database holds item ids
// where a record refers to another (a city's nearby cities and services,
// a county's major cities, a post's category); the pages, the rules and
// the files see the readable form of the live records (content.ToKeys),
// so a rename changes every page that shows the renamed record in the
// publish that renames it, and leaves every referring record publishable.

// target is what an item is called in its working copy (live: its live
// copy); ok is false for kinds nothing refers to.
func target(it contentdb.Item, live bool) (content.RefTarget, bool) {
	if live {
		if it.Live == "" {
			return content.RefTarget{}, false
		}
		return content.TargetOf(it.ID, it.Kind, it.LiveSlug, []byte(it.Live))
	}
	return content.TargetOf(it.ID, it.Kind, it.Slug, []byte(it.Draft))
}

// liveIndex indexes what the public site serves: the live copies.
func liveIndex(items []contentdb.Item) *content.RefIndex {
	var ts []content.RefTarget
	for _, it := range items {
		if t, ok := target(it, true); ok {
			ts = append(ts, t)
		}
	}
	return content.NewRefIndex(ts)
}

// fullIndex indexes every item by its working copy and then by its live
// copy: it resolves what an editor or a file names (either name or
// address) and names a target as the editor shows it.
func fullIndex(items []contentdb.Item) *content.RefIndex {
	ts := make([]copyTargets, len(items))
	for i, it := range items {
		ts[i] = targetsOf(it)
	}
	return indexOf(ts)
}

// copyTargets are what an item is called in its working copy and in its
// live copy (ok false: none), read once for the indexes an import builds.
type copyTargets struct {
	kind           string
	work, live     content.RefTarget
	workOK, liveOK bool
}

func targetsOf(it contentdb.Item) copyTargets {
	c := copyTargets{kind: it.Kind}
	c.work, c.workOK = target(it, false)
	c.live, c.liveOK = target(it, true)
	return c
}

// indexOf is fullIndex of the items whose targets are ts, in their order.
func indexOf(ts []copyTargets) *content.RefIndex {
	list := make([]content.RefTarget, 0, 2*len(ts))
	for _, c := range ts {
		if c.workOK {
			list = append(list, c.work)
		}
	}
	for _, c := range ts {
		if c.liveOK {
			list = append(list, c.live)
		}
	}
	return content.NewRefIndex(list)
}

// readable turns records' ids into the readable form of the targets in ix.
func readable(rs []content.Record, ix *content.RefIndex) []content.Record {
	for i := range rs {
		rs[i].JSON, _ = content.ToKeys(rs[i].Kind, rs[i].JSON, ix)
	}
	return rs
}

// toIDs converts what an editor or a file sends into the stored form:
// readable references become ids (ids stay).
func (s *Service) toIDs(ctx context.Context, kind, data string) (string, error) {
	if !refers(kind) {
		return data, nil
	}
	all, err := s.Store.All(ctx)
	if err != nil {
		return "", err
	}
	out, _ := content.ToIDs(kind, []byte(data), fullIndex(all))
	return string(out), nil
}

func refers(kind string) bool {
	for _, f := range content.RefFields {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// MigrateRefs converts stored references to ids: the items' working and
// live copies and the revisions (so a restore brings ids back). It runs
// at every boot after seeding, once across instances (an import
// converts only what it can have left: importedRefs); what is already
// converted is left alone, so it changes nothing the second time. A
// value that names no record stays as written, for the rules to report.
func (s *Service) MigrateRefs(ctx context.Context) (int, error) {
	n, err := s.Store.RewriteRefs(ctx, func(all []contentdb.Item) contentdb.RefRewrite {
		return toIDsRewrite(all, fullIndex(all))
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		s.Log.Info("content references converted to ids", "rows", n)
	}
	return n, nil
}

// toIDsRewrite converts the references of items, and of revisions, that
// ix resolves; only the rows that change are written.
func toIDsRewrite(items []contentdb.Item, ix *content.RefIndex) contentdb.RefRewrite {
	var rw contentdb.RefRewrite
	for _, it := range items {
		draft, dc := content.ToIDs(it.Kind, []byte(it.Draft), ix)
		c := contentdb.RefChange{ID: it.ID, Draft: string(draft)}
		lc := false
		if it.Live != "" {
			var live []byte
			live, lc = content.ToIDs(it.Kind, []byte(it.Live), ix)
			l := string(live)
			c.Live = &l
		}
		if dc || lc {
			rw.Items = append(rw.Items, c)
		}
	}
	rw.Revision = func(kind, data string) (string, bool) {
		out, ok := content.ToIDs(kind, []byte(data), ix)
		return string(out), ok
	}
	return rw
}

// importedRefs converts, after an import's publish, the references that
// could not be converted before it: those naming a record the import
// published under a new address or name (one it added, moved or renamed).
// They can only be in the records it published, and in records that
// still hold such an address or name as written (a county's major city
// that was not a city yet, a draft). So it converts the published items
// and the items and revisions holding one of those addresses or names as
// a string: one read of the rows of the kinds that can refer to them, a
// byte scan of each (refMatcher, no JSON decoded), and only the rows that
// change are written. The index is the site as the publish left it:
// before are the items (and beforeTargets their targets) as the import
// read them, with the published ones replaced. Another value left as
// written (one naming a record the import did not change) is the boot's
// conversion, as before.
func (s *Service) importedRefs(ctx context.Context, before []contentdb.Item, beforeTargets []copyTargets, published []contentdb.Item) (int, error) {
	pub := map[string]int{}
	for i, it := range published {
		pub[it.ID] = i
	}
	after := make([]copyTargets, 0, len(before)+len(published))
	was := map[string]copyTargets{}
	for i, it := range before {
		if j, ok := pub[it.ID]; ok {
			was[it.ID] = beforeTargets[i]
			after = append(after, targetsOf(published[j]))
			continue
		}
		after = append(after, beforeTargets[i])
	}
	scope := contentdb.RefScope{IDs: make([]string, 0, len(published))}
	m := refMatcher{exact: map[string]bool{}, folded: map[string]bool{}}
	kinds := map[string]bool{}
	for _, it := range published {
		scope.IDs = append(scope.IDs, it.ID)
		now := targetsOf(it)
		old, existed := was[it.ID]
		if !existed {
			after = append(after, now) // a new item: last of its kind, as All lists it
		}
		if !now.liveOK || (existed && sameTarget(old.work, now.live) && sameTarget(old.live, now.live)) {
			continue
		}
		for _, f := range content.RefFields {
			if f.Target == it.Kind {
				kinds[f.Kind] = true
				m.add(f, now.live)
			}
		}
	}
	if len(kinds) > 0 {
		scope.Kinds = slices.Sorted(maps.Keys(kinds))
		scope.Holds = m.holds
	}
	slices.SortStableFunc(after, func(a, b copyTargets) int { return strings.Compare(a.kind, b.kind) })
	ix := indexOf(after)
	n, err := s.Store.RewriteRefsIn(ctx, scope, func(items []contentdb.Item) contentdb.RefRewrite {
		return toIDsRewrite(items, ix)
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		s.Log.Info("imported references converted to ids", "rows", n)
	}
	return n, nil
}

func sameTarget(a, b content.RefTarget) bool { return a.Key == b.Key && a.Name == b.Name }

// refMatcher finds the records that may name some targets as a file or
// an editor writes them (content.RefIndex's resolve): by address (a
// city's slug or "county/slug", a service's or category's slug), or by a
// name in any case (a county's major cities, a city's services).
type refMatcher struct {
	exact, folded map[string]bool
	longest       int // bytes of the longest folded name
}

func (m *refMatcher) add(f content.RefField, t content.RefTarget) {
	switch {
	case f.Kind == content.KindCounty && f.Target == content.KindCity:
		m.addName(t.Name)
	case f.Target == content.KindService:
		m.exact[t.Key] = true
		m.addName(t.Name)
	default:
		m.exact[t.Key] = true
		m.exact[t.Slug()] = true
	}
}

func (m *refMatcher) addName(name string) {
	k := content.FoldKey(name)
	m.folded[k] = true
	m.longest = max(m.longest, len(name), len(k))
}

// holds reports whether one of the strings of a record's JSON (spaces
// around it aside) is one of m's. It scans the bytes once (for quotes,
// as strings.IndexByte does) and decodes only a string with an escape,
// so a row costs about a copy of it however many targets m has: every
// row of a kind can be tested for an import of any size. JSON it cannot
// read is kept (the conversion decides).
func (m *refMatcher) holds(data string) bool {
	for {
		i := strings.IndexByte(data, '"')
		if i < 0 {
			return false
		}
		data = data[i+1:]
		end, esc := 0, false
		for {
			q := strings.IndexByte(data[end:], '"')
			if q < 0 {
				return true
			}
			if b := strings.IndexByte(data[end:end+q], '\\'); b >= 0 {
				esc, end = true, end+b+2 // past the escaped character
				if end > len(data) {
					return true
				}
				continue
			}
			end += q
			break
		}
		v := data[:end]
		data = data[end+1:]
		if esc && json.Unmarshal([]byte(`"`+v+`"`), &v) != nil {
			return true
		}
		if m.has(strings.TrimSpace(v)) {
			return true
		}
	}
}

// has reports whether v is one of m's addresses, or one of its names in
// any case.
func (m *refMatcher) has(v string) bool {
	if m.exact[v] {
		return true
	}
	// A fold changes a rune's length by at most two bytes.
	if len(m.folded) == 0 || len(v) > 3*m.longest {
		return false
	}
	var buf [128]byte
	if len(v) <= len(buf) {
		ascii := true
		for i := 0; i < len(v) && ascii; i++ {
			c := v[i]
			ascii = c < 0x80
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A' // an ASCII letter's orbit starts with its capital
			}
			buf[i] = c
		}
		if ascii {
			return m.folded[string(buf[:len(v)])]
		}
	}
	return m.folded[content.FoldKey(v)]
}

// refProblems are a working copy's references that the live site cannot
// show: a record deleted since (hard: it can only be removed) or one not
// published (guidance: it shows once it is).
func (s *Service) refProblems(ctx context.Context, it contentdb.Item, live *content.RefIndex) []content.Problem {
	var out []content.Problem
	for _, r := range content.RefsOf(it.Kind, []byte(it.Draft)) {
		if _, ok := live.Target(r.ID); ok {
			continue
		}
		what := map[string]string{content.KindCity: "a city", content.KindService: "a service", content.KindCategory: "a category"}[r.Field.Target]
		o, err := s.Store.Get(ctx, r.ID)
		if err != nil {
			out = append(out, content.Problem{Kind: it.Kind, Slug: it.Slug, Field: r.Field.Path, Hard: true,
				Message: "names " + what + " that has been deleted: remove it"})
			continue
		}
		name := titleOfItem(o)
		if r.Field.Required {
			out = append(out, content.Problem{Kind: it.Kind, Slug: it.Slug, Field: r.Field.Path, Hard: true,
				Message: fmt.Sprintf("%q is not published: publish it or choose another", name)})
			continue
		}
		out = append(out, content.Problem{Kind: it.Kind, Slug: it.Slug, Field: r.Field.Path,
			Message: fmt.Sprintf("names %s, which is not published: it shows here once it is", name)})
	}
	return out
}

// titleOfItem is an item's name as the owner knows it (its working copy's
// title, name or city).
func titleOfItem(it contentdb.Item) string {
	var m map[string]any
	json.Unmarshal([]byte(it.Draft), &m)
	for _, k := range []string{"title", "name", "city", "cityName"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return it.Slug
}

// Referrer is a record that refers to another: its name, kind, and the
// fields (as the editor labels them) that hold the reference.
type Referrer struct {
	ID     string   `json:"id"`
	Kind   string   `json:"kind" tstype:"Kind"`
	Title  string   `json:"title"`
	Fields []string `json:"fields"`
}

// Referenced refuses to take down a record that others refer to, naming
// them; Replace says a replacement must be chosen (a post needs a
// category), not only the references removed.
type Referenced struct {
	Message   string
	Referrers []Referrer
	Replace   bool
}

func (e *Referenced) Error() string { return e.Message }

// Detach says what to do with the references to a record being taken
// down: Remove them from every record that holds one, putting Replace
// (another record's id) in their place where it is not "".
type Detach struct {
	Remove  bool
	Replace string
}

// referrers lists the items other than id whose working or live copy
// refers to id.
func referrers(all []contentdb.Item, id string) []Referrer {
	var out []Referrer
	for _, it := range all {
		if it.ID == id {
			continue
		}
		var fields []string
		seen := map[string]bool{}
		for _, data := range []string{it.Draft, it.Live} {
			for _, r := range content.RefsOf(it.Kind, []byte(data)) {
				if r.ID == id && !seen[r.Field.Label] {
					seen[r.Field.Label] = true
					fields = append(fields, r.Field.Label)
				}
			}
		}
		if len(fields) > 0 {
			title := titleOfItem(it)
			if it.Kind == content.KindCounty {
				title += " County"
			}
			out = append(out, Referrer{ID: it.ID, Kind: it.Kind, Title: title, Fields: fields})
		}
	}
	return out
}

// Referrers lists the records that refer to an item.
func (s *Service) Referrers(ctx context.Context, id string) ([]Referrer, error) {
	all, err := s.Store.All(ctx)
	if err != nil {
		return nil, err
	}
	out := referrers(all, id)
	if out == nil {
		out = []Referrer{}
	}
	return out, nil
}

// requiredRef reports whether a kind is the target of a reference a
// record cannot be published without.
func requiredRef(kind string) bool {
	for _, f := range content.RefFields {
		if f.Target == kind && f.Required {
			return true
		}
	}
	return false
}

// detachPlan removes (or replaces) every reference to target, refusing
// when records refer to it and d does not say to remove them. It runs
// inside the take-down's transaction, on the items as they are there.
func detachPlan(target contentdb.Item, d Detach) contentdb.DetachPlan {
	return func(all []contentdb.Item) ([]contentdb.RefChange, error) {
		refs := referrers(all, target.ID)
		if len(refs) == 0 {
			return nil, nil
		}
		names := make([]string, len(refs))
		for i, r := range refs {
			names[i] = r.Title
		}
		what := titleOfItem(target)
		if !d.Remove {
			msg := fmt.Sprintf("%s is listed on the pages of %s. Remove it from them first, or let us remove it for you.", what, joinNames(names))
			if requiredRef(target.Kind) {
				msg = fmt.Sprintf("%s is the category of %s. Choose another category for them first.", what, joinNames(names))
			}
			return nil, &Referenced{Message: msg, Referrers: refs, Replace: requiredRef(target.Kind)}
		}
		if requiredRef(target.Kind) {
			ok := false
			for _, it := range all {
				ok = ok || (it.ID == d.Replace && it.ID != target.ID && it.Kind == target.Kind && it.Live != "")
			}
			if !ok {
				return nil, &Referenced{Message: fmt.Sprintf("Choose another published category for %s.", joinNames(names)), Referrers: refs, Replace: true}
			}
		} else {
			d.Replace = ""
		}
		var out []contentdb.RefChange
		for _, it := range all {
			if it.ID == target.ID {
				continue
			}
			draft, dc := content.ReplaceRef(it.Kind, []byte(it.Draft), target.ID, d.Replace)
			c := contentdb.RefChange{ID: it.ID, Draft: string(draft)}
			lc := false
			if it.Live != "" {
				var live []byte
				if live, lc = content.ReplaceRef(it.Kind, []byte(it.Live), target.ID, d.Replace); lc {
					l := string(live)
					c.Live = &l
				}
			}
			if dc || lc {
				out = append(out, c)
			}
		}
		return out, nil
	}
}

func joinNames(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// UnpublishDetaching takes a page down as Unpublish does, first removing
// the references to it as d says, all in one transaction. Without
// d.Remove, a page others refer to is refused with a *Referenced naming
// them.
func (s *Service) UnpublishDetaching(ctx context.Context, id string, base int, d Detach, by Actor) (contentdb.Item, error) {
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	if !Creatable(cur.Kind) {
		return contentdb.Item{}, ErrNotCreatable
	}
	it, changed, err := s.Store.UnpublishDetaching(ctx, id, base, detachPlan(cur, d), by, s.now())
	if err != nil {
		return contentdb.Item{}, refusal(err)
	}
	s.detached(ctx, by, changed, cur)
	s.audit(ctx, by, AuditUnpublish, cur, "")
	s.Changed("unpublished " + cur.Kind + " " + cur.LiveSlug)
	return it, nil
}

// DeleteDetaching deletes an item as Delete does, first removing the
// references to it as d says, all in one transaction.
func (s *Service) DeleteDetaching(ctx context.Context, id string, base int, d Detach, by Actor) (contentdb.Item, error) {
	cur, err := s.Store.Get(ctx, id)
	if err != nil {
		return contentdb.Item{}, storeErr(err)
	}
	if !Creatable(cur.Kind) {
		return contentdb.Item{}, ErrNotCreatable
	}
	it, changed, err := s.Store.DeleteDetaching(ctx, id, base, detachPlan(cur, d), by, s.now())
	if err != nil {
		return contentdb.Item{}, refusal(err)
	}
	s.detached(ctx, by, changed, cur)
	s.audit(ctx, by, AuditDelete, it, "")
	if it.LiveSlug != "" || len(changed) > 0 {
		s.Changed("deleted " + it.Kind + " " + it.Slug)
	}
	return it, nil
}

func refusal(err error) error {
	var r *Referenced
	if errors.As(err, &r) {
		return r
	}
	return storeErr(err)
}

// detached records in the audit log each record a take-down changed.
func (s *Service) detached(ctx context.Context, by Actor, changed []contentdb.Item, target contentdb.Item) {
	for _, it := range changed {
		s.audit(ctx, by, AuditPublish, it, "reference to "+target.Kind+" "+target.Slug+" removed")
	}
}

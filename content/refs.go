package content

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
)

// References between records (ADR 046). In the database a
// record names another by the other's item id (db/contentdb), which no
// rename changes; in the files (the embedded content/, `site content
// export/import`) it names it in a readable form: a city's slug, a
// service's or a city's name, a category's slug. ToIDs and ToKeys
// convert between the two at those boundaries, and the pages are built
// from the readable form of the live records, so a page always shows the
// current name and address of what it refers to.

// RefField is one field of a kind that refers to records of another kind.
type RefField struct {
	Kind   string // the referring record's kind
	Path   string // the field's JSON path ("profile.majorCities")
	Target string // the kind referred to
	// Single: the field holds one reference, not a list.
	Single bool
	// Required: the record cannot be published without one (a post's
	// category), so the reference can be replaced but not removed.
	Required bool
	// Label is the field as the editor names it.
	Label string
}

// RefFields are every reference between records.
var RefFields = []RefField{
	{Kind: KindCity, Path: "nearby", Target: KindCity, Label: "Nearby cities"},
	{Kind: KindCity, Path: "services", Target: KindService, Label: "Services offered"},
	{Kind: KindCounty, Path: "profile.majorCities", Target: KindCity, Label: "Major cities"},
	{Kind: KindArticle, Path: "category", Target: KindCategory, Single: true, Required: true, Label: "Category"},
}

// Referable reports whether records of a kind can be referred to.
func Referable(kind string) bool {
	for _, f := range RefFields {
		if f.Target == kind {
			return true
		}
	}
	return false
}

var idRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsID reports whether s has the form of an item id (a uuid).
func IsID(s string) bool { return idRE.MatchString(s) }

// RefTarget is a record others may refer to: its item id, kind, key
// (a city's "county/slug") and the name the owner knows it by.
type RefTarget struct {
	ID, Kind, Key, Name string
}

// County is a city target's county slug.
func (t RefTarget) County() string { c, _, _ := strings.Cut(t.Key, "/"); return c }

// Slug is a target's slug within its county (a city) or kind.
func (t RefTarget) Slug() string {
	if _, s, ok := strings.Cut(t.Key, "/"); ok {
		return s
	}
	return t.Key
}

// TargetOf reads what a referable record is called from its JSON; ok is
// false for kinds nothing refers to, or JSON that cannot be read.
func TargetOf(id, kind, key string, data []byte) (RefTarget, bool) {
	if !Referable(kind) {
		return RefTarget{}, false
	}
	var v struct {
		City  string `json:"city"`
		Title string `json:"title"`
		Name  string `json:"name"`
	}
	if json.Unmarshal(data, &v) != nil {
		return RefTarget{}, false
	}
	t := RefTarget{ID: id, Kind: kind, Key: key}
	switch kind {
	case KindCity:
		t.Name = v.City
	case KindService:
		t.Name = v.Title
	case KindCategory:
		t.Name = v.Name
	}
	return t, true
}

// RefIndex finds targets by id and by their readable forms. Every
// lookup is a map read, so converting a record costs the same with 80
// cities as with 2,000: each form maps to its first listing in all,
// which is the target a scan of all in order would find first.
type RefIndex struct {
	byID map[string]RefTarget
	all  []RefTarget
	// first listing of each form: kind+key, a city's county+slug, a
	// city's slug, kind+folded name, a city's county+folded name
	byKey, byHomeSlug, bySlug, byName, byHomeName map[string]int
	// citySlugs counts the cities (by id) with each slug
	citySlugs map[string]int
}

// NewRefIndex indexes targets. A target may be listed more than once
// (its working and its live copy, with another slug or name): the first
// listing is what ToKeys writes; every listing resolves in ToIDs.
func NewRefIndex(ts []RefTarget) *RefIndex {
	ix := &RefIndex{byID: map[string]RefTarget{}, all: ts,
		byKey: map[string]int{}, byHomeSlug: map[string]int{}, bySlug: map[string]int{},
		byName: map[string]int{}, byHomeName: map[string]int{}, citySlugs: map[string]int{}}
	first := func(m map[string]int, k string, i int) {
		if _, ok := m[k]; !ok {
			m[k] = i
		}
	}
	for i, t := range ts {
		if _, ok := ix.byID[t.ID]; !ok {
			ix.byID[t.ID] = t
			if t.Kind == KindCity {
				ix.citySlugs[t.Slug()]++
			}
		}
		first(ix.byKey, t.Kind+"\x00"+t.Key, i)
		first(ix.byName, t.Kind+"\x00"+FoldKey(t.Name), i)
		if t.Kind == KindCity {
			first(ix.byHomeSlug, t.County()+"\x00"+t.Slug(), i)
			first(ix.bySlug, t.Slug(), i)
			first(ix.byHomeName, t.County()+"\x00"+FoldKey(t.Name), i)
		}
	}
	return ix
}

// FoldKey is the same string for any two strings strings.EqualFold finds
// equal: each rune replaced by the smallest of its case-folding orbit.
func FoldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// Target returns the target with this id.
func (ix *RefIndex) Target(id string) (RefTarget, bool) { t, ok := ix.byID[id]; return t, ok }

// resolve finds the id a readable value names: in a city's nearby list a
// slug ("smyrna", a city of the same county first) or a key
// ("cobb/smyrna"); in a county's major cities a name of a city of that
// county; a service by slug or title; a category by slug. Where several
// targets match, the first listed wins.
func (ix *RefIndex) resolve(f RefField, home, v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", false
	}
	if _, ok := ix.byID[v]; ok {
		return v, true
	}
	found := func(m map[string]int, k string) (string, bool) {
		if i, ok := m[k]; ok {
			return ix.all[i].ID, true
		}
		return "", false
	}
	switch {
	case f.Kind == KindCounty && f.Target == KindCity:
		return found(ix.byHomeName, home+"\x00"+FoldKey(v))
	case f.Target == KindCity:
		if strings.Contains(v, "/") {
			return found(ix.byKey, KindCity+"\x00"+v)
		}
		// the same county first, then any
		if id, ok := found(ix.byHomeSlug, home+"\x00"+v); ok {
			return id, true
		}
		return found(ix.bySlug, v)
	case f.Target == KindService:
		i, ok := ix.byKey[KindService+"\x00"+v]
		if j, ok2 := ix.byName[KindService+"\x00"+FoldKey(v)]; ok2 && (!ok || j < i) {
			i, ok = j, true
		}
		if ok {
			return ix.all[i].ID, true
		}
		return "", false
	}
	return found(ix.byKey, f.Target+"\x00"+v)
}

// readable is how the files name a target in a field.
func (ix *RefIndex) readable(f RefField, t RefTarget) string {
	switch {
	case f.Kind == KindCounty && f.Target == KindCity, f.Target == KindService:
		return t.Name
	case f.Target == KindCity:
		// a plain slug when no other city has it
		others := ix.citySlugs[t.Slug()]
		if o, ok := ix.byID[t.ID]; ok && o.Kind == KindCity && o.Slug() == t.Slug() {
			others-- // t itself
		}
		if others > 0 {
			return t.Key
		}
		return t.Slug()
	}
	return t.Key
}

// record is a record's JSON as a map, numbers kept as written.
type record map[string]any

func parseRecord(data []byte) (record, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m record
	if dec.Decode(&m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

func (m record) bytes() []byte {
	b, err := json.Marshal(map[string]any(m)) // as the editor stores a record
	if err != nil {
		panic(err) // a map read from JSON always encodes
	}
	return b
}

// values reads a reference field: its values, and whether it is there.
func (m record) values(f RefField) []string {
	parent, name := m.parent(f.Path)
	if parent == nil {
		return nil
	}
	switch v := parent[name].(type) {
	case string:
		if f.Single && v != "" {
			return []string{v}
		}
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (m record) set(f RefField, vs []string) {
	parent, name := m.parent(f.Path)
	if parent == nil {
		return
	}
	if f.Single {
		v := ""
		if len(vs) > 0 {
			v = vs[0]
		}
		parent[name] = v
		return
	}
	list := make([]any, len(vs))
	for i, v := range vs {
		list[i] = v
	}
	parent[name] = list
}

func (m record) parent(path string) (map[string]any, string) {
	cur := map[string]any(m)
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil, ""
		}
		cur = next
	}
	return cur, parts[len(parts)-1]
}

// home is the county a record's readable references are relative to.
func (m record) home(kind string) string {
	key := "slug"
	if kind == KindCity {
		key = "county"
	}
	s, _ := m[key].(string)
	return s
}

// rewrite applies fn to each reference field of a record of kind; the
// JSON is rewritten only when a field changed (the same bytes otherwise).
func rewrite(kind string, data []byte, fn func(f RefField, m record, vs []string) []string) ([]byte, bool) {
	var m record
	changed := false
	for _, f := range RefFields {
		if f.Kind != kind {
			continue
		}
		if m == nil {
			var ok bool
			if m, ok = parseRecord(data); !ok {
				return data, false
			}
		}
		vs := m.values(f)
		if vs == nil {
			continue
		}
		out := fn(f, m, vs)
		if !equalStrings(vs, out) {
			m.set(f, out)
			changed = true
		}
	}
	if !changed {
		return data, false
	}
	return m.bytes(), true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ToIDs turns a record's readable references into item ids (files to
// database). What names no target is kept as written, for the rules to
// report (Check: "names "x", which is not another city").
func ToIDs(kind string, data []byte, ix *RefIndex) ([]byte, bool) {
	return rewrite(kind, data, func(f RefField, m record, vs []string) []string {
		out := make([]string, 0, len(vs))
		for _, v := range vs {
			if id, ok := ix.resolve(f, m.home(kind), v); ok {
				v = id
			}
			out = append(out, v)
		}
		return out
	})
}

// ToKeys turns a record's ids into the readable form of the targets in
// ix (database to files and pages). An id ix does not have (a record not
// live, or deleted) is left out: a page shows only what is live.
func ToKeys(kind string, data []byte, ix *RefIndex) ([]byte, bool) {
	return rewrite(kind, data, func(f RefField, _ record, vs []string) []string {
		out := make([]string, 0, len(vs))
		for _, v := range vs {
			if IsID(v) {
				t, ok := ix.byID[v]
				if !ok {
					continue
				}
				v = ix.readable(f, t)
			}
			out = append(out, v)
		}
		return out
	})
}

// Ref is one reference held by a record.
type Ref struct {
	Field RefField
	ID    string
}

// RefsOf lists the ids a record of kind refers to.
func RefsOf(kind string, data []byte) []Ref {
	var out []Ref
	var m record
	for _, f := range RefFields {
		if f.Kind != kind {
			continue
		}
		if m == nil {
			var ok bool
			if m, ok = parseRecord(data); !ok {
				return nil
			}
		}
		for _, v := range m.values(f) {
			if IsID(v) {
				out = append(out, Ref{Field: f, ID: v})
			}
		}
	}
	return out
}

// ReplaceRef takes id out of a record's references, putting with in its
// place when with is not "" (a post's category must name one), never
// listing a target twice.
func ReplaceRef(kind string, data []byte, id, with string) ([]byte, bool) {
	return rewrite(kind, data, func(_ RefField, _ record, vs []string) []string {
		out := make([]string, 0, len(vs))
		seen := map[string]bool{}
		for _, v := range vs {
			if v == id {
				v = with
			}
			if v == "" || seen[v] {
				continue
			}
			seen[v] = true
			out = append(out, v)
		}
		return out
	})
}

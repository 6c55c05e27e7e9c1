package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// Content as records: once the site runs, the owner edits the
// content from the admin and the database holds it, one record per
// service, county, city, fixed city page, blog category, article, info
// page, FAQ block and the home page's texts. The embedded files seed an
// empty database and stay the defaults of tests and a fresh install;
// Records and FromRecords convert between the two, and both paths go
// through the same checks (Check).

// Record kinds.
const (
	KindService     = "service"
	KindCounty      = "county"
	KindCity        = "city"
	KindCityProfile = "city-profile"
	KindCategory    = "category"
	KindArticle     = "article"
	KindPage        = "page"
	KindFAQ         = "faq"
	KindHome        = "home"
)

// Kinds are the record kinds in the order a site is built from them.
var Kinds = []string{KindService, KindCounty, KindCity, KindCityProfile, KindCategory, KindArticle, KindPage, KindFAQ, KindHome, KindWords}

// AddedKinds are the kinds added after databases were first seeded: a
// database that lacks their records gets them at boot, with the embedded
// defaults (editor.Service.Seed). Their records are never deleted.
var AddedKinds = []string{KindWords}

// Record is one content record: its kind, its key within the kind (a
// city's is "county/slug", a fixed city page's its key, a FAQ block's its
// name), its JSON, its place in its kind's order, and when its live copy
// was published.
type Record struct {
	Kind     string
	Slug     string
	JSON     []byte
	Position int
	// PublishedAt is when the record's live copy was published (nil:
	// unknown, as for the embedded files and the copies seeded from them).
	PublishedAt *time.Time
	// Origin is the key the record had in the embedded files it was
	// seeded from ("" for a record the owner added): the code names
	// records by it (Set.CityByOrigin), so a rename does not lose them.
	Origin string
	// ItemID is the record's content item id in the database ("" for the
	// embedded files): other tables name a record by it (a job's city,
	// Set.CityByItemID).
	ItemID string
}

// Records lists every record of the site, in order.
func (s *Set) Records() []Record {
	// What the owner wrote, not what was worked out from it (derive.go).
	s = s.written()
	var out []Record
	add := func(kind, slug string, v any, pos int) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("content: %s %s: %v", kind, slug, err)) // plain structs always marshal
		}
		out = append(out, Record{Kind: kind, Slug: slug, JSON: b, Position: pos})
	}
	for i, sv := range s.Services {
		add(KindService, sv.Slug, sv, i)
	}
	for i, co := range s.Counties {
		add(KindCounty, co.Slug, co, i)
	}
	for i, ci := range s.Cities {
		add(KindCity, ci.County+"/"+ci.Slug, ci, i)
	}
	for i, k := range sortedKeys(s.CityProfiles) {
		add(KindCityProfile, k, s.CityProfiles[k], i)
	}
	for i, c := range s.Categories {
		add(KindCategory, c.Slug, c, i)
	}
	for i, a := range s.Articles {
		add(KindArticle, a.Slug, a, i)
	}
	for i, k := range sortedKeys(s.Pages) {
		add(KindPage, k, s.Pages[k], i)
	}
	for i, k := range sortedKeys(s.FAQs) {
		add(KindFAQ, k, s.FAQs[k], i)
	}
	add(KindHome, KindHome, s.Home, 0)
	add(KindWords, WordsKey, s.Words, 0)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Decode reads one record's JSON into its kind's type, refusing unknown
// fields, and checks that its key agrees with its content.
func Decode(kind, slug string, data []byte) (any, error) {
	var v any
	switch kind {
	case KindService:
		v = &Service{}
	case KindCounty:
		v = &County{}
	case KindCity:
		v = &City{}
	case KindCityProfile:
		v = &CityProfile{}
	case KindCategory:
		v = &Category{}
	case KindArticle:
		v = &Article{}
	case KindPage:
		v = &InfoPage{}
	case KindFAQ:
		v = &[]FAQ{}
	case KindHome:
		v = &Home{}
	case KindWords:
		v = &Words{}
	default:
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, err
	}
	if key := keyOf(v); key != "" && key != slug {
		return nil, fmt.Errorf("its slug says %q but it is stored as %q", key, slug)
	}
	return v, nil
}

// keyOf is the key a record's content gives itself ("" where the key is
// only the record's).
func keyOf(v any) string {
	switch x := v.(type) {
	case *Service:
		return x.Slug
	case *County:
		return x.Slug
	case *City:
		return x.County + "/" + x.Slug
	case *Category:
		return x.Slug
	case *Article:
		return x.Slug
	case *InfoPage:
		return x.Slug
	}
	return ""
}

// FromRecords builds a site from records (the database's live copies),
// with the problems Check finds. updated is the content's date when no
// record carries a publish time (the day it was seeded). It fails only when a record cannot be
// read at all; what the problems mean is the caller's to decide (a
// publish refuses hard ones; a boot from the database logs them, as they
// were refused when published).
func FromRecords(rs []Record, updated string) (*Set, []Problem, error) {
	s := &Set{CityProfiles: map[string]*CityProfile{}, Pages: map[string]*InfoPage{}, FAQs: map[string][]FAQ{}, Home: DefaultHome(), Words: DefaultWords(), stamps: map[string]time.Time{}, origins: map[string]string{}, items: map[string]string{}}
	sorted := append([]Record(nil), rs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Kind != sorted[j].Kind {
			return kindIndex(sorted[i].Kind) < kindIndex(sorted[j].Kind)
		}
		return sorted[i].Position < sorted[j].Position
	})
	var latest time.Time
	for _, r := range sorted {
		v, err := Decode(r.Kind, r.Slug, r.JSON)
		if err != nil {
			return nil, nil, fmt.Errorf("content: %s %s: %w", r.Kind, r.Slug, err)
		}
		if r.Origin != "" {
			s.origins[r.Kind+"\x00"+r.Origin] = r.Slug
		}
		if r.ItemID != "" {
			s.items[r.ItemID] = r.Kind + "\x00" + r.Slug
		}
		if r.PublishedAt != nil {
			s.stamps[r.Kind+"\x00"+r.Slug] = *r.PublishedAt
			if r.PublishedAt.After(latest) {
				latest = *r.PublishedAt
			}
		}
		switch x := v.(type) {
		case *Service:
			s.Services = append(s.Services, *x)
		case *County:
			s.Counties = append(s.Counties, *x)
		case *City:
			s.Cities = append(s.Cities, *x)
		case *CityProfile:
			x.Key = r.Slug
			s.CityProfiles[r.Slug] = x
		case *Category:
			s.Categories = append(s.Categories, *x)
		case *Article:
			s.Articles = append(s.Articles, *x)
		case *InfoPage:
			s.Pages[r.Slug] = x
		case *[]FAQ:
			s.FAQs[r.Slug] = *x
		case *Home:
			s.Home = *x
		case *Words:
			s.Words = x.withDefaults()
		}
	}
	sort.SliceStable(s.Articles, func(i, j int) bool { return s.Articles[i].PublishDate > s.Articles[j].PublishDate })
	s.Updated = updated
	if !latest.IsZero() && latest.UTC().Format("2006-01-02") > updated {
		s.Updated = latest.UTC().Format("2006-01-02")
	}
	s.index()
	return s, s.Check(), nil
}

func kindIndex(kind string) int {
	for i, k := range Kinds {
		if k == kind {
			return i
		}
	}
	return len(Kinds)
}

// Problem is one thing Check finds wrong with a record. Hard problems make
// a page wrong or unreachable (an empty title, a bad slug, a nearby city
// that does not exist) and block a publish; the others are guidance the
// editor sees beside the field (a title over 60 characters).
type Problem struct {
	Kind    string `json:"kind"`
	Slug    string `json:"slug"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Hard    bool   `json:"hard"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s %s: field %s: %s", p.Kind, p.Slug, p.Field, p.Message)
}

// HardProblems are the problems that block.
func HardProblems(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Hard {
			out = append(out, p)
		}
	}
	return out
}

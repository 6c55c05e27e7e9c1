package editor

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// MaxIDs bounds ids= on the content list: the records one field names
// are a handful, and a page never holds more than paging.MaxPerPage rows,
// so every id asked for fits on the first page.
const MaxIDs = paging.MaxPerPage

var (
	// itemID is an item's id as the store writes it (a uuid).
	itemID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	// countySlug is a county's address (its slug, a city's slug's first part).
	countySlug = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// filterOf reads the record pickers' narrowing of the content list (ADR
// 069, amended 2026-11-29):
//   - ids: the items with these ids, comma-separated, at most MaxIDs
//     (present and empty: none); ids that name no item of the kind are
//     left out of the answer;
//   - county: a county's cities (kind=city only), by the county's slug;
//   - exclude: every item but this one.
//
// A bad value is a 400 with a plain sentence, as paging's are.
func filterOf(v url.Values, kind string) (contentdb.Filter, error) {
	var f contentdb.Filter
	if v.Has("ids") {
		f.IDs = []string{}
		seen := map[string]bool{}
		if s := v.Get("ids"); s != "" {
			parts := strings.Split(s, ",")
			if len(parts) > MaxIDs {
				return f, bad(fmt.Sprintf("Ask for at most %d records by id at once.", MaxIDs))
			}
			for _, id := range parts {
				id = strings.ToLower(strings.TrimSpace(id))
				if !itemID.MatchString(id) {
					return f, bad("Ids must be record ids, separated by commas.")
				}
				if !seen[id] {
					seen[id] = true
					f.IDs = append(f.IDs, id)
				}
			}
		}
	}
	if county := v.Get("county"); county != "" {
		if kind != content.KindCity {
			return f, bad("Only cities belong to a county.")
		}
		if !countySlug.MatchString(county) {
			return f, bad("County must be a county's address, such as cobb.")
		}
		f.Under = county
	}
	if ex := v.Get("exclude"); ex != "" {
		ex = strings.ToLower(strings.TrimSpace(ex))
		if !itemID.MatchString(ex) {
			return f, bad("Exclude must be a record id.")
		}
		f.Not = ex
	}
	return f, nil
}

func bad(msg string) error { return httperr.New(http.StatusBadRequest, msg) }

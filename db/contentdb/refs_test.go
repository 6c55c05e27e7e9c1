package contentdb

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// RewriteRefsIn hands the plan the items with the scope's ids and the
// items of its kinds that Holds finds, converts their revisions, writes
// only what the plan changes, and moves no version.
func TestRewriteRefsInReadsItsScopeOnly(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		byID := mustCreate(t, c, "page", "about", `{"title":"About"}`, 0)
		named := mustCreate(t, c, "county", "cobb", `{"majorCities":["NEW_TOWN"]}`, 0)
		named, _ = mustPublish(t, c, named, at(1))
		mustCreate(t, c, "county", "fulton", `{"majorCities":["newXtown"]}`, 1) // "_" is not a wildcard
		mustCreate(t, c, "city", "cobb/x", `{"nearby":["new_town"]}`, 0)        // another kind
		var read []string
		n, err := c.RewriteRefsIn(ctx, RefScope{IDs: []string{byID.ID}, Kinds: []string{"county"}, Holds: func(data string) bool { return strings.Contains(data, "NEW_TOWN") }},
			func(items []Item) RefRewrite {
				for _, it := range items {
					read = append(read, it.Slug)
				}
				l := `{"majorCities":["an-id"]}`
				return RefRewrite{
					Items: []RefChange{{ID: named.ID, Draft: l, Live: &l}},
					Revision: func(kind, data string) (string, bool) {
						if data == `{"majorCities":["NEW_TOWN"]}` {
							return l, true
						}
						return data, false
					},
				}
			})
		if err != nil || n != 2 {
			t.Fatalf("rewrote %d rows, %v; want the county and its revision", n, err)
		}
		slices.Sort(read)
		if diff := cmp.Diff([]string{"about", "cobb"}, read); diff != "" {
			t.Errorf("items read (-want, +got):\n%s", diff)
		}
		got, err := c.Get(ctx, named.ID)
		if err != nil {
			t.Fatal(err)
		}
		revs, _ := c.Revisions(ctx, named.ID)
		if got.Draft != `{"majorCities":["an-id"]}` || got.Live != got.Draft || got.Version != named.Version || revs[0].Data != got.Live {
			t.Errorf("after the rewrite: %+v, revision %s", got, revs[0].Data)
		}
	})
}

package content

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	idSmyrnaCobb  = "11111111-1111-4111-8111-111111111111"
	idSmyrnaOther = "22222222-2222-4222-8222-222222222222"
	idVinings     = "33333333-3333-4333-8333-333333333333"
	idGone        = "44444444-4444-4444-8444-444444444444"
	idRestoration = "55555555-5555-4555-8555-555555555555"
)

func testIndex() *RefIndex {
	return NewRefIndex([]RefTarget{
		{ID: idSmyrnaCobb, Kind: KindCity, Key: "cobb/smyrna", Name: "Smyrna"},
		{ID: idSmyrnaOther, Kind: KindCity, Key: "fulton/smyrna", Name: "Smyrna Heights"},
		{ID: idVinings, Kind: KindCity, Key: "cobb/vinings", Name: "Vinings"},
		{ID: idRestoration, Kind: KindCategory, Key: "restoration", Name: "Restoration"},
	})
}

func TestRefConversions(t *testing.T) {
	ix := testIndex()
	tests := []struct {
		name, kind, in, toIDs, toKeys string
	}{
		{"nearby: same county first, keys when two cities share a slug", KindCity,
			`{"county":"cobb","nearby":["smyrna","fulton/smyrna","nowhere"],"slug":"vinings"}`,
			`{"county":"cobb","nearby":["` + idSmyrnaCobb + `","` + idSmyrnaOther + `","nowhere"],"slug":"vinings"}`,
			`{"county":"cobb","nearby":["cobb/smyrna","fulton/smyrna","nowhere"],"slug":"vinings"}`},
		{"major cities by name within the county", KindCounty,
			`{"profile":{"majorCities":["Vinings","smyrna heights"]},"slug":"cobb"}`,
			`{"profile":{"majorCities":["` + idVinings + `","smyrna heights"]},"slug":"cobb"}`,
			`{"profile":{"majorCities":["Vinings","smyrna heights"]},"slug":"cobb"}`},
		{"a category", KindArticle, `{"category":"restoration","readTime":4}`,
			`{"category":"` + idRestoration + `","readTime":4}`, `{"category":"restoration","readTime":4}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := ToIDs(tc.kind, []byte(tc.in), ix)
			if diff := cmp.Diff(tc.toIDs, string(got)); diff != "" {
				t.Errorf("ToIDs (-want, +got):\n%s", diff)
			}
			back, _ := ToKeys(tc.kind, got, ix)
			if diff := cmp.Diff(tc.toKeys, string(back)); diff != "" {
				t.Errorf("ToKeys (-want, +got):\n%s", diff)
			}
		})
	}
}

func TestRefsLeftAlone(t *testing.T) {
	ix := testIndex()
	// A record with nothing to convert keeps its bytes (and key order).
	in := `{"slug":"vinings","county":"cobb","nearby":["` + idSmyrnaCobb + `"]}`
	if out, changed := ToIDs(KindCity, []byte(in), ix); changed || string(out) != in {
		t.Errorf("ToIDs rewrote %s", out)
	}
	// An id the index lacks (not live, or deleted) is left out of a page.
	out, _ := ToKeys(KindCity, []byte(`{"county":"cobb","nearby":["`+idGone+`","`+idVinings+`"]}`), ix)
	if string(out) != `{"county":"cobb","nearby":["vinings"]}` {
		t.Errorf("ToKeys %s", out)
	}
}

func TestReplaceRef(t *testing.T) {
	in := `{"county":"cobb","nearby":["` + idSmyrnaCobb + `","` + idVinings + `"]}`
	out, changed := ReplaceRef(KindCity, []byte(in), idSmyrnaCobb, "")
	if !changed || string(out) != `{"county":"cobb","nearby":["`+idVinings+`"]}` {
		t.Errorf("remove: %s", out)
	}
	// Replacing never lists a record twice.
	out, _ = ReplaceRef(KindCity, []byte(in), idSmyrnaCobb, idVinings)
	if string(out) != `{"county":"cobb","nearby":["`+idVinings+`"]}` {
		t.Errorf("replace: %s", out)
	}
	out, _ = ReplaceRef(KindArticle, []byte(`{"category":"`+idRestoration+`"}`), idRestoration, idGone)
	if string(out) != `{"category":"`+idGone+`"}` {
		t.Errorf("category: %s", out)
	}
	if refs := RefsOf(KindArticle, out); len(refs) != 1 || refs[0].ID != idGone || !refs[0].Field.Required {
		t.Errorf("RefsOf %+v", refs)
	}
}

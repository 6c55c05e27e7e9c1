package editor

import (
	"testing"

	"github.com/atlanta-restoration/site/content"
)

// refMatcher finds a record naming a target as resolve would match it:
// a city's slug or key exactly (spaces around aside, escapes decoded), a
// major city's name in any case, Unicode folds included; text that only
// contains the name is not a reference.
func TestRefMatcherFindsWhatResolveWouldMatch(t *testing.T) {
	var m refMatcher
	m.exact, m.folded = map[string]bool{}, map[string]bool{}
	city := content.RefTarget{ID: "x", Kind: content.KindCity, Key: "cobb/oak-hill", Name: "Oak Park"}
	for _, f := range content.RefFields {
		if f.Target == content.KindCity {
			m.add(f, city)
		}
	}
	for data, want := range map[string]bool{
		`{"nearby":["oak-hill"]}`:                            true,
		`{"nearby":[" cobb/oak-hill "]}`:                     true,
		`{"nearby":["\u006fak-hill"]}`:                       true,
		`{"profile":{"majorCities":["OAK PARK"]}}`:           true,
		`{"profile":{"majorCities":["Oak Parks"]}}`:          false,
		`{"profile":{"majorCities":["Oa\u212a Par\u212a"]}}`: true, // the Kelvin sign folds to k
		`{"intro":"Oak Park and oak-hill are near"}`:         false,
		`{"nearby":["fulton/oak-hill"]}`:                     false,
		`{"nearby":["oak-hill`:                               true, // unreadable: the conversion decides
		``:                                                   false,
	} {
		if got := m.holds(data); got != want {
			t.Errorf("holds(%s) = %v, want %v", data, got, want)
		}
	}
}

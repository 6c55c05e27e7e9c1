package content

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// scanResolve and scanReadable are the index's lookups as a scan of
// every target in order: what the maps must answer, whatever the targets.
func scanResolve(ix *RefIndex, f RefField, home, v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", false
	}
	if _, ok := ix.byID[v]; ok {
		return v, true
	}
	var match func(t RefTarget) bool
	switch {
	case f.Kind == KindCounty && f.Target == KindCity:
		match = func(t RefTarget) bool { return t.County() == home && strings.EqualFold(t.Name, v) }
	case f.Target == KindCity:
		if strings.Contains(v, "/") {
			match = func(t RefTarget) bool { return t.Key == v }
		} else {
			for _, t := range ix.all {
				if t.Kind == KindCity && t.County() == home && t.Slug() == v {
					return t.ID, true
				}
			}
			match = func(t RefTarget) bool { return t.Slug() == v }
		}
	case f.Target == KindService:
		match = func(t RefTarget) bool { return t.Key == v || strings.EqualFold(t.Name, v) }
	default:
		match = func(t RefTarget) bool { return t.Key == v }
	}
	for _, t := range ix.all {
		if t.Kind == f.Target && match(t) {
			return t.ID, true
		}
	}
	return "", false
}

func scanReadable(ix *RefIndex, f RefField, t RefTarget) string {
	switch {
	case f.Kind == KindCounty && f.Target == KindCity, f.Target == KindService:
		return t.Name
	case f.Target == KindCity:
		for _, o := range ix.byID {
			if o.Kind == KindCity && o.ID != t.ID && o.Slug() == t.Slug() {
				return t.Key
			}
		}
		return t.Slug()
	}
	return t.Key
}

// The index answers as a scan of its targets in order would: the first
// listing wins where several match (the same county first for a slug,
// a key before a later name for a service), names match in any case
// (the Kelvin sign included), and a slug two cities share is written as
// a key.
func TestRefIndexAnswersAsAScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	counties := []string{"cobb", "fulton", "dekalb"}
	slugs := []string{"smyrna", "vinings", "kennesaw", "marietta", "x"}
	names := []string{"Smyrna", "smyrna", "SMYRNA", "Kennesaw", "\u212aennesaw", "Vinings", "Water Damage", "water damage", "x"}
	kinds := []string{KindCity, KindService, KindCategory}
	for round := range 200 {
		var ts []RefTarget
		n := 1 + rng.IntN(12)
		for range n {
			kind := kinds[rng.IntN(len(kinds))]
			key := slugs[rng.IntN(len(slugs))]
			if kind == KindCity {
				key = counties[rng.IntN(len(counties))] + "/" + key
			}
			// some ids listed twice (a working and a live copy)
			id := fmt.Sprintf("%08d-0000-4000-8000-%012d", round, rng.IntN(n+1))
			ts = append(ts, RefTarget{ID: id, Kind: kind, Key: key, Name: names[rng.IntN(len(names))]})
		}
		ix := NewRefIndex(ts)
		var values []string
		values = append(values, slugs...)
		values = append(values, names...)
		for _, c := range counties {
			for _, s := range slugs {
				values = append(values, c+"/"+s, " "+c+"/"+s+" ")
			}
		}
		values = append(values, ts[0].ID, "", "  ")
		for _, f := range RefFields {
			for _, home := range counties {
				for _, v := range values {
					gotID, gotOK := ix.resolve(f, home, v)
					wantID, wantOK := scanResolve(ix, f, home, v)
					if gotID != wantID || gotOK != wantOK {
						t.Fatalf("round %d, %s.%s from %s, %q: index %q %v, scan %q %v\ntargets %+v", round, f.Kind, f.Path, home, v, gotID, gotOK, wantID, wantOK, ts)
					}
				}
			}
			for _, tg := range ix.byID {
				if got, want := ix.readable(f, tg), scanReadable(ix, f, tg); got != want {
					t.Fatalf("round %d, %s.%s, %+v: index %q, scan %q\ntargets %+v", round, f.Kind, f.Path, tg, got, want, ts)
				}
			}
		}
	}
}

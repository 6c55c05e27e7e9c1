package editor

import (
	"context"
	"encoding/json"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// PlaceCities gives the cities seeded before cities had coordinates the
// coordinates of the embedded record they were seeded from (matched by
// origin, so a renamed city still gets its own), in their working and
// live copies, once across instances. A copy that has coordinates, even
// ones the owner changed, and a city the owner added are left alone. Like
// MigrateRefs it changes form, not content: no version, no revision. It
// returns how many items it changed.
func (s *Service) PlaceCities(ctx context.Context, embedded *content.Set) (int, error) {
	at := map[string][2]float64{}
	for _, c := range embedded.Cities {
		if c.Placed() {
			at[c.County+"/"+c.Slug] = [2]float64{c.Lat, c.Lng}
		}
	}
	n, err := s.Store.RewriteRefs(ctx, func(all []contentdb.Item) contentdb.RefRewrite {
		var rw contentdb.RefRewrite
		for _, it := range all {
			p, ok := at[it.Origin]
			if it.Kind != content.KindCity || !ok {
				continue
			}
			draft, dc := withPlace(it.Draft, p)
			c := contentdb.RefChange{ID: it.ID, Draft: draft}
			lc := false
			if it.Live != "" {
				var live string
				live, lc = withPlace(it.Live, p)
				c.Live = &live
			}
			if dc || lc {
				rw.Items = append(rw.Items, c)
			}
		}
		return rw
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		s.Log.Info("cities given their coordinates", "items", n)
	}
	return n, nil
}

// withPlace adds lat and lng to a city's JSON that has neither.
func withPlace(data string, p [2]float64) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(data), &m) != nil {
		return data, false // not a record the rules can read: theirs to report
	}
	if _, ok := m["lat"]; ok {
		return data, false
	}
	if _, ok := m["lng"]; ok {
		return data, false
	}
	m["lat"], _ = json.Marshal(p[0])
	m["lng"], _ = json.Marshal(p[1])
	b, err := json.Marshal(m)
	if err != nil {
		return data, false
	}
	return string(b), true
}

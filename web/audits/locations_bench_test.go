package audits

import (
	"testing"

	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// BenchmarkLocations is Location Pages' one request at 2,000 cities, on
// SQLite, as an editor asks it (edit ids and drafts included) and as the
// PIN does (the same pages without them):
//
//	go test ./web/audits -run '^$' -bench BenchmarkLocations -benchtime 20x
//
// bytes/op is the answer's size: the screen reads nothing else.
func BenchmarkLocations(b *testing.B) {
	embedded, err := content.Load()
	if err != nil {
		b.Fatal(err)
	}
	set, err := benchdata.WithCities(embedded, 2000-len(embedded.Cities))
	if err != nil {
		b.Fatal(err)
	}
	r := newLocRoomWith(b, db.NewTestSQLite(b), set)
	for _, tok := range []string{"editor", "pin"} {
		b.Run(tok, func(b *testing.B) {
			l, body := r.locations(b, tok)
			if l.Summary.CityPages < 2000 {
				b.Fatalf("%d city pages", l.Summary.CityPages)
			}
			b.ResetTimer()
			for range b.N {
				r.locations(b, tok)
			}
			b.ReportMetric(float64(len(body)), "bytes/op")
		})
	}
}

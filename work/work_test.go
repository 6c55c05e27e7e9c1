package work

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

var choices = Choices{
	Cities: []City{
		NewCity("marietta", "Marietta", "cobb", 33.9526, -84.5499),
		NewCity("smyrna", "Smyrna", "cobb", 33.8840, -84.5144),
		NewCity("douglasville", "Douglasville", "douglas", 33.7515, -84.7477),
		NewCity("unplaced", "Nowhere", "cobb", 0, 0),
	},
	Services: []Service{{ID: "water", Title: "Water Damage Restoration"}},
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		lat, lng float64
		want     string
	}{
		{33.95, -84.55, "marietta"}, // the photo's rounded place
		{33.89, -84.51, "smyrna"},   // nearer Smyrna than Marietta
		{33.75, -84.75, "douglasville"},
		{32.08, -81.09, ""}, // Savannah: no city within 25 km
		{0, 0, ""},
	} {
		got, ok := choices.Suggest(c.lat, c.lng)
		if got.ID != c.want || ok != (c.want != "") {
			t.Errorf("Suggest(%v, %v) = %q %v, want %q", c.lat, c.lng, got.ID, ok, c.want)
		}
	}
}

func TestClean(t *testing.T) {
	ok := Fields{Title: " Burst pipe ", CityID: "marietta", Month: "2026-10", Service: "water", Story: " s \r\n t ", CustomerName: " Pat ", NameConsent: true}
	got, err := Clean(ok, choices)
	if err != nil || got.Title != "Burst pipe" || got.Story != "s \n t" || got.CustomerName != "Pat" || !got.NameConsent {
		t.Errorf("Clean = %+v, %v", got, err)
	}
	if got, _ := Clean(Fields{Title: "x", NameConsent: true}, choices); got.NameConsent {
		t.Error("consent kept with no name to show")
	}
	for _, f := range []Fields{
		{Title: ""},
		{Title: strings.Repeat("a", MaxTitle+1)},
		{Title: "x", Month: "2026-1"},
		{Title: "x", Month: "1989-12"},
		{Title: "x", Month: "2026-00"},
		{Title: "x", CityID: "atlantis"},
		{Title: "x", Service: "mold"},
		{Title: "x", Story: strings.Repeat("a", MaxStory+1)},
		{Title: "x", CustomerName: strings.Repeat("a", MaxName+1)},
	} {
		if _, err := Clean(f, choices); err == nil {
			t.Errorf("Clean(%+v) accepted", f)
		}
	}
}

func TestPageAndPublishRules(t *testing.T) {
	story := strings.Repeat("word ", MinWords)
	if !HasPage(2, story) || HasPage(1, story) || HasPage(2, strings.Repeat("word ", MinWords-1)) {
		t.Error("a page needs 2 photos and 60 words")
	}
	if got := CanPublish(db.Job{}); got != "Before it goes on the site, the job needs a city, a month and a photo." {
		t.Errorf("CanPublish(empty) = %q", got)
	}
	if got := CanPublish(db.Job{CityID: "x", Month: "2026-10", Photos: 1}); got != "" {
		t.Errorf("CanPublish(ready) = %q", got)
	}
}

type fakeRecords map[string][]contentdb.Item

func (f fakeRecords) List(_ context.Context, kind string) ([]contentdb.Item, error) {
	return f[kind], nil
}

// Only live records are offered, cities by name, with what the public
// pages need to find them (never sent: their place and slug).
func TestLoadChoices(t *testing.T) {
	ch, err := LoadChoices(context.Background(), fakeRecords{
		content.KindCity: {
			{ID: "2", Live: `{"city":"Smyrna","county":"cobb","slug":"smyrna","lat":33.884,"lng":-84.5144}`},
			{ID: "1", Live: `{"city":"Marietta","county":"cobb","slug":"marietta","lat":33.9526,"lng":-84.5499}`},
			{ID: "3", Draft: `{"city":"Draft only"}`},
		},
		content.KindService: {{ID: "s", Live: `{"title":"Water Damage Restoration","slug":"water-damage-restoration"}`}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Cities) != 2 || ch.Cities[0].Name != "Marietta" || ch.Cities[0].Slug != "marietta" || ch.Services[0].Slug != "water-damage-restoration" {
		t.Errorf("choices %+v", ch)
	}
	if c, ok := ch.Suggest(33.95, -84.55); !ok || c.ID != "1" {
		t.Errorf("suggested %+v", c)
	}
	b, _ := json.Marshal(ch)
	if strings.Contains(string(b), "33.9") || strings.Contains(string(b), "slug") {
		t.Errorf("choices as sent: %s", b)
	}
}

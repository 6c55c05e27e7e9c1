// Package work holds the rules of jobs (issue 33, ADR 061): what a job's
// fields may be, when its public page has enough to say, and which city
// its photos suggest. The store is db (db/jobs_store.go); the owner's
// screen is web/work; the public pages read db.Store.PublishedJobs.
package work

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// The rules the owner's screen states.
const (
	// MinPhotos and MinWords are what a job's own page needs: at least
	// two photos and a story of 60 words or more. A published job with
	// less still shows on the pages near it, without a page of its own.
	MinPhotos = 2
	MinWords  = 60
	// SuggestKm is how far a photo's place may be from a city for the
	// city to be suggested.
	SuggestKm = 25.0
	// Field lengths, in characters.
	MaxTitle = 120
	MaxStory = 3000
	MaxName  = 80
)

// Fields is a job's editable fields as the screen sends them.
type Fields struct {
	Title        string `json:"title"`
	CityID       string `json:"cityId"`
	Month        string `json:"month"`
	Service      string `json:"service"`
	Story        string `json:"story"`
	LeadID       string `json:"leadId"`
	CustomerName string `json:"customerName"`
	NameConsent  bool   `json:"nameConsent"`
}

// Invalid is a field the owner must change, in the owner's words.
type Invalid struct{ Message string }

func (e *Invalid) Error() string { return e.Message }

var monthRE = regexp.MustCompile(`^(19[9]\d|20\d\d)-(0[1-9]|1[0-2])$`)

// Clean checks f against the live records (a city and a service named
// by id must be live ones) and returns what the store keeps. A name
// without consent is kept (the owner may be waiting for the answer) but
// never shown.
func Clean(f Fields, choices Choices) (db.JobFields, error) {
	f.Title = strings.TrimSpace(f.Title)
	f.Story = strings.TrimSpace(strings.ReplaceAll(f.Story, "\r\n", "\n"))
	f.CustomerName = strings.TrimSpace(f.CustomerName)
	f.Month = strings.TrimSpace(f.Month)
	switch {
	case f.Title == "":
		return db.JobFields{}, &Invalid{"Give the job a title, such as 'Burst pipe in a finished basement'."}
	case utf8.RuneCountInString(f.Title) > MaxTitle:
		return db.JobFields{}, &Invalid{fmt.Sprintf("Keep the title under %d characters.", MaxTitle)}
	case utf8.RuneCountInString(f.Story) > MaxStory:
		return db.JobFields{}, &Invalid{fmt.Sprintf("Keep the story under %d characters.", MaxStory)}
	case utf8.RuneCountInString(f.CustomerName) > MaxName:
		return db.JobFields{}, &Invalid{fmt.Sprintf("Keep the homeowner's name under %d characters.", MaxName)}
	case f.Month != "" && !monthRE.MatchString(f.Month):
		return db.JobFields{}, &Invalid{"Pick the month the work was done."}
	case f.CityID != "" && !choices.hasCity(f.CityID):
		return db.JobFields{}, &Invalid{"That city is not on the site any more: pick another."}
	case f.Service != "" && !choices.hasService(f.Service):
		return db.JobFields{}, &Invalid{"That kind of damage is not on the site any more: pick another."}
	}
	return db.JobFields{Title: f.Title, CityID: f.CityID, Month: f.Month, Service: f.Service, Story: f.Story,
		LeadID: strings.TrimSpace(f.LeadID), CustomerName: f.CustomerName, NameConsent: f.NameConsent && f.CustomerName != ""}, nil
}

// Words counts a story's words: what stands between spaces and line
// breaks (the count the screen shows as the owner types).
func Words(s string) int { return len(strings.Fields(s)) }

// HasPage reports whether a job has enough for a page of its own.
func HasPage(photos int, story string) bool { return photos >= MinPhotos && Words(story) >= MinWords }

// CanPublish says what a job still needs before it is published, in the
// owner's words ("" when nothing): a city, a month and a photo.
func CanPublish(j db.Job) string {
	var need []string
	if j.CityID == "" {
		need = append(need, "a city")
	}
	if j.Month == "" {
		need = append(need, "a month")
	}
	if j.Photos == 0 {
		need = append(need, "a photo")
	}
	if len(need) == 0 {
		return ""
	}
	return "Before it goes on the site, the job needs " + joinAnd(need) + "."
}

func joinAnd(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// City is a live city record as the screen offers it: its item id, its
// name and county. Its coordinates stay on the server.
type City struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	County string `json:"county"`
	// Slug is the city page's slug within its county (the page is
	// /service-areas/{county}/{slug}): for the server's pages, not sent.
	Slug string `json:"-"`
	lat  float64
	lng  float64
}

// Service is a live service record: a damage type to pick.
type Service struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Slug is the service page's slug: for the server's pages, not sent.
	Slug string `json:"-"`
}

// Choices are the live cities and services a job may name.
type Choices struct {
	Cities   []City    `json:"cities"`
	Services []Service `json:"services"`
}

func (c Choices) hasCity(id string) bool {
	_, ok := c.City(id)
	return ok
}

// City is the live city with item id, if there is one.
func (c Choices) City(id string) (City, bool) {
	for _, x := range c.Cities {
		if x.ID == id {
			return x, true
		}
	}
	return City{}, false
}

func (c Choices) hasService(id string) bool {
	for _, x := range c.Services {
		if x.ID == id {
			return true
		}
	}
	return false
}

// Suggest is the live city nearest a rounded place, if one is within
// SuggestKm; the owner confirms or changes it.
func (c Choices) Suggest(lat, lng float64) (City, bool) {
	best, bestKm := City{}, SuggestKm
	found := false
	for _, x := range c.Cities {
		if x.lat == 0 && x.lng == 0 {
			continue
		}
		if d := content.DistanceKm(lat, lng, x.lat, x.lng); d <= bestKm {
			best, bestKm, found = x, d, true
		}
	}
	return best, found
}

// Records lists the content records of a kind (editor.Service).
type Records interface {
	List(ctx context.Context, kind string) ([]contentdb.Item, error)
}

// LoadChoices reads the live cities (by name) and services (in the
// site's order).
func LoadChoices(ctx context.Context, r Records) (Choices, error) {
	out := Choices{Cities: []City{}, Services: []Service{}}
	cities, err := r.List(ctx, content.KindCity)
	if err != nil {
		return out, err
	}
	for _, it := range cities {
		var c content.City
		if it.Live == "" || json.Unmarshal([]byte(it.Live), &c) != nil {
			continue
		}
		out.Cities = append(out.Cities, City{ID: it.ID, Name: c.City, County: c.County, Slug: c.Slug, lat: c.Lat, lng: c.Lng})
	}
	sort.SliceStable(out.Cities, func(i, j int) bool { return out.Cities[i].Name < out.Cities[j].Name })
	services, err := r.List(ctx, content.KindService)
	if err != nil {
		return out, err
	}
	for _, it := range services {
		var s content.Service
		if it.Live == "" || json.Unmarshal([]byte(it.Live), &s) != nil {
			continue
		}
		out.Services = append(out.Services, Service{ID: it.ID, Title: s.Title, Slug: s.Slug})
	}
	return out, nil
}

// NewCity makes a City with its place (tests and callers that have the
// records already).
func NewCity(id, name, county string, lat, lng float64) City {
	return City{ID: id, Name: name, County: county, lat: lat, lng: lng}
}

package seoaudit

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"

	sitewords "github.com/atlanta-restoration/site/words"
)

// The thin-pages audit (ADR 064): every city page scored for the text it
// alone has and for its local proof, with a verdict and what would fix
// each thin page, in the owner's words.

// ThinUniqueBelow is the verdict's text rule: a page whose unique share
// is below this percentage has too little text of its own.
const ThinUniqueBelow = 40

// CityPage is one city page as the audit reads it: what the content says
// about it; its text comes from its render.
type CityPage struct {
	Path   string
	City   string
	County string
	// Profile: a fixed city page (a city profile record) serves it.
	Profile bool
	// OwnWords counts the words written for this city alone in its record
	// (a city's introduction and description; a fixed page's introduction,
	// neighborhoods, landmarks, reasons and questions).
	OwnWords int
	// NoIndex: the owner hid the page from search engines.
	NoIndex bool
	// CityKey is its city record's "county/slug"; Lat and Lng are the
	// city's position, Located says it has one.
	CityKey  string
	Lat, Lng float64
	Located  bool
	// TextField is the editor field where the city's own paragraph is
	// written ("description" for a city, "intro" for a fixed page).
	TextField string
}

// ProofSource counts one kind of local proof for every city page at once
// (one read per audit, not one per page), by page path.
type ProofSource interface {
	Count(ctx context.Context, pages []CityPage) (map[string]int, error)
}

// LocalProof are the sources of a city page's local proof. A nil source is
// one this server has not wired: the audit shows no figure for it and no
// fix that needs it, and does not count it as proof.
type LocalProof struct {
	Jobs         ProofSource
	Testimonials ProofSource
}

// Fix is one thing that would make a thin page not thin. Field, when
// set, is the content editor field of the page's record where it is done.
type Fix struct {
	Text  string `json:"text"`
	Field string `json:"field,omitempty"`
}

// ThinPage is one city page's figures and verdict.
type ThinPage struct {
	Path    string `json:"path"`
	City    string `json:"city"`
	County  string `json:"county"`
	Profile bool   `json:"profile"`
	NoIndex bool   `json:"noindex"`
	// Words are the words of its main text; UniqueShare the percentage
	// of its shingles no other city page has.
	Words       int `json:"words"`
	UniqueShare int `json:"uniqueShare"`
	OwnWords    int `json:"ownWords"`
	// Jobs and Testimonials are counted only when the report says so.
	Jobs         int    `json:"jobs"`
	Testimonials int    `json:"testimonials"`
	Thin         bool   `json:"thin"`
	Why          string `json:"why"`
	Fixes        []Fix  `json:"fixes"`
	// Error says why the page's text could not be read (it is then not
	// judged).
	Error string `json:"error,omitempty"`
}

// ThinReport is every city page, thin ones first.
type ThinReport struct {
	Pages []ThinPage `json:"pages"`
	Thin  int        `json:"thin"`
	// JobsCounted and TestimonialsCounted say which local proof this
	// server counts; JobsKm is the distance a job counts within.
	JobsCounted         bool    `json:"jobsCounted"`
	TestimonialsCounted bool    `json:"testimonialsCounted"`
	JobsKm              float64 `json:"jobsKm"`
	Rule                string  `json:"rule"`
}

// ThinAudit scores the city pages from their renders.
type ThinAudit struct {
	Fetch Fetch
	Proof LocalProof
}

// Within is a jobs source that counts within a distance (NearbyJobs): the
// report and the fixes name it.
type Within interface{ WithinKm() float64 }

// Run reads every city page through the site's own handler and judges it.
func (a *ThinAudit) Run(ctx context.Context, pages []CityPage) (ThinReport, error) {
	out := ThinReport{Pages: []ThinPage{}, JobsCounted: a.Proof.Jobs != nil, TestimonialsCounted: a.Proof.Testimonials != nil}
	if w, ok := a.Proof.Jobs.(Within); ok {
		out.JobsKm = w.WithinKm()
	}
	out.Rule = ruleText(out.JobsCounted, out.TestimonialsCounted)
	var jobs, testimonials map[string]int
	var err error
	if a.Proof.Jobs != nil {
		if jobs, err = a.Proof.Jobs.Count(ctx, pages); err != nil {
			return out, fmt.Errorf("jobs near each city: %w", err)
		}
	}
	if a.Proof.Testimonials != nil {
		if testimonials, err = a.Proof.Testimonials.Count(ctx, pages); err != nil {
			return out, fmt.Errorf("testimonials of each city: %w", err)
		}
	}
	var texts []PageText
	var read []int // index into out.Pages of each text
	for _, p := range pages {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		tp := ThinPage{Path: p.Path, City: p.City, County: p.County, Profile: p.Profile, NoIndex: p.NoIndex, OwnWords: p.OwnWords,
			Jobs: jobs[p.Path], Testimonials: testimonials[p.Path], Fixes: []Fix{}}
		status, body, err := a.Fetch(ctx, p.Path)
		var text string
		switch {
		case err != nil:
			tp.Error = "The page could not be read: " + err.Error()
		case status != http.StatusOK:
			tp.Error = fmt.Sprintf("The page answered %d instead of showing.", status)
		default:
			if text, err = MainText(body); err != nil {
				tp.Error = "The page could not be read: " + err.Error()
			}
		}
		out.Pages = append(out.Pages, tp)
		if tp.Error == "" {
			texts = append(texts, PageText{Text: text, City: p.City, County: p.County})
			read = append(read, len(out.Pages)-1)
		}
	}
	for i, u := range UniqueShares(texts) {
		tp := &out.Pages[read[i]]
		tp.Words, tp.UniqueShare = u.Words, u.Share
		judge(tp, pages[read[i]], out)
		if tp.Thin {
			out.Thin++
		}
	}
	sort.SliceStable(out.Pages, func(i, j int) bool {
		a, b := out.Pages[i], out.Pages[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		return a.UniqueShare < b.UniqueShare
	})
	return out, nil
}

// rank orders the list: pages that could not be read, then thin pages
// search engines see, thin pages hidden from them, the rest.
func rank(p ThinPage) int {
	switch {
	case p.Error != "":
		return 0
	case p.Thin && !p.NoIndex:
		return 1
	case p.Thin:
		return 2
	}
	return 3
}

// ruleText is the verdict's rule as the screen says it.
func ruleText(jobs, testimonials bool) string {
	proof := "it is a fixed city page"
	switch {
	case jobs && testimonials:
		proof = "it has a published job nearby, an approved testimonial, or is a fixed city page"
	case jobs:
		proof = "it has a published job nearby or is a fixed city page"
	case testimonials:
		proof = "it has an approved testimonial or is a fixed city page"
	}
	return fmt.Sprintf("A city page is thin when less than %d%% of its text is found on no other city page and it has no local proof (it has local proof when %s). "+
		"Texts that differ only by the city's name count as the same text.", ThinUniqueBelow, proof)
}

// judge gives a read page its verdict and, when thin, its fixes.
func judge(tp *ThinPage, p CityPage, r ThinReport) {
	proof := p.Profile || tp.Jobs > 0 || tp.Testimonials > 0
	own := tp.UniqueShare >= ThinUniqueBelow
	tp.Thin = !own && !proof
	switch {
	case tp.Thin:
		tp.Why = fmt.Sprintf("Only %d%% of its text is its own", tp.UniqueShare) + noProofWords(p, r) + "."
	case !own:
		tp.Why = fmt.Sprintf("Only %d%% of its text is its own, but %s.", tp.UniqueShare, proofWords(tp, p))
	default:
		tp.Why = fmt.Sprintf("%d%% of its text is its own.", tp.UniqueShare)
	}
	if !tp.Thin {
		return
	}
	tp.Fixes = append(tp.Fixes, Fix{Text: "Write " + wordsNeeded(tp.Words, tp.UniqueShare) + " about " + p.City + " that no other page has: its streets, homes, creeks and the damage you see there.", Field: p.TextField})
	if r.JobsCounted && r.JobsKm > 0 {
		tp.Fixes = append(tp.Fixes, Fix{Text: "Publish a job from " + p.City + " or from within " + milesWords(r.JobsKm) + " of it."})
	} else if r.JobsCounted {
		tp.Fixes = append(tp.Fixes, Fix{Text: "Publish a job from " + p.City + "."})
	}
	if r.TestimonialsCounted {
		tp.Fixes = append(tp.Fixes, Fix{Text: "Ask a " + p.City + " customer for a testimonial."})
	}
	if !tp.NoIndex {
		tp.Fixes = append(tp.Fixes, Fix{Text: "Or hide the page from search engines until it has its own story: visitors still see it.", Field: NoIndexField})
	}
}

// NoIndexField is the city records' field that hides a page from search
// engines.
const NoIndexField = "noindex"

// noProofWords names the local proof the page lacks, among what this
// server counts.
func noProofWords(p CityPage, r ThinReport) string {
	var none []string
	if r.JobsCounted {
		none = append(none, "no published job is near "+p.City)
	}
	if r.TestimonialsCounted {
		none = append(none, "no "+p.City+" customer's testimonial is approved")
	}
	if len(none) == 0 {
		return ""
	}
	return ", and " + strings.Join(none, " and ")
}

func proofWords(tp *ThinPage, p CityPage) string {
	switch {
	case tp.Jobs > 0:
		return sitewords.Count(tp.Jobs, "published job is", "published jobs are") + " nearby"
	case tp.Testimonials > 0:
		return "it has " + sitewords.Count(tp.Testimonials, "approved testimonial", "approved testimonials")
	}
	return "it is a fixed city page with its own neighborhoods, landmarks and questions"
}

// wordsNeeded says how much new text of its own would lift a page of
// words words, share percent its own, to ThinUniqueBelow: x new words
// such that (own + x) / (words + x) reaches the rule, rounded up to ten.
func wordsNeeded(words, share int) string {
	t := float64(ThinUniqueBelow) / 100
	own := float64(words) * float64(share) / 100
	x := (t*float64(words) - own) / (1 - t)
	n := int(math.Ceil(x/10)) * 10
	if n < 50 {
		return "a paragraph"
	}
	return fmt.Sprintf("a paragraph or two (about %d words)", n)
}

// milesWords says a distance in miles, as the owner thinks of it.
func milesWords(km float64) string {
	return sitewords.Count(int(math.Round(km/1.609344)), "mile", "miles")
}

package site

import (
	"context"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/reviews"
)

// HomeData is the home page's data.
type HomeData struct {
	HeroCity        string             `json:"heroCity"`
	HeroCounty      string             `json:"heroCounty"`
	Services        []ServiceCard      `json:"services"`
	Gallery         *media.Gallery     `json:"gallery"`
	Reviews         []reviews.Review   `json:"reviews"`
	Trust           TrustData          `json:"trust"`
	Categories      []content.Category `json:"categories"`
	Featured        []ArticleCard      `json:"featured"`
	Latest          []ArticleCard      `json:"latest"`
	FAQs            []content.FAQ      `json:"faqs"`
	DescriptionFAQs []content.FAQ      `json:"descriptionFaqs"`
	Related         RelatedData        `json:"related"`
	// Texts are the home page's editable texts, {city} and {county}
	// filled in; Hero is its photo (nil: the blue gradient).
	Texts content.Home `json:"texts"`
	Hero  *HeroImage   `json:"hero"`
}

// LatestArticles is spec 9's "latest articles 6".
const LatestArticles = 6

func loadHome(ctx context.Context, s *Site, _ Params) (Page, error) {
	b := s.business(ctx)
	var featured []ArticleCard
	for _, a := range s.articleCards(s.content().Articles) {
		for _, full := range s.content().Articles {
			if full.Slug == a.Slug && full.Featured {
				featured = append(featured, a)
			}
		}
	}
	latest := s.articleCards(s.content().Articles)
	if len(latest) > LatestArticles {
		latest = latest[:LatestArticles]
	}
	texts := s.content().Home
	texts.WhyText = content.FillText(texts.WhyText, s.content().Words.InsertValues(facts(b)))
	texts.Image = nil
	hero := s.heroImage(ctx, s.content().Home.Image)
	return Page{
		Data: HomeData{
			Texts: texts, Hero: hero,
			HeroCity: b.City, HeroCounty: b.County,
			Services:        serviceCards(s.content().PrimaryServices()),
			Gallery:         s.gallery(ctx),
			Reviews:         s.reviews.Top(ctx),
			Trust:           s.trustData(ctx),
			Categories:      s.content().Categories,
			Featured:        featured,
			Latest:          latest,
			FAQs:            s.content().FAQs["home"],
			DescriptionFAQs: s.content().FAQs["homeDescriptions"],
			Related:         s.related(""),
		},
		Head: HeadSpec{
			Title:       "Water, Fire & Storm Damage Restoration Atlanta | 24/7",
			Description: "24/7 water, fire and storm damage restoration and licensed general contractor in metro Atlanta. IICRC certified, direct insurance billing, free estimates.",
			Keywords:    []string{"water damage restoration Atlanta", "fire damage restoration", "storm damage repair", "general contractor Atlanta", "emergency restoration Douglasville"},
			Path:        "/",
			Image:       s.ogImage(hero),
		},
	}, nil
}

// TrustData is what the trust section shows besides the reviews.
type TrustData struct {
	Rating reviews.Figures `json:"rating"`
	// CanFetch is set when Google Places is configured: the empty reviews
	// block offers 'Click here to fetch reviews'. Otherwise it says that
	// reviews are not fetched here and links to them on Google.
	CanFetch bool `json:"canFetch"`
}

func (s *Site) trustData(ctx context.Context) TrustData {
	return TrustData{Rating: s.reviews.Figures(ctx), CanFetch: s.reviews.Configured()}
}

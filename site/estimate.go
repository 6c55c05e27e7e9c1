package site

import (
	"context"

	"github.com/atlanta-restoration/site/leads"
)

// The estimate page (/estimate and its thank-you state); the form's posts
// are web/estimate's.

// EstimateData is the estimate page's data.
type EstimateData struct {
	State *leads.EstimateState `json:"state"`
}

func estimateRoutes() []Route {
	return []Route{
		{Pattern: "/estimate", Page: "estimate", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
			Load: func(ctx context.Context, s *Site, _ Params) (Page, error) {
				return s.EstimatePage("/estimate", nil), nil
			}},
		{Pattern: "/estimate/thanks", Page: "estimate", Priority: "low", ChangeFreq: "yearly",
			Load: func(ctx context.Context, s *Site, _ Params) (Page, error) {
				return s.EstimatePage("/estimate/thanks", &leads.EstimateState{Values: leads.EstimateValues{}, Errors: map[string]string{}, Success: true}), nil
			}},
	}
}

// EstimatePage is the estimate page at path (/estimate, or its thank-you
// state) showing the form's state st (nil for an empty form).
func (s *Site) EstimatePage(path string, st *leads.EstimateState) Page {
	h := HeadSpec{
		Title:       "Free Restoration Estimate | Metro Atlanta",
		Description: "Request a free estimate for water, fire, storm or mold damage repair or remodeling in metro Atlanta. We reply within " + s.responseTime("emergency") + " for emergencies.",
		Keywords:    []string{"free estimate", "restoration estimate Atlanta", "water damage estimate"},
		Path:        "/estimate",
		Crumbs:      []Crumb{{"Free Estimate", "/estimate"}},
	}
	if path == "/estimate/thanks" {
		h.Title, h.Description, h.NoIndex = "Thank You | Estimate Request Received", "Your estimate request was received. Our team will contact you shortly.", true
		h.Path = path
		h.Crumbs = []Crumb{{"Free Estimate", "/estimate"}, {"Thank You", path}}
	}
	return Page{Data: EstimateData{State: st}, Head: h}
}

package server

import (
	"context"

	"github.com/atlanta-restoration/site/web/estimate"
)

// The estimate page (/estimate and its thank-you state); the form's posts
// are web/estimate's.

// EstimateState is what the form hands back (web/estimate).
type EstimateState = estimate.State

// EstimateData is the estimate page's data.
type EstimateData struct {
	State *estimate.State `json:"state"`
}

func estimateRoutes() []Route {
	return []Route{
		{Pattern: "/estimate", Page: "estimate", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
			Load: func(ctx context.Context, s *Server, _ params) (page, error) {
				return s.estimatePage("/estimate", nil), nil
			}},
		{Pattern: "/estimate/thanks", Page: "estimate", Priority: "low", ChangeFreq: "yearly",
			Load: func(ctx context.Context, s *Server, _ params) (page, error) {
				return s.estimatePage("/estimate/thanks", &estimate.State{Values: estimate.Values{}, Errors: map[string]string{}, Success: true}), nil
			}},
	}
}

func (s *Server) estimatePage(path string, st *estimate.State) page {
	h := headSpec{
		Title:       "Free Restoration Estimate | Metro Atlanta",
		Description: "Request a free estimate for water, fire, storm or mold damage repair or remodeling in metro Atlanta. We reply within 60 minutes for emergencies.",
		Keywords:    []string{"free estimate", "restoration estimate Atlanta", "water damage estimate"},
		Path:        "/estimate",
		Crumbs:      []Crumb{{"Free Estimate", "/estimate"}},
	}
	if path == "/estimate/thanks" {
		h.Title, h.Description, h.NoIndex = "Thank You | Estimate Request Received", "Your estimate request was received. Our team will contact you shortly.", true
		h.Path = path
		h.Crumbs = []Crumb{{"Free Estimate", "/estimate"}, {"Thank You", path}}
	}
	return page{Data: EstimateData{State: st}, Head: h}
}

func (s *Server) renderEstimate(ctx context.Context, path string, st *estimate.State) ([]byte, error) {
	pg := s.estimatePage(path, st)
	pg.Head.NoIndex = true
	return s.renderDoc(ctx, "estimate", path, pg)
}

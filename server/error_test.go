package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/site"
)

// TestRenderFailureServes500AndRecovers makes a page's render throw inside
// goja (props the component cannot handle): the request gets the 500 page
// rendered at boot, and the next requests are served normally.
func TestRenderFailureServes500AndRecovers(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	srv.site.AddRoute(site.Route{Pattern: "/broken", Page: "home", Indexable: false,
		Load: func(context.Context, *site.Site, site.Params) (site.Page, error) {
			return site.Page{Data: map[string]any{"services": "not a list"}, Head: site.HeadSpec{Title: "Broken", Description: "x", Path: "/broken"}}, nil
		}})
	r := get(t, srv.Handler(), "/broken")
	if r.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", r.StatusCode)
	}
	if !strings.Contains(text(bodyOf(r.Doc)), "Something went wrong") || !strings.Contains(r.Body, "(770) 555-0134") {
		t.Error("500 page texts missing")
	}
	for i := 0; i < 3; i++ {
		if r := get(t, srv.Handler(), "/contact"); r.StatusCode != 200 {
			t.Fatalf("after a failed render /contact answers %d", r.StatusCode)
		}
	}
}

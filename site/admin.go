package site

import (
	"context"

	"github.com/atlanta-restoration/site/admin"

	"github.com/atlanta-restoration/site/content"
)

// AdminPage is one screen of the admin area (spec 2.4), as the admin
// app's manifest lists it (admin/screens.json).
type AdminPage struct {
	Slug  string `json:"slug"` // "" is the dashboard
	Title string `json:"title"`
}

// AdminPages are the admin screens, in sidebar order, read from the one
// manifest the admin app's sidebar and router read too.
var AdminPages = func() []AdminPage {
	screens, err := admin.Screens()
	if err != nil {
		panic(err) // embedded and tested: a broken manifest fails every test
	}
	out := make([]AdminPage, len(screens))
	for i, sc := range screens {
		out[i] = AdminPage{Slug: sc.Slug, Title: sc.Title}
	}
	return out
}()

// The admin app's own web manifest and service worker (web/push): admin pages link this manifest instead of the public site's,
// so the admin installs as its own app, starting at the leads.
const (
	AdminManifestPath = "/admin/manifest.webmanifest"
	AdminWorkerPath   = "/admin/sw.js"
)

// AdminData is the admin shell's data: which screen the URL names. The
// server always renders the locked gate; the browser unlocks it.
type AdminData struct {
	Page  string      `json:"page"`
	Pages []AdminPage `json:"pages"`
}

func adminRoutes() []Route {
	return []Route{
		{Pattern: "/admin", Page: "admin", Priority: "low", ChangeFreq: "yearly", Load: loadAdmin},
		{Pattern: "/admin/{page}", Page: "admin", Priority: "low", ChangeFreq: "yearly", Load: loadAdmin,
			Expand: func(_ *content.Set) []string {
				var out []string
				for _, p := range AdminPages[1:] {
					out = append(out, "/admin/"+p.Slug)
				}
				return out
			}},
	}
}

func loadAdmin(_ context.Context, s *Site, p Params) (Page, error) {
	slug := p["page"]
	for _, ap := range AdminPages {
		if ap.Slug != slug {
			continue
		}
		path := "/admin"
		if slug != "" {
			path += "/" + slug
		}
		h := HeadSpec{Title: ap.Title + " | Admin", Description: "Admin area: " + ap.Title + ".", Path: path, NoIndex: true,
			Crumbs: []Crumb{{"Admin", "/admin"}}}
		if slug == "indexnow" {
			h.Title = "SEO & IndexNow | Admin"
			h.Description = "Check SEO compliance and route health, and submit the site's pages to search engines with IndexNow."
		}
		if slug != "" {
			h.Crumbs = append(h.Crumbs, Crumb{ap.Title, path})
		}
		return Page{Data: AdminData{Page: slug, Pages: AdminPages}, Head: h}, nil
	}
	return Page{}, ErrNotFound
}

package main

import (
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/retention"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/tsgen"
)

// propTypes are the public pages' props as the server hands them to the
// renderer (site.Site.Props, JSON-encoded into the render call), under
// the names the pages read them by: the frame every page gets, then each
// page kind's Data (its loader's Page.Data), by route group. A struct
// they reach that is not listed is written under its Go name.
//
// PageProps.Data is each kind's own type, so PageProps is generated with
// data: unknown and components/types.ts narrows it (PageProps<D>).
var propTypes = []tsgen.Type{
	// Every page (site/props.go, site/head.go).
	tsgen.Of("PageProps", site.PageProps{}),
	tsgen.Of("Head", site.Head{}),
	tsgen.Of("Geo", site.Geo{}),
	tsgen.Of("Site", site.SiteProps{}),
	tsgen.Of("Chrome", site.Chrome{}),
	tsgen.Of("LinkItem", site.LinkItem{}),
	tsgen.Of("BreadcrumbLink", site.BreadcrumbLink{}),
	// Shared by several pages.
	tsgen.Of("ServiceCard", site.ServiceCard{}),
	tsgen.Of("ArticleCard", site.ArticleCard{}),
	tsgen.Of("RelatedData", site.RelatedData{}),
	tsgen.Of("RelatedService", site.RelatedService{}),
	tsgen.Of("Link", site.Link{}),
	tsgen.Of("HeroImage", site.HeroImage{}),
	tsgen.Of("FAQItem", content.FAQ{}),
	tsgen.Of("Category", content.Category{}),
	tsgen.Of("Reason", content.Reason{}),
	tsgen.Of("Gallery", media.Gallery{}),
	tsgen.Of("GalleryItem", media.GalleryItem{}),
	// Home (site/home.go).
	tsgen.Of("HomeData", site.HomeData{}),
	tsgen.Of("HomeTexts", content.Home{}),
	tsgen.Of("ContentImage", content.Image{}),
	tsgen.Of("Review", reviews.Review{}),
	tsgen.Of("TrustData", site.TrustData{}),
	tsgen.Of("RatingFigures", reviews.Figures{}),
	// Services (site/services.go).
	tsgen.Of("ServicesData", site.ServicesData{}),
	tsgen.Of("ServiceData", site.ServiceData{}),
	tsgen.Of("ServiceDetail", site.ServiceDetail{}),
	tsgen.Of("WaterLandingData", site.WaterLandingData{}),
	tsgen.Of("WaterArea", site.WaterArea{}),
	// Service areas (site/areas.go).
	tsgen.Of("ServiceAreasData", site.ServiceAreasData{}),
	tsgen.Of("CountySummary", site.CountySummary{}),
	tsgen.Of("AreaLink", site.AreaLink{}),
	tsgen.Of("CountyData", site.CountyData{}),
	tsgen.Of("CountyCityCard", site.CountyCityCard{}),
	tsgen.Of("AreaService", site.AreaService{}),
	tsgen.Of("CountyProfileView", site.CountyProfileView{}),
	tsgen.Of("CityData", site.CityData{}),
	tsgen.Of("CityProfileData", site.CityProfileData{}),
	// Blog (site/blog.go).
	tsgen.Of("BlogIndexData", site.BlogIndexData{}),
	tsgen.Of("BlogPostData", site.BlogPostData{}),
	tsgen.Of("ArticleView", site.ArticleView{}),
	tsgen.Of("BlogCategoryData", site.BlogCategoryData{}),
	// Portfolio, contact, emergency, about/privacy/terms, HTML sitemap
	// (site/info.go).
	tsgen.Of("PortfolioData", site.PortfolioData{}),
	tsgen.Of("ContactData", site.ContactData{}),
	tsgen.Of("EmergencyData", site.EmergencyData{}),
	tsgen.Of("InfoData", site.InfoData{}),
	tsgen.Of("RetentionItem", retention.Item{}),
	tsgen.Of("SitemapData", site.SitemapData{}),
	tsgen.Of("SitemapGroup", site.SitemapGroup{}),
	// Jobs (site/jobs.go): the job page and the job cards of other pages.
	tsgen.Of("JobData", site.JobData{}),
	tsgen.Of("JobsSection", site.JobsSection{}),
	tsgen.Of("JobCard", site.JobCard{}),
	tsgen.Of("JobPhoto", site.JobPhoto{}),
	tsgen.Of("BeforeAfter", site.BeforeAfter{}),
	// Search (site/search.go).
	tsgen.Of("SearchData", site.SearchData{}),
	tsgen.Of("SearchResult", search.Result{}),
	// The estimate page (site/estimate.go); the form's state is also the
	// JSON answer of POST /api/estimate.
	tsgen.Of("EstimateData", site.EstimateData{}),
	tsgen.Of("EstimateState", leads.EstimateState{}),
	tsgen.Of("EstimateValues", leads.EstimateValues{}),
	// The admin shell (site/admin.go): the one page that hydrates whole.
	tsgen.Of("AdminData", site.AdminData{}),
	tsgen.Of("AdminPage", site.AdminPage{}),
	// The 404 and 500 pages (site/notfound.go).
	tsgen.Of("NotFoundData", site.NotFoundData{}),
	tsgen.Of("ErrorData", site.ErrorData{}),
	// Testimonials and the feedback page (site/testimonials.go,
	// site/feedback.go; ADR 063).
	tsgen.Of("Quote", site.Quote{}),
	tsgen.Of("FeedbackData", site.FeedbackData{}),
	// The homeowner's job page and the insurer's view (site/jobhome.go;
	// ADR 065).
	tsgen.Of("JobPageData", site.JobPageData{}),
	tsgen.Of("JobStep", site.JobStep{}),
	tsgen.Of("ClaimFacts", site.ClaimFacts{}),
	// The files section of the private job pages (site/job_files.go;
	// ADR 067).
	tsgen.Of("FilesView", site.FilesView{}),
	tsgen.Of("FileView", site.FileView{}),
	tsgen.Of("FilesForm", site.FilesForm{}),
	tsgen.Of("FilesPageData", site.FilesPageData{}),
	// The inspection booking (site/booking.go; ADR 066).
	tsgen.Of("BookingData", site.BookingData{}),
	tsgen.Of("BookingView", site.BookingView{}),
	tsgen.Of("BookingSlot", site.BookingSlot{}),
}

const propsHeader = `// Code generated by go run ./cmd/tsgen; DO NOT EDIT.
// The public pages' props as the server hands them to the renderer
// (cmd/tsgen/props.go lists which). Change the Go type, then run
// go run ./cmd/tsgen.

`

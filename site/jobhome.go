package site

// The homeowner's job page and the insurer's view of it (ADR 065): the
// private pages a lead's links open, /my/{token} and /claim/{token}.
// They are outside the route table (a token is no page of the site):
// web/portal finds the token and renders this page kind per request,
// never cached, never indexed, never in the sitemap.

func init() {
	extraKinds = append(extraKinds, "job-home")
	outsideKinds["/my"] = "job-home"
	outsideKinds["/claim"] = "job-home"
}

// JobStep is one step of the job's timeline, oldest first.
type JobStep struct {
	// Key names the step's words (words group jobHome).
	Key string `json:"key" tstype:"'received' | 'contacted' | 'scheduled' | 'onTheWay' | 'workStarted' | 'drying' | 'completed' | 'cancelled'"`
	// When is the step's time as the homeowner reads it (the company's
	// time zone).
	When string `json:"when"`
	// At is the same time, machine-readable (RFC 3339).
	At string `json:"at"`
	// Day is the drying's day ("drying"), counted from its first day.
	Day int `json:"day,omitempty"`
	// Visit is the inspection's date and window when it is known
	// ("scheduled" from a booking).
	Visit string `json:"visit,omitempty"`
}

// ClaimFacts are what an insurer's view shows of the lead: the property
// and the claim, never the homeowner's phone or email.
type ClaimFacts struct {
	Street      string `json:"street"`
	City        string `json:"city"`
	Zip         string `json:"zip"`
	Carrier     string `json:"carrier"`
	ClaimNumber string `json:"claimNumber"`
	Received    string `json:"received"`
}

// JobPageData is the job page's data.
type JobPageData struct {
	// View is whose page it is: the homeowner's, or an insurer's
	// read-only one (no contact, no messaging, no opt-out).
	View string `json:"view" tstype:"'homeowner' | 'adjuster'"`
	// State is what the homeowner's page shows: the page, the opt-out
	// question, or the opt-out done.
	State string `json:"state" tstype:"'page' | 'stop' | 'stopped'"`
	// FirstName greets the homeowner ("" on the insurer's view).
	FirstName string `json:"firstName"`
	// DamageType is the lead's, as the estimate form names it.
	DamageType string `json:"damageType"`
	// DoNow is the words key of what to do now for the damage type
	// (jobHome group: doWater, doFire...).
	DoNow string    `json:"doNow"`
	Steps []JobStep `json:"steps"`
	// Who is the first name of the person working the job ("": nobody
	// yet). Homeowner's view only.
	Who string `json:"who"`
	// StopHref is the opt-out page; StopAction where its button posts.
	StopHref string `json:"stopHref"`
	// Claim is the insurer's view's facts (nil on the homeowner's).
	Claim *ClaimFacts `json:"claim"`
	// Files are the lead's documents and shared photos, and on the
	// homeowner's view what they sent and the form to send more
	// (web/leadfiles, ADR 067).
	Files FilesView `json:"files"`
	// Booking is the inspection visit's section on the homeowner's view
	// (web/booking, ADR 066); nil on the insurer's.
	Booking *BookingView `json:"booking"`
}

// JobHomePage is the job page showing d: noindex, at a path that
// carries no token.
func (s *Site) JobHomePage(d JobPageData) Page {
	path, title, crumb := "/my", "Your Job", "Your Job"
	if d.View == "adjuster" {
		path, title, crumb = "/claim", "Claim File", "Claim File"
	}
	return Page{Data: d, Head: HeadSpec{
		Title:       title,
		Description: "Where the job stands, in plain words.",
		Path:        path,
		NoIndex:     true,
		Crumbs:      []Crumb{{crumb, path}},
	}}
}

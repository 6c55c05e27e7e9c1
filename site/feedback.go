package site

// The feedback page (issue 33, ADR 063): the private page a review
// request links to, /feedback/{token}. It is outside the route table (a
// token is no page of the site): web/feedback finds the token and
// renders this page kind, never cached, never indexed, never in the
// sitemap.

func init() {
	extraKinds = append(extraKinds, "feedback")
	outsideKinds["/feedback"] = "feedback"
}

// outsideKinds are the page kinds of paths outside the route table whose
// pages show words of their own (the catalogue's "pages").
var outsideKinds = map[string]string{}

// FeedbackData is the feedback page's state.
type FeedbackData struct {
	// State is what the page shows: the form, the thanks after a save
	// (the form again below it), the opt-out question, or the opt-out
	// done.
	State string `json:"state" tstype:"'form' | 'thanks' | 'stop' | 'stopped'"`
	// Action is where the form posts (the token's own path); StopHref is
	// the opt-out page.
	Action   string `json:"action"`
	StopHref string `json:"stopHref"`
	// FirstName and City are the lead's: the name the page greets and the
	// city a published testimonial is shown under.
	FirstName string `json:"firstName"`
	City      string `json:"city"`
	// ReviewLink is where to review the company on Google ("": none). It
	// is shown in every state: no score or word hides it.
	ReviewLink string `json:"reviewLink"`
	// Text and Consent are what the homeowner wrote and agreed to (their
	// last save, or the refused post with its Error).
	Text    string `json:"text"`
	Consent bool   `json:"consent"`
	MaxLen  int    `json:"maxLen"`
	Error   string `json:"error"`
}

// FeedbackPage is the feedback page showing d: noindex, at a path that
// carries no token (the canonical link and the breadcrumbs).
func (s *Site) FeedbackPage(d FeedbackData) Page {
	return Page{Data: d, Head: HeadSpec{
		Title:       "Tell Us How We Did",
		Description: "Tell us how our work went, and leave a few words for other homeowners if you like.",
		Path:        "/feedback",
		NoIndex:     true,
		Crumbs:      []Crumb{{"Your Feedback", "/feedback"}},
	}}
}

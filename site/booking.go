package site

// The booking page (ADR 066): a homeowner's inspection booking, at
// /my/{token}/booking. Like the feedback page it is outside the route
// table: web/booking resolves the token and renders this page kind per
// request, never cached, never indexed, never in the sitemap. Its
// section (components/job-booking.tsx) is also the job page's booking
// section (JobPageData.Booking).

func init() {
	extraKinds = append(extraKinds, "booking")
	outsideKinds["/my/booking"] = "booking"
}

// BookingSlot is one visit window a homeowner can pick or has booked.
type BookingSlot struct {
	// Value is the window's start (RFC 3339, UTC): what the form posts.
	Value string `json:"value"`
	// Day and Time are how it reads ("Tuesday, December 1" and "9:00 AM
	// to 11:00 AM", Atlanta time).
	Day  string `json:"day"`
	Time string `json:"time"`
}

// BookingView is the booking section's state.
type BookingView struct {
	// State: "pick" (no visit yet: the open windows), "booked" (the visit,
	// with move and cancel), "emergency" (no booking: the phone and the
	// promise of a call), "full" (no open window in the next days),
	// "closed" (the request is completed or cancelled: the phone).
	State string `json:"state" tstype:"'pick' | 'booked' | 'emergency' | 'full' | 'closed'"`
	// Action books or moves (POST, field "start"); CancelAction cancels;
	// ICSHref downloads the visit for a calendar.
	Action       string `json:"action"`
	CancelAction string `json:"cancelAction"`
	ICSHref      string `json:"icsHref"`
	// Booked is the live visit (State "booked").
	Booked *BookingSlot `json:"booked"`
	// Slots are the open windows (to pick, or to move to).
	Slots []BookingSlot `json:"slots"`
	// Moving shows the windows to move a booked visit to.
	Moving bool `json:"moving"`
	// Phone is the company's phone number.
	Phone string `json:"phone"`
	// Done says what was just done ("booked", "moved", "cancelled", "").
	Done  string `json:"done" tstype:"'booked' | 'moved' | 'cancelled' | ''"`
	Error string `json:"error"`
}

// BookingData is the booking page's data.
type BookingData struct {
	FirstName string      `json:"firstName"`
	Booking   BookingView `json:"booking"`
}

// BookingPage is the booking page showing d: noindex, at a path that
// carries no token (/my/booking: the job page's own kind keeps /my).
func (s *Site) BookingPage(d BookingData) Page {
	return Page{Data: d, Head: HeadSpec{
		Title:       "Book Your Inspection",
		Description: "Pick a time for your free inspection visit.",
		Path:        "/my/booking",
		NoIndex:     true,
		Crumbs:      []Crumb{{"Your Inspection", "/my/booking"}},
	}}
}

package leads

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// The staff member a lead is assigned to gets its address and message;
// nobody gets its phone or email from a masked row.
func TestMaskFor(t *testing.T) {
	crew := "u-crew"
	l := db.Lead{ID: "L1", Phone: "+17705550134", Email: "maria@example.com", StreetAddress: "12 Oak St", Notes: "Gate code 44", ZipCode: "30062",
		InsuranceCarrier: "Acme", ClaimNumber: "C-1", AssignedTo: &crew}
	for _, c := range []struct {
		viewer       string
		street, note string
	}{{"u-crew", "12 Oak St", "Gate code 44"}, {"u-other", "", ""}, {"", "", ""}} {
		m := MaskFor(l, c.viewer)
		if m.StreetAddress != c.street || m.Notes != c.note || m.Assigned != (c.street != "") {
			t.Errorf("%q: address %q, message %q, assigned %v", c.viewer, m.StreetAddress, m.Notes, m.Assigned)
		}
		if m.PhoneMasked != "(770) ***-**34" || m.EmailMasked != "m***@example.com" {
			t.Errorf("%q: %q %q", c.viewer, m.PhoneMasked, m.EmailMasked)
		}
	}
	l.AssignedTo = nil
	if m := MaskFor(l, ""); m.StreetAddress != "" {
		t.Error("an unassigned lead's address went to a caller without an account")
	}
}

func TestContactOf(t *testing.T) {
	for _, c := range []struct {
		phone, email string
		want         Contact
	}{
		{"+16785550199", "jane@example.com", Contact{ID: "L", Phone: "+16785550199", PhoneDisplay: "(678) 555-0199", PhoneHref: "tel:+16785550199",
			SMSHref: "sms:+16785550199", Email: "jane@example.com", EmailHref: "mailto:jane@example.com"}},
		{"+44 20 7946 0958", "Jane <jane@example.com>", Contact{ID: "L", Phone: "+44 20 7946 0958", PhoneDisplay: "+44 20 7946 0958", Email: "Jane <jane@example.com>"}},
	} {
		if diff := cmp.Diff(c.want, ContactOf(db.Lead{ID: "L", Phone: c.phone, Email: c.email})); diff != "" {
			t.Errorf("%s (-want, +got) %s", c.phone, diff)
		}
	}
}

// "Today" starts at midnight in Atlanta, whatever the server's zone.
func TestToday(t *testing.T) {
	now := time.Date(2026, 11, 27, 3, 30, 0, 0, time.UTC) // 22:30 on the 26th in Atlanta
	from, to := Today(now)
	if want := time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC); !from.Equal(want) || !to.Equal(now) {
		t.Errorf("today %v – %v, want from %v", from, to, want)
	}
	w := WaitingFor([]db.Lead{{ID: "A", CreatedAt: now.Add(-12 * time.Minute)}, {ID: "B", CreatedAt: now.Add(time.Minute)}}, "", now)
	if w[0].WaitingSeconds != 720 || w[1].WaitingSeconds != 0 {
		t.Errorf("waits %v %v", w[0].WaitingSeconds, w[1].WaitingSeconds)
	}
}

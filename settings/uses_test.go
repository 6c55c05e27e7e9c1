package settings

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPhoneFor(t *testing.T) {
	st := Settings{Phone: "(404) 555-0123", OfficePhone: "404.555.0123"}
	if st.PhoneFor(PlaceOffice) != "" || st.PhoneFor(PlaceCall) != "(404) 555-0123" || st.PhoneFor(PlaceStructuredData) != st.Phone {
		t.Errorf("the same number as the office: %q", st.PhoneFor(PlaceOffice))
	}
	st.OfficePhone = "(678) 555-0100"
	for _, p := range []Place{PlaceCall, PlaceStructuredData, PlaceAck, PlaceEstimate} {
		if st.PhoneFor(p) != st.Phone {
			t.Errorf("%s shows %q, want the 24/7 line", p, st.PhoneFor(p))
		}
	}
	if st.PhoneFor(PlaceOffice) != "(678) 555-0100" {
		t.Errorf("office %q", st.PhoneFor(PlaceOffice))
	}
}

// CountPhoneUses counts links, visible text and structured data, never
// the page's scripts (props), and lists numbers that are not settings.
func TestCountPhoneUses(t *testing.T) {
	page := `<html><head><script type="application/ld+json">{"telephone":"+1-404-555-0123"}</script></head><body>
<a href="tel:+14045550123">Call (404) 555-0123</a> <p>Office: <a href="tel:+16785550100">678-555-0100</a></p>
<p>Old: (770) 555-0134</p><script>window.props={"phone":"(404) 555-0123"}</script></body></html>`
	got := CountPhoneUses([]RenderedPage{{Path: "/contact", Kind: "Contact page", HTML: []byte(page)}, {Path: "/", Kind: "Home page", HTML: []byte(`<body>nothing</body>`)}},
		"(404) 555-0123", "(678) 555-0100")
	if got.Scanned != 2 || len(got.Numbers) != 2 {
		t.Fatalf("%+v", got)
	}
	line := got.Numbers[0]
	want := []KindUse{{Kind: "Contact page", Pages: 1, Example: "/contact", Links: 1, Texts: 1, StructuredData: 1}}
	if diff := cmp.Diff(want, line.Kinds); diff != "" || line.Pages != 1 || len(line.Elsewhere) == 0 {
		t.Errorf("24/7 line (-want, +got):\n%s", diff)
	}
	if off := got.Numbers[1]; off.Links != 1 || off.Texts != 1 || off.StructuredData != 0 || len(off.Elsewhere) != 0 {
		t.Errorf("office %+v", off)
	}
	if diff := cmp.Diff([]OtherNumber{{Number: "(770) 555-0134", Paths: []string{"/contact"}}}, got.Others); diff != "" {
		t.Errorf("others (-want, +got):\n%s", diff)
	}
}

func TestChangesNamesNoValues(t *testing.T) {
	a := Settings{Phone: "(404) 555-0123", BusinessHours: "Mo-Fr 08:00-18:00"}
	b := a
	b.Phone, b.OfficePhone = "(404) 555-0199", "(678) 555-0100"
	if diff := cmp.Diff([]string{"24/7 phone number", "office phone number"}, Changes(a, b)); diff != "" {
		t.Errorf("(-want, +got):\n%s", diff)
	}
	if len(Changes(a, a)) != 0 {
		t.Error("no change named something")
	}
}

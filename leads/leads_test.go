package leads

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"(770) 555-0134": "(770) ***-**34", "770.555.0134": "(770) ***-**34", "+1 770 555 0134": "(770) ***-**34",
		"+17705550134": "(770) ***-**34", // the stored E.164 form masks as before
		"55501":        "***01", "12": "**", "": "",
	} {
		if got := MaskPhone(in); got != want {
			t.Errorf("MaskPhone(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"jane@example.com": "j***@example.com", "J@x.io": "J***@x.io", "": "", "nonsense": "***", "@x.io": "***"} {
		if got := MaskEmail(in); got != want {
			t.Errorf("MaskEmail(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseFilter(t *testing.T) {
	f, err := ParseFilter(url.Values{"q": {" smith "}, "status": {"new"}, "emergency": {"true"}, "from": {"2026-11-01"}, "to": {"2026-11-02"}, "page": {"3"}, "perPage": {"500"}, "full": {"1"}, "damageType": {"Mold"}})
	if err != nil || f.Q != "smith" || f.Status != "new" || f.DamageType != "Mold" || *f.Emergency != true || f.Page != 3 || f.PerPage != MaxPerPage || !f.Full {
		t.Fatalf("%+v %v", f, err)
	}
	q := f.Query(false, true)
	if q.SearchContact || q.Limit != MaxPerPage || q.Offset != 2*MaxPerPage {
		t.Errorf("query %+v", q)
	}
	// 'to' includes the whole day, in Atlanta's time.
	if got := q.To.UTC(); !got.Equal(time.Date(2026, 11, 3, 5, 0, 0, 0, time.UTC)) {
		t.Errorf("to = %v", got)
	}
	if !f.Query(true, false).SearchContact || f.Query(true, false).Limit != 0 {
		t.Error("admin query")
	}
	for _, bad := range []url.Values{{"status": {"lost"}}, {"emergency": {"maybe"}}, {"from": {"11/01/2026"}}, {"page": {"0"}}, {"page": {"x"}}, {"perPage": {"-1"}}, {"q": {strings.Repeat("a", 201)}}} {
		if _, err := ParseFilter(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if f, _ := ParseFilter(url.Values{"status": {"all"}, "damageType": {"all"}}); f.Status != "" || f.DamageType != "" {
		t.Error("'all' is no filter")
	}
}

func TestCSVNeutralisesFormulas(t *testing.T) {
	var b bytes.Buffer
	w, err := NewCSVWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	l := db.Lead{ID: "L1", CreatedAt: time.Date(2026, 11, 22, 15, 4, 3, 0, time.UTC), FirstName: "=HYPERLINK(\"http://evil\")", LastName: "",
		Phone: "+44 20 7946 0958", Email: "@evil.example", City: "-2+3", DamageType: "\tTab", Status: "new", IsEmergency: true,
		StreetAddress: "=cmd|' /C calc'!A0", ZipCode: "+30062", InsuranceCarrier: "-Acme", Notes: "@SUM(1)\n=second line, \"quoted\""}
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The spec's nine columns first, in their order; then the visit's.
	if strings.Join(rows[0], ",") != "ID,Date,Name,Phone,Email,City,Damage Type,Status,Emergency,Street Address,ZIP,Insurance Carrier,Message" {
		t.Errorf("header %v", rows[0])
	}
	// Times in ISO 8601 with the business's offset (EST in November).
	want := []string{"L1", "2026-11-22T10:04:03-05:00", "'=HYPERLINK(\"http://evil\")", "'+44 20 7946 0958", "'@evil.example", "'-2+3", "'\tTab", "new", "Yes",
		"'=cmd|' /C calc'!A0", "'+30062", "'-Acme", "'@SUM(1)\n=second line, \"quoted\""}
	if len(rows[1]) != len(want) {
		t.Fatalf("row has %d cells, want %d: %q", len(rows[1]), len(want), rows[1])
	}
	for i := range want {
		if rows[1][i] != want[i] {
			t.Errorf("cell %d = %q, want %q", i, rows[1][i], want[i])
		}
	}
}

// The full view carries the links the leads manager shows: a tel: link
// only for a number that was normalised, a mailto: link only for one
// valid address.
func TestUnmasked(t *testing.T) {
	tests := []struct {
		phone, email                  string
		display, phoneHref, emailHref string
	}{
		{"+16785550199", "jane@example.com", "(678) 555-0199", "tel:+16785550199", "mailto:jane@example.com"},
		{"678-555-0199 x12", "", "678-555-0199 x12", "", ""},
		{"+44 20 7946 0958", "Jane <jane@example.com>", "+44 20 7946 0958", "", ""},
		{"+17705550134", "a@b.example, c@d.example", "(770) 555-0134", "tel:+17705550134", ""},
		{"+17705550134", "jane@example.com?cc=boss@example.com", "(770) 555-0134", "tel:+17705550134", ""},
		{"+17705550134", "jane@example.com\r\nBcc: x@evil.example", "(770) 555-0134", "tel:+17705550134", ""},
		{"+17705550134", "javascript:alert(1)", "(770) 555-0134", "tel:+17705550134", ""},
		{"+17705550134", "o'brien+leads@example.com", "(770) 555-0134", "tel:+17705550134", "mailto:o%27brien+leads@example.com"},
	}
	for _, tt := range tests {
		f := Unmasked(db.Lead{ID: "L", Phone: tt.phone, Email: tt.email})
		if f.PhoneDisplay != tt.display || f.PhoneHref != tt.phoneHref || f.EmailHref != tt.emailHref || f.Phone != tt.phone || f.Email != tt.email {
			t.Errorf("Unmasked(%q, %q) = %q %q %q", tt.phone, tt.email, f.PhoneDisplay, f.PhoneHref, f.EmailHref)
		}
	}
}

// The export's Phone is the formatted number (text in a spreadsheet, no
// formula escaping needed), or the phone as typed when it has no US form.
func TestCSVPhone(t *testing.T) {
	var b bytes.Buffer
	w, _ := NewCSVWriter(&b)
	for i, p := range []string{"+16785550199", "678-555-0199 x12", "=1+2"} {
		w.Write(db.Lead{ID: string(rune('a' + i)), Phone: p, Status: "new"})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[3])
	}
	if want := []string{"(678) 555-0199", "678-555-0199 x12", "'=1+2"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("phones %q, want %q", got, want)
	}
}

// The rows' keys (ADR 059): the fields spec 3 names keep the spec's
// names, everything the site added is camelCase, and the stored
// attribution is sent once, under its camelCase names.
func TestRowKeys(t *testing.T) {
	someone, at := "u1", time.Date(2026, 11, 27, 14, 2, 11, 0, time.UTC)
	l := db.Lead{ID: "L", FirstName: "Jane", Phone: "+16785550199", PhoneTyped: "678 555 0199", Email: "jane@example.com",
		StreetAddress: "1 Main St", Notes: "Basement", AssignedTo: &someone, FirstResponseAt: &at, EscalatedAt: &at,
		Attribution: db.Attribution{LandingPage: "/", ReferrerHost: "google.com", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "c",
			UTMTerm: "t", UTMContent: "x", GCLID: "g", GBRAID: "gb", WBRAID: "wb", FBCLID: "f", MSCLKID: "m", DeviceClass: "laptop", VisitID: "v"}}
	keys := func(v any) (top []string, attribution []string) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		top = slices.Sorted(maps.Keys(m))
		if a, ok := m["attribution"]; ok {
			var am map[string]any
			if err := json.Unmarshal(a, &am); err != nil {
				t.Fatal(err)
			}
			attribution = slices.Sorted(maps.Keys(am))
		}
		return top, attribution
	}
	spec := []string{"id", "created_at", "updated_at", "first_name", "last_name", "city", "zip_code", "damage_type", "status", "is_emergency", "source"}
	tests := []struct {
		name            string
		row             any
		top, attributed []string
	}{
		{"full", Unmasked(l),
			append(slices.Clone(spec), "phone", "email", "street_address", "insurance_carrier", "claim_number", "notes",
				"phoneTyped", "attribution", "assignedTo", "firstResponseAt", "escalatedAt", "phoneDisplay", "phoneHref", "emailHref"),
			[]string{"landingPage", "referrerHost", "utmSource", "utmMedium", "utmCampaign", "utmTerm", "utmContent",
				"gclid", "gbraid", "wbraid", "fbclid", "msclkid", "deviceClass", "visitId"}},
		{"masked, assigned to the viewer", MaskFor(l, someone),
			append(slices.Clone(spec), "phone_masked", "email_masked", "street_address", "notes", "assignedToMe"), nil},
		{"waiting", WaitingFor([]db.Lead{l}, "", at)[0], append(slices.Clone(spec), "phone_masked", "email_masked", "waitingSeconds"), nil},
		{"reveal", ContactOf(l), []string{"id", "phone", "phoneDisplay", "phoneHref", "smsHref", "email", "emailHref"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top, attributed := keys(tt.row)
			slices.Sort(tt.top)
			slices.Sort(tt.attributed)
			if diff := cmp.Diff(tt.top, top); diff != "" {
				t.Errorf("keys (-want, +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.attributed, attributed); diff != "" {
				t.Errorf("attribution's keys (-want, +got):\n%s", diff)
			}
		})
	}
	if f := Unmasked(l); f.Attribution.UTMCampaign != "c" || f.Attribution.VisitID != "v" || f.PhoneTyped != l.PhoneTyped || *f.AssignedTo != someone {
		t.Errorf("Unmasked lost a value: %+v", f)
	}
}

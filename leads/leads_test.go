package leads

import (
	"bytes"
	"encoding/csv"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"(770) 555-0134": "(770) ***-**34", "770.555.0134": "(770) ***-**34", "+1 770 555 0134": "(770) ***-**34",
		"55501": "***01", "12": "**", "": "",
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
	f, err := ParseFilter(url.Values{"q": {" smith "}, "status": {"new"}, "emergency": {"true"}, "from": {"2026-11-01"}, "to": {"2026-11-02"}, "page": {"3"}, "per_page": {"500"}, "full": {"1"}})
	if err != nil || f.Q != "smith" || f.Status != "new" || *f.Emergency != true || f.Page != 3 || f.PerPage != MaxPerPage || !f.Full {
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
	for _, bad := range []url.Values{{"status": {"lost"}}, {"emergency": {"maybe"}}, {"from": {"11/01/2026"}}, {"page": {"0"}}, {"page": {"x"}}, {"per_page": {"-1"}}, {"q": {strings.Repeat("a", 201)}}} {
		if _, err := ParseFilter(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if f, _ := ParseFilter(url.Values{"status": {"all"}, "damage_type": {"all"}}); f.Status != "" || f.DamageType != "" {
		t.Error("'all' is no filter")
	}
}

func TestCSVNeutralisesFormulas(t *testing.T) {
	var b bytes.Buffer
	w, err := NewCSVWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	l := db.Lead{ID: "L1", CreatedAt: time.Date(2026, 11, 22, 15, 4, 0, 0, time.UTC), FirstName: "=HYPERLINK(\"http://evil\")", LastName: "",
		Phone: "+1 770 555 0134", Email: "@evil.example", City: "-2+3", DamageType: "\tTab", Status: "new", IsEmergency: true}
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
	if strings.Join(rows[0], ",") != "ID,Date,Name,Phone,Email,City,Damage Type,Status,Emergency" {
		t.Errorf("header %v", rows[0])
	}
	want := []string{"L1", "2026-11-22 10:04", "'=HYPERLINK(\"http://evil\")", "'+1 770 555 0134", "'@evil.example", "'-2+3", "'\tTab", "new", "Yes"}
	for i := range want {
		if rows[1][i] != want[i] {
			t.Errorf("cell %d = %q, want %q", i, rows[1][i], want[i])
		}
	}
}

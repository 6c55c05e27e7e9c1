// Package leads holds the Secure Leads Manager's rules (spec 6):
// what each role may see of a lead (masking happens here, on the server),
// the list's filters and pages, and the CSV export. Storage is db's; the
// HTTP handlers are server's.
package leads

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/phone"
)

// Page sizes of the list.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
)

// Masked is the row staff receive (and admins without 'show full data'):
// no phone, email, street address, insurance carrier, claim number or
// notes, only phone_masked and email_masked (spec 3). A staff member the
// lead is assigned to also gets what the visit needs (MaskFor): the
// street address and the homeowner's message, never the phone or email.
//
// The spec names a lead's fields and the masked list's two (spec 3), so
// they are sent under the spec's names (created_at, phone_masked); what
// the site added is camelCase like the rest of the admin API (ADR 059).
type Masked struct {
	ID          string    `json:"id"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	FirstName   string    `json:"first_name"`
	LastName    string    `json:"last_name"`
	City        string    `json:"city"`
	ZipCode     string    `json:"zip_code"`
	DamageType  string    `json:"damage_type"`
	Status      string    `json:"status"`
	IsEmergency bool      `json:"is_emergency"`
	Source      string    `json:"source"`
	PhoneMasked string    `json:"phone_masked"`
	EmailMasked string    `json:"email_masked"`
	// StreetAddress and Notes (the homeowner's message) are set only for
	// the account the lead is assigned to (MaskFor); absent otherwise.
	StreetAddress string `json:"street_address,omitempty"`
	Notes         string `json:"notes,omitempty"`
	// Assigned says the lead is assigned to the account that receives
	// this row (MaskFor).
	Assigned bool `json:"assignedToMe,omitempty"`
}

// View is a lead as one caller may see it: Masked or Full, and nothing
// else (the method is unexported, so no other type is a View).
type View interface{ leadView() }

func (Masked) leadView() {}
func (Full) leadView()   {}

// Mask returns the masked view of a lead.
func Mask(l db.Lead) Masked {
	return Masked{ID: l.ID, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, FirstName: l.FirstName, LastName: l.LastName,
		City: l.City, ZipCode: l.ZipCode, DamageType: l.DamageType, Status: l.Status, IsEmergency: l.IsEmergency,
		Source: l.Source, PhoneMasked: MaskPhone(l.Phone), EmailMasked: MaskEmail(l.Email)}
}

// MaskFor is the masked view of a lead for the account viewerID: when
// the lead is assigned to that account, with the street address and the
// homeowner's message the visit needs. The phone and email stay masked
// whoever asks: only an admin's reveal or full data carries them.
func MaskFor(l db.Lead, viewerID string) Masked {
	m := Mask(l)
	if viewerID != "" && l.AssignedTo != nil && *l.AssignedTo == viewerID {
		m.StreetAddress, m.Notes, m.Assigned = l.StreetAddress, l.Notes, true
	}
	return m
}

// Full is the row admins receive with 'show full data' and in the
// details dialog: every column, plus the contact links the browser shows
// as they are (the server formats, the browser displays).
//
// Its JSON is its own (ADR 059): the spec's fields under the spec's
// names, what the site added in camelCase. db.Lead's JSON is the stored
// form (the spool file, the outbox and the webhook's body) and keeps the
// table's column names.
type Full struct {
	columns
	// Attribution is where the visit came from: db.Lead's, under the
	// admin API's names.
	Attribution AttributionView `json:"attribution"`
	// PhoneDisplay is "(678) 555-0199" for a North American number, else
	// the phone as typed.
	PhoneDisplay string `json:"phoneDisplay"`
	// PhoneHref is "tel:+16785550199", or "" when the phone could not be
	// normalised (no link that may dial the wrong party).
	PhoneHref string `json:"phoneHref"`
	// EmailHref is "mailto:" and the address, or "" without a valid one.
	EmailHref string `json:"emailHref"`
}

// columns is db.Lead under the admin API's names: the same fields in the
// same order, so Unmasked converts one into the other and a column added
// to db.Lead does not compile here until it is given its name.
type columns struct {
	// The spec's fields (spec 3), under the spec's names.
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	FirstName string    `json:"first_name"`
	LastName  string    `json:"last_name"`
	Phone     string    `json:"phone"`
	// PhoneTyped is the phone as the visitor typed it (ADR 020).
	PhoneTyped       string `json:"phoneTyped"`
	Email            string `json:"email"`
	City             string `json:"city"`
	StreetAddress    string `json:"street_address"`
	ZipCode          string `json:"zip_code"`
	DamageType       string `json:"damage_type"`
	Status           string `json:"status"`
	IsEmergency      bool   `json:"is_emergency"`
	Source           string `json:"source"`
	InsuranceCarrier string `json:"insurance_carrier"`
	ClaimNumber      string `json:"claim_number"`
	Notes            string `json:"notes"`
	// The stored attribution is sent as Full.Attribution.
	db.Attribution  `json:"-"`
	AssignedTo      *string    `json:"assignedTo"`
	FirstResponseAt *time.Time `json:"firstResponseAt"`
	EscalatedAt     *time.Time `json:"escalatedAt"`
}

// AttributionView is a lead's Attribution as the admin API sends it:
// db.Attribution's fields under camelCase names.
type AttributionView struct {
	LandingPage  string `json:"landingPage"`
	ReferrerHost string `json:"referrerHost"`
	UTMSource    string `json:"utmSource"`
	UTMMedium    string `json:"utmMedium"`
	UTMCampaign  string `json:"utmCampaign"`
	UTMTerm      string `json:"utmTerm"`
	UTMContent   string `json:"utmContent"`
	GCLID        string `json:"gclid"`
	GBRAID       string `json:"gbraid"`
	WBRAID       string `json:"wbraid"`
	FBCLID       string `json:"fbclid"`
	MSCLKID      string `json:"msclkid"`
	DeviceClass  string `json:"deviceClass"`
	VisitID      string `json:"visitId"`
}

// Unmasked returns the full view of a lead.
func Unmasked(l db.Lead) Full {
	return Full{columns: columns(l), Attribution: AttributionView(l.Attribution),
		PhoneDisplay: phone.Display(l.Phone), PhoneHref: phone.Href(l.Phone), EmailHref: EmailHref(l.Email)}
}

// EmailHref is the mailto: link for an email address, or "" when e is not
// one bare, valid address (a name, a list or a header trick is no link).
// The address is percent-escaped where a URL needs it ('?' would start
// mailto's header fields).
func EmailHref(e string) string {
	e = strings.TrimSpace(e)
	a, err := mail.ParseAddress(e)
	if e == "" || err != nil || a.Address != e || !strings.Contains(e, "@") {
		return ""
	}
	return "mailto:" + url.PathEscape(e)
}

// MaskPhone keeps a US number's area code and last two digits:
// "(770) 555-0134" becomes "(770) ***-**34". Any other number keeps only
// its last two digits.
func MaskPhone(p string) string {
	var d []byte
	for i := 0; i < len(p); i++ {
		if p[i] >= '0' && p[i] <= '9' {
			d = append(d, p[i])
		}
	}
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	switch {
	case len(d) == 10:
		return "(" + string(d[:3]) + ") ***-**" + string(d[8:])
	case len(d) >= 4:
		return strings.Repeat("*", len(d)-2) + string(d[len(d)-2:])
	case len(d) > 0:
		return strings.Repeat("*", len(d))
	}
	return ""
}

// MaskEmail keeps the first character and the domain:
// "jane@example.com" becomes "j***@example.com".
func MaskEmail(e string) string {
	e = strings.TrimSpace(e)
	if e == "" {
		return ""
	}
	local, domain, ok := strings.Cut(e, "@")
	if !ok || local == "" {
		return "***"
	}
	r := []rune(local)
	return string(r[0]) + "***@" + domain
}

// Filter is the list's and the export's query, parsed from the URL.
type Filter struct {
	Q          string
	Status     string
	DamageType string
	Emergency  *bool
	From, To   string // YYYY-MM-DD, as given
	Page       int
	PerPage    int
	Full       bool
}

// Zone is the business's time zone: a date filter means that day in
// Atlanta, not in UTC.
var Zone = func() *time.Location {
	if z, err := time.LoadLocation("America/New_York"); err == nil {
		return z
	}
	return time.FixedZone("EST", -5*3600)
}()

const maxQuery = 200

// ParseFilter reads a filter from the query string (q, status,
// damageType, emergency, from, to, page, perPage, full), with a message
// for the first bad value. The old snake_case names are the HTTP side's
// to read (web/leads, ADR 059).
func ParseFilter(v url.Values) (Filter, error) {
	f := Filter{Q: strings.TrimSpace(v.Get("q")), Status: v.Get("status"), DamageType: v.Get("damageType"),
		From: v.Get("from"), To: v.Get("to"), Page: 1, PerPage: DefaultPerPage, Full: v.Get("full") == "1" || v.Get("full") == "true"}
	if len(f.Q) > maxQuery {
		return f, fmt.Errorf("Search must be at most %d characters.", maxQuery)
	}
	if f.Status != "" && f.Status != "all" && !validStatus(f.Status) {
		return f, errors.New(StatusMessage)
	}
	if f.Status == "all" {
		f.Status = ""
	}
	if f.DamageType == "all" {
		f.DamageType = ""
	}
	if len(f.DamageType) > 100 {
		return f, errors.New("Unknown damage type.")
	}
	switch v.Get("emergency") {
	case "", "all":
	case "true", "1", "yes":
		t := true
		f.Emergency = &t
	case "false", "0", "no":
		t := false
		f.Emergency = &t
	default:
		return f, errors.New("Emergency must be true or false.")
	}
	for _, d := range []string{f.From, f.To} {
		if d == "" {
			continue
		}
		if _, err := time.ParseInLocation("2006-01-02", d, Zone); err != nil {
			return f, errors.New("Dates must look like 2026-11-22.")
		}
	}
	if p := v.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 1_000_000 {
			return f, errors.New("Page must be a positive number.")
		}
		f.Page = n
	}
	if p := v.Get("perPage"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return f, fmt.Errorf("Per page must be between 1 and %d.", MaxPerPage)
		}
		f.PerPage = min(n, MaxPerPage)
	}
	return f, nil
}

// StatusMessage is the answer to an unknown status.
const StatusMessage = "Status must be one of new, contacted, scheduled, completed, cancelled."

func validStatus(s string) bool {
	for _, st := range db.LeadStatuses {
		if s == st {
			return true
		}
	}
	return false
}

// ValidStatus reports whether s is one of spec 4's five statuses.
func ValidStatus(s string) bool { return validStatus(s) }

// Query turns a filter into the store's query. Only admins search phone
// numbers and emails: for staff those columns are not searched at all, so
// a search cannot be used to confirm a number it may not see.
func (f Filter) Query(admin bool, paged bool) db.LeadQuery {
	q := db.LeadQuery{Q: f.Q, SearchContact: admin, Status: f.Status, DamageType: f.DamageType, Emergency: f.Emergency}
	if f.From != "" {
		t, _ := time.ParseInLocation("2006-01-02", f.From, Zone)
		q.From = &t
	}
	if f.To != "" {
		t, _ := time.ParseInLocation("2006-01-02", f.To, Zone)
		t = t.AddDate(0, 0, 1) // the whole 'to' day
		q.To = &t
	}
	if paged {
		q.Limit, q.Offset = f.PerPage, (f.Page-1)*f.PerPage
	}
	return q
}

// Describe is the filter in words, for the audit log. It is stored in
// audit rows and read back (web/leads, filterWords), so its keys are the
// detail's own, not the query parameters: damage_type stays, whatever the
// parameter is called (ADR 059).
func (f Filter) Describe() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("q", f.Q)
	add("status", f.Status)
	add("damage_type", f.DamageType)
	if f.Emergency != nil {
		add("emergency", strconv.FormatBool(*f.Emergency))
	}
	add("from", f.From)
	add("to", f.To)
	if len(parts) == 0 {
		return "all leads"
	}
	return strings.Join(parts, " ")
}

// CSVHeader is the export's header row, exactly as the owner's
// spreadsheets expect it (the spec's nine columns).
var CSVHeader = []string{"ID", "Date", "Name", "Phone", "Email", "City", "Damage Type", "Status", "Emergency"}

// VisitCSVHeader are the columns every export adds after CSVHeader's
// nine: what a visit and the insurer need.
var VisitCSVHeader = []string{"Street Address", "ZIP", "Insurance Carrier", "Message"}

// CSVTimeLayout writes a lead's time in ISO 8601 with the business's
// offset, "2026-11-27T09:14:03-05:00": a spreadsheet or CRM reading the
// file knows the instant, not only the wall-clock time.
const CSVTimeLayout = time.RFC3339

// SourceCSVHeader are the columns 'Export with source' adds after
// CSVHeader's nine and VisitCSVHeader's four, for admins: the lead's
// attribution.
var SourceCSVHeader = []string{"Landing Page", "Referrer", "UTM Source", "UTM Medium", "UTM Campaign", "UTM Term", "UTM Content",
	"GCLID", "GBRAID", "WBRAID", "FBCLID", "MSCLKID", "Device", "Visit ID"}

// CSVWriter writes the export row by row (RFC 4180, as encoding/csv
// writes it, with more cells quoted: see row).
type CSVWriter struct {
	w *bufio.Writer
	// source adds the attribution columns (SourceCSVHeader).
	source bool
}

// NewCSVWriter writes the header to w: the spec's nine columns, then
// the visit's four.
func NewCSVWriter(w io.Writer) (*CSVWriter, error) {
	c := &CSVWriter{w: bufio.NewWriter(w)}
	return c, c.row(append(append([]string{}, CSVHeader...), VisitCSVHeader...))
}

// NewSourceCSVWriter writes the header of 'Export with source' to w:
// spec's nine columns, the visit's four, then the attribution's.
func NewSourceCSVWriter(w io.Writer) (*CSVWriter, error) {
	c := &CSVWriter{w: bufio.NewWriter(w), source: true}
	return c, c.row(slices.Concat(CSVHeader, VisitCSVHeader, SourceCSVHeader))
}

// row writes one record. A cell is quoted when it holds a quote, a line
// break or any character a spreadsheet may split on: the comma, and the
// semicolon and tab that Excel (in much of Europe) and text imports use.
// encoding/csv quotes only for the comma, so "Bob;=cmd|..." went out
// bare and became a cell "=cmd|..." wherever semicolons split: quoted, it
// stays one cell everywhere, and SafeCell's check of its first character
// is the one that counts.
func (c *CSVWriter) row(cells []string) error {
	for i, cell := range cells {
		if i > 0 {
			c.w.WriteByte(',')
		}
		first, _ := utf8.DecodeRuneInString(cell)
		if cell != "" && (strings.ContainsAny(cell, "\",;\t\r\n") || unicode.IsSpace(first)) {
			c.w.WriteByte('"')
			c.w.WriteString(strings.ReplaceAll(cell, `"`, `""`))
			c.w.WriteByte('"')
		} else {
			c.w.WriteString(cell)
		}
	}
	return c.w.WriteByte('\n')
}

// Write adds one lead. Every cell is neutralised against formula
// injection.
func (c *CSVWriter) Write(l db.Lead) error {
	emergency := "No"
	if l.IsEmergency {
		emergency = "Yes"
	}
	name := strings.TrimSpace(l.FirstName + " " + l.LastName)
	// Phone: the formatted number, "(678) 555-0199", which a spreadsheet
	// keeps as text and a person reads; E.164's leading + would be taken
	// for a formula and get SafeCell's apostrophe. Numbers that could not
	// be normalised are exported as typed.
	row := []string{l.ID, l.CreatedAt.In(Zone).Format(CSVTimeLayout), name, phone.Display(l.Phone), l.Email, l.City, l.DamageType, l.Status, emergency,
		l.StreetAddress, l.ZipCode, l.InsuranceCarrier, l.Notes}
	if c.source {
		a := l.Attribution
		row = append(row, a.LandingPage, a.ReferrerHost, a.UTMSource, a.UTMMedium, a.UTMCampaign, a.UTMTerm, a.UTMContent,
			a.GCLID, a.GBRAID, a.WBRAID, a.FBCLID, a.MSCLKID, a.DeviceClass, a.VisitID)
	}
	for i := range row {
		row[i] = SafeCell(row[i])
	}
	return c.row(row)
}

// Flush writes what is buffered and reports a write error.
func (c *CSVWriter) Flush() error {
	return c.w.Flush()
}

// SafeCell neutralises a cell a spreadsheet would read as a formula: one
// that begins with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe (OWASP's advice for CSV injection).
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

package leads

// The native estimate form (ADR 025): its fields, the state it is
// rendered with after a post, its choices and its rules. The site renders
// the form with an EstimateState (site.EstimatePage); web/estimate parses
// a post, checks it here and hands the lead to the intake.

import (
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// EstimateValues are the native estimate form's fields, as typed.
type EstimateValues struct {
	Name             string `json:"name"`
	Phone            string `json:"phone"`
	Email            string `json:"email"`
	City             string `json:"city"`
	Street           string `json:"street"`
	Zip              string `json:"zip"`
	DamageType       string `json:"damageType"`
	Emergency        string `json:"emergency"`
	InsuranceCarrier string `json:"insuranceCarrier"`
	Notes            string `json:"notes"`
}

// EstimateState is handed back to the form: values, a message per field,
// and whether the request was saved.
type EstimateState struct {
	Values EstimateValues `json:"values"`
	// Errors are keyed by a Values field's JSON name, or "form" for a
	// message about the whole request.
	Errors  map[string]string `json:"errors" tstype:"Partial<Record<keyof EstimateValues | 'form', string>>"`
	Success bool              `json:"success"`
	// Booking is where the homeowner of a saved non-emergency request
	// picks an inspection time (their private link; "" for none). The
	// thank-you screen links to it.
	Booking string `json:"booking,omitempty"`
	// Attribution is where the visit came from, as the server admitted
	// it (hidden field name → value): a form rendered again without
	// JavaScript carries it on, since its next post's Referer is the
	// form's own address.
	Attribution map[string]string `json:"attribution,omitempty"`
}

// AttributionFields are a's values under the estimate form's hidden
// field names (Field*, AttributionParams), empty ones left out.
func AttributionFields(a Attribution) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{
		FieldLanding: a.LandingPage, FieldReferrer: a.ReferrerHost, FieldDevice: a.DeviceClass, FieldVisit: a.VisitID,
		"utm_source": a.UTMSource, "utm_medium": a.UTMMedium, "utm_campaign": a.UTMCampaign, "utm_term": a.UTMTerm, "utm_content": a.UTMContent,
		"gclid": a.GCLID, "gbraid": a.GBRAID, "wbraid": a.WBRAID, "fbclid": a.FBCLID, "msclkid": a.MSCLKID,
	} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// DamageTypes are the form's choices; components/estimate-form.tsx shows
// the same list.
var DamageTypes = []string{"Water Damage", "Fire & Smoke Damage", "Storm Damage", "Mold", "Roof Damage", "Remodeling / Construction", "Other"}

// Field limits, in characters.
const (
	maxName    = 120
	maxEmail   = 254
	maxCity    = 80
	maxStreet  = 200
	maxCarrier = 120
	maxNotes   = 2000
)

// MsgBadField is the estimate form's message for a field holding text
// the site cannot store.
const MsgBadField = "Please remove the special characters from this field (a NUL character or invalid text)."

// Printable is v as it can be shown back in the form: invalid UTF-8
// becomes U+FFFD and NULs go, so the visitor sees where the text was.
func (v EstimateValues) Printable() EstimateValues {
	p := func(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "") }
	return EstimateValues{Name: p(v.Name), Phone: p(v.Phone), Email: p(v.Email), City: p(v.City), Street: p(v.Street), Zip: p(v.Zip),
		DamageType: p(v.DamageType), Emergency: p(v.Emergency), InsuranceCarrier: p(v.InsuranceCarrier), Notes: p(v.Notes)}
}

// ValidateEstimate checks every field and returns a message per bad field.
func ValidateEstimate(v EstimateValues) map[string]string {
	errs := map[string]string{}
	// subject carries its verb: "Name is", "Notes are".
	tooLong := func(field, subject string, val string, max int) bool {
		if utf8.RuneCountInString(val) > max {
			errs[field] = fmt.Sprintf("%s too long (%d characters at most).", subject, max)
			return true
		}
		return false
	}
	// Text the databases cannot store (a NUL, invalid UTF-8) is refused
	// here, per field, rather than "received" and never stored.
	for field, val := range map[string]string{"name": v.Name, "phone": v.Phone, "email": v.Email, "city": v.City, "street": v.Street, "zip": v.Zip,
		"damageType": v.DamageType, "emergency": v.Emergency, "insuranceCarrier": v.InsuranceCarrier, "notes": v.Notes} {
		if !guard.ValidText(val) {
			errs[field] = MsgBadField
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if !tooLong("name", "Name is", v.Name, maxName) && v.Name == "" {
		errs["name"] = "Please enter your name."
	}
	if d := config.PhoneDigits(v.Phone); len(v.Phone) > 30 || len(d) != 10 {
		errs["phone"] = "Please enter a 10-digit phone number, e.g. (770) 555-0134."
	}
	if !tooLong("email", "Email is", v.Email, maxEmail) && v.Email != "" {
		if a, err := mail.ParseAddress(v.Email); err != nil || a.Address != v.Email || !strings.Contains(v.Email[strings.LastIndex(v.Email, "@"):], ".") {
			errs["email"] = "Please enter a valid email address, e.g. name@example.com."
		}
	}
	if !tooLong("city", "City is", v.City, maxCity) && v.City == "" {
		errs["city"] = "Please enter the city where the property is."
	}
	tooLong("street", "Street address is", v.Street, maxStreet)
	if v.Zip != "" && !zipOK(v.Zip) {
		errs["zip"] = "Please enter a 5-digit ZIP code."
	}
	valid := false
	for _, d := range DamageTypes {
		valid = valid || d == v.DamageType
	}
	if !valid {
		errs["damageType"] = "Please choose the type of damage."
	}
	if v.Emergency != "yes" && v.Emergency != "no" {
		errs["emergency"] = "Please tell us whether this is an emergency."
	}
	tooLong("insuranceCarrier", "Insurance carrier is", v.InsuranceCarrier, maxCarrier)
	tooLong("notes", "Notes are", v.Notes, maxNotes)
	return errs
}

func zipOK(z string) bool {
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	if len(z) == 5 {
		return digits(z)
	}
	return len(z) == 10 && z[5] == '-' && digits(z[:5]) && digits(z[6:])
}

// Lead is a new lead from the form, with a fresh id: the id is also
// the idempotency key that makes a spool replay store it once.
func (v EstimateValues) Lead(now time.Time) db.Lead {
	first, last, _ := strings.Cut(v.Name, " ")
	return db.Lead{
		ID: uuid.NewString(), CreatedAt: now, UpdatedAt: now, FirstName: first, LastName: strings.TrimSpace(last),
		Phone: v.Phone, Email: v.Email, City: v.City, StreetAddress: v.Street, ZipCode: v.Zip, DamageType: v.DamageType,
		Status: "new", IsEmergency: v.Emergency == "yes", Source: "website", InsuranceCarrier: v.InsuranceCarrier, Notes: v.Notes,
	}
}

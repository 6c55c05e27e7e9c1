// Package settings is System Settings (spec 2.4): the business facts the
// owner may change over the configured ones, the feature switches, the
// 24/7 emergency mode, the business hours (hours.go) and the owner's
// review figures. The phone model is ADR 039's: Phone is the one number
// every call button, tel: link, structured data, acknowledgement and text
// use; OfficePhone is an optional second number shown on the contact page
// only (PhoneFor). Every public page reads the business facts
// and the availability from here; the settings room (web/settings) saves
// through Save. No HTTP here.
package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/reviews"
)

// Settings are what System Settings edits. The business facts override
// the configured ones on every public page; the toggles are kept for the
// features they switch.
type Settings struct {
	BusinessName string `json:"businessName"`
	// Phone is the 24/7 line: the number every place of the site shows
	// and dials (PhoneFor), in and out of emergency mode.
	Phone   string `json:"phone"`
	Address string `json:"address"`
	Website string `json:"website"`
	// OfficePhone is an optional office number, shown on the contact
	// page beside the business hours; "" (or the same number) means the
	// 24/7 line only.
	OfficePhone   string `json:"officePhone"`
	AutoIndexNow  bool   `json:"autoIndexNow"`
	SEOMonitoring bool   `json:"seoMonitoring"`
	AutoSchema    bool   `json:"autoSchema"`
	EmergencyMode bool   `json:"emergencyMode"`
	// BusinessHours are in schema.org openingHours syntax (hours.go);
	// BusinessHoursText is how visitors read them (answers only).
	BusinessHours     string `json:"businessHours"`
	BusinessHoursText string `json:"businessHoursText"`
	// ReviewRating and ReviewCount are the trust section's rating figures
	// while Google Places is not configured (ADR 021). They
	// never go into structured data. A save without them keeps the saved
	// ones.
	ReviewRating FormValue `json:"reviewRating"`
	ReviewCount  FormValue `json:"reviewCount"`
	// LeadAck switches the homeowner's acknowledgement email (notify.Ack):
	// on by default. A save without it keeps the saved
	// value; answers always carry it.
	LeadAck *bool `json:"leadAck" tstype:"boolean"`
	// ReviewFigures says which figures the site shows now and where they
	// come from. Read-only: a save ignores it.
	ReviewFigures *ReviewFiguresInfo `json:"reviewFigures,omitempty"`
}

// ReviewFiguresInfo tells the owner which rating figures the site shows.
type ReviewFiguresInfo struct {
	// PlacesConfigured: GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are set.
	PlacesConfigured bool `json:"placesConfigured"`
	// InUse are the figures the trust section shows now.
	InUse reviews.Figures `json:"inUse"`
	// InStructuredData: InUse goes into the LocalBusiness JSON-LD.
	InStructuredData bool `json:"inStructuredData"`
}

// FormValue is a form field sent as a JSON string or number. Null or
// absent leaves it unset; any other JSON value is kept as text that fails
// validation with the field's own message.
type FormValue struct {
	Set  bool
	Text string
}

// UnmarshalJSON takes a string or a number; see FormValue.
func (v *FormValue) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = FormValue{}
		return nil
	}
	*v = FormValue{Set: true}
	var str string
	if json.Unmarshal(b, &str) == nil {
		v.Text = str
		return nil
	}
	var n json.Number
	if json.Unmarshal(b, &n) == nil {
		v.Text = n.String()
		return nil
	}
	v.Text = "\x00" // an object, array or boolean: invalid
	return nil
}

// MarshalJSON sends the text.
func (v FormValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.Text) }

// Text is a set form value.
func Text(s string) FormValue { return FormValue{Set: true, Text: s} }

// Owner are the owner's review figures of saved settings (defaults for
// what is missing or unreadable).
func (st Settings) Owner() reviews.Owner {
	return reviews.OwnerFromSettings(map[string]string{reviews.KeyOwnerRating: st.ReviewRating.Text, reviews.KeyOwnerCount: st.ReviewCount.Text})
}

// Availability derives what the emergency elements follow from the
// settings.
func (st Settings) Availability() Availability {
	h, err := ParseHours(st.BusinessHours)
	if err != nil {
		h, _ = ParseHours(DefaultHours)
	}
	return Availability{EmergencyMode: st.EmergencyMode, Hours: h}
}

// Place is where the public site shows a phone number.
type Place string

// The places that show a phone number. Every one but PlaceOffice shows
// the 24/7 line.
const (
	PlaceCall           Place = "call"            // call buttons, bars, banners, tel: links, top bar, footer
	PlaceStructuredData Place = "structured-data" // LocalBusiness and Organization telephone
	PlaceAck            Place = "acknowledgement" // the homeowner's acknowledgement email
	PlaceEstimate       Place = "estimate"        // the estimate form's 'call us' messages
	PlaceOffice         Place = "office"          // the contact page's office line
)

// PhoneFor is the one function that chooses the number a place shows:
// the 24/7 line everywhere, and at the contact page's office line the
// office number, or "" when there is none or it is the 24/7 line.
func (st Settings) PhoneFor(p Place) string {
	if p != PlaceOffice {
		return st.Phone
	}
	if st.OfficePhone == "" || config.PhoneDigits(st.OfficePhone) == config.PhoneDigits(st.Phone) {
		return ""
	}
	return st.OfficePhone
}

// KeyLeadAck is the settings key of LeadAck, the one notify reads
// (notify.AckSetting): "false" turns the acknowledgement off.
const KeyLeadAck = "lead_ack"

// AckOn reports whether the acknowledgement is switched on.
func (st Settings) AckOn() bool { return st.LeadAck == nil || *st.LeadAck }

// Store is where settings are kept (db.Store).
type Store interface {
	Settings(ctx context.Context) (map[string]string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
}

// Service reads and saves System Settings over the configured defaults.
type Service struct {
	Store Store
	// Defaults are the configured business facts (BUSINESS_*).
	Defaults config.Business
	// BaseURL is the default website.
	BaseURL string
	Log     *slog.Logger
}

// addressRE parses "street, city, ST 12345".
var addressRE = regexp.MustCompile(`^(.+?),\s*([^,]+?),\s*([A-Za-z]{2})\s+(\d{5})$`)

func formatAddress(b config.Business) string {
	return fmt.Sprintf("%s, %s, %s %s", b.Street, b.City, b.State, b.Zip)
}

// defaults are the settings before anything is saved.
func (s *Service) defaults() Settings {
	b := s.Defaults
	st := Settings{BusinessName: b.Name, Phone: b.Phone, Address: formatAddress(b), Website: s.BaseURL,
		AutoIndexNow: true, SEOMonitoring: true, AutoSchema: true, EmergencyMode: true, BusinessHours: DefaultHours, LeadAck: boolPtr(true)}
	st.BusinessHoursText = HoursText(st.BusinessHours)
	own := reviews.DefaultOwner()
	st.ReviewRating, st.ReviewCount = Text(own.Rating), Text(strconv.Itoa(own.Count))
	return st
}

// Load returns the saved settings over the configured defaults. On a
// failed read it returns the defaults with the error.
func (s *Service) Load(ctx context.Context) (Settings, error) {
	st := s.defaults()
	m, err := s.Store.Settings(ctx)
	if err != nil {
		return st, err
	}
	str := func(k string, dst *string) {
		if v, ok := m[k]; ok && v != "" {
			*dst = v
		}
	}
	flag := func(k string, dst *bool) {
		if v, ok := m[k]; ok {
			*dst = v == "true"
		}
	}
	str("business_name", &st.BusinessName)
	str("phone", &st.Phone)
	str("address", &st.Address)
	str("website", &st.Website)
	str("office_phone", &st.OfficePhone)
	str("business_hours", &st.BusinessHours)
	flag("auto_indexnow", &st.AutoIndexNow)
	flag("seo_monitoring", &st.SEOMonitoring)
	flag("auto_schema", &st.AutoSchema)
	flag("emergency_mode", &st.EmergencyMode)
	if v, ok := m[KeyLeadAck]; ok {
		st.LeadAck = boolPtr(v != "false")
	}
	st.BusinessHoursText = HoursText(st.BusinessHours)
	own := reviews.OwnerFromSettings(m)
	st.ReviewRating, st.ReviewCount = Text(own.Rating), Text(strconv.Itoa(own.Count))
	return st, nil
}

// Business returns the business facts: the configuration overlaid with
// what the owner saved. A failed read is logged and the configuration
// is used.
func (s *Service) Business(ctx context.Context) config.Business {
	b := s.Defaults
	st, err := s.Load(ctx)
	if err != nil {
		s.Log.Error("settings unavailable, using configuration", "err", err)
		return b
	}
	b.Name, b.Phone, b.Website = st.BusinessName, st.PhoneFor(PlaceCall), st.Website
	if m := addressRE.FindStringSubmatch(st.Address); m != nil {
		b.Street, b.City, b.State, b.Zip = m[1], m[2], strings.ToUpper(m[3]), m[4]
	}
	return b
}

// OfficePhone is the contact page's office number: "" when there is
// none, it is the 24/7 line, or the settings cannot be read.
func (s *Service) OfficePhone(ctx context.Context) string {
	st, err := s.Load(ctx)
	if err != nil {
		return ""
	}
	return st.PhoneFor(PlaceOffice)
}

// Availability reads the saved settings; on a failed read it is the
// default: 24/7.
func (s *Service) Availability(ctx context.Context) Availability {
	st, err := s.Load(ctx)
	if err != nil {
		st = s.defaults()
	}
	return st.Availability()
}

// Owner are the owner's review figures (the trust section's while Google
// Places is not configured).
func (s *Service) Owner(ctx context.Context) (reviews.Owner, error) {
	st, err := s.Load(ctx)
	return st.Owner(), err
}

// Toggle reads one switch.
func (s *Service) Toggle(pick func(Settings) bool) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		st, err := s.Load(ctx)
		return pick(st), err
	}
}

// Validate returns a message per bad field.
func Validate(st Settings) map[string]string {
	errs := map[string]string{}
	if n := len([]rune(strings.TrimSpace(st.BusinessName))); n == 0 || n > 100 {
		errs["businessName"] = "Enter the business name (100 characters at most)."
	}
	if len(config.PhoneDigits(st.Phone)) != 10 || len(st.Phone) > 30 {
		errs["phone"] = "Enter a 10-digit phone number, e.g. (770) 555-0134."
	}
	if st.OfficePhone != "" && (len(config.PhoneDigits(st.OfficePhone)) != 10 || len(st.OfficePhone) > 30) {
		errs["officePhone"] = "Enter a 10-digit phone number, e.g. (770) 555-0134, or leave it empty."
	}
	if len(st.Address) > 200 || addressRE.FindStringSubmatch(strings.TrimSpace(st.Address)) == nil {
		errs["address"] = "Enter the address as: street, city, state ZIP (e.g. 6595 Church Street, Douglasville, GA 30134)."
	}
	if u, err := url.Parse(st.Website); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(st.Website) > 200 {
		errs["website"] = "Enter the full website address, e.g. https://www.example.com."
	}
	if _, err := ParseHours(st.BusinessHours); err != nil {
		errs["businessHours"] = err.Error()
	}
	if _, msg := reviews.ParseOwnerRating(st.ReviewRating.Text); msg != "" {
		errs["reviewRating"] = msg
	}
	if _, msg := reviews.ParseOwnerCount(st.ReviewCount.Text); msg != "" {
		errs["reviewCount"] = msg
	}
	return errs
}

// Invalid is a save refused for its fields: a message per bad field.
// Nothing was saved.
type Invalid map[string]string

func (e Invalid) Error() string { return fmt.Sprintf("settings: %d invalid field(s)", len(e)) }

// Save validates and stores the settings and returns them normalised. A
// save without the hours or the review figures keeps the saved ones. It
// returns Invalid when a field is bad (nothing is saved), or the store's
// error.
func (s *Service) Save(ctx context.Context, st Settings, now time.Time) (Settings, error) {
	st.BusinessName, st.Phone, st.Address, st.Website, st.OfficePhone = strings.TrimSpace(st.BusinessName), strings.TrimSpace(st.Phone),
		strings.TrimSpace(st.Address), strings.TrimSpace(st.Website), strings.TrimSpace(st.OfficePhone)
	if strings.TrimSpace(st.BusinessHours) == "" || !st.ReviewRating.Set || !st.ReviewCount.Set || st.LeadAck == nil {
		if cur, err := s.Load(ctx); err == nil {
			if strings.TrimSpace(st.BusinessHours) == "" {
				st.BusinessHours = cur.BusinessHours
			}
			if !st.ReviewRating.Set {
				st.ReviewRating = cur.ReviewRating
			}
			if !st.ReviewCount.Set {
				st.ReviewCount = cur.ReviewCount
			}
			if st.LeadAck == nil {
				st.LeadAck = cur.LeadAck
			}
		} else if st.LeadAck == nil {
			// Unknown: keep the stored value rather than guess.
			return st, err
		}
	}
	if errs := Validate(st); len(errs) > 0 {
		return st, Invalid(errs)
	}
	st.OfficePhone = st.PhoneFor(PlaceOffice) // the 24/7 line again is no second number
	h, _ := ParseHours(st.BusinessHours)
	st.BusinessHours, st.BusinessHoursText = h.String(), h.Text()
	rating, _ := reviews.ParseOwnerRating(st.ReviewRating.Text)
	count, _ := reviews.ParseOwnerCount(st.ReviewCount.Text)
	st.ReviewRating, st.ReviewCount = Text(rating), Text(strconv.Itoa(count))
	b := func(v bool) string { return fmt.Sprint(v) }
	kv := map[string]string{
		"business_name": st.BusinessName, "phone": st.Phone, "address": st.Address, "website": st.Website,
		"office_phone": st.OfficePhone, "auto_indexnow": b(st.AutoIndexNow), "seo_monitoring": b(st.SEOMonitoring),
		"auto_schema": b(st.AutoSchema), "emergency_mode": b(st.EmergencyMode), "business_hours": st.BusinessHours,
		reviews.KeyOwnerRating: st.ReviewRating.Text, reviews.KeyOwnerCount: st.ReviewCount.Text, KeyLeadAck: b(st.AckOn()),
	}
	if err := s.Store.SetSettings(ctx, kv, now); err != nil {
		return st, err
	}
	return st, nil
}

func boolPtr(b bool) *bool { return &b }

// Changes names, in the owner's words, the settings that differ between
// two saves: what the audit log says a save changed (never a value).
func Changes(before, after Settings) []string {
	var out []string
	add := func(changed bool, name string) {
		if changed {
			out = append(out, name)
		}
	}
	add(before.BusinessName != after.BusinessName, "business name")
	add(before.Phone != after.Phone, "24/7 phone number")
	add(before.PhoneFor(PlaceOffice) != after.PhoneFor(PlaceOffice), "office phone number")
	add(before.Address != after.Address, "address")
	add(before.Website != after.Website, "website")
	add(before.BusinessHours != after.BusinessHours, "business hours")
	add(before.EmergencyMode != after.EmergencyMode, "24/7 emergency mode")
	add(before.AutoIndexNow != after.AutoIndexNow, "IndexNow switch")
	add(before.SEOMonitoring != after.SEOMonitoring, "SEO monitoring switch")
	add(before.AutoSchema != after.AutoSchema, "schema switch")
	add(before.AckOn() != after.AckOn(), "acknowledgement email")
	add(before.ReviewRating.Text != after.ReviewRating.Text || before.ReviewCount.Text != after.ReviewCount.Text, "review figures")
	return out
}

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/reviews"
)

// Settings are what System Settings edits (spec 2.4). The business facts
// override the configured ones on every public page; the toggles are kept
// for the features they switch.
type Settings struct {
	BusinessName   string `json:"businessName"`
	Phone          string `json:"phone"`
	Address        string `json:"address"`
	Website        string `json:"website"`
	EmergencyPhone string `json:"emergencyPhone"`
	AutoIndexNow   bool   `json:"autoIndexNow"`
	SEOMonitoring  bool   `json:"seoMonitoring"`
	AutoSchema     bool   `json:"autoSchema"`
	EmergencyMode  bool   `json:"emergencyMode"`
	// BusinessHours are in schema.org openingHours syntax (server/hours.go);
	// BusinessHoursText is how visitors read them (answers only).
	BusinessHours     string `json:"businessHours"`
	BusinessHoursText string `json:"businessHoursText"`
	// ReviewRating and ReviewCount are the trust section's rating figures
	// while Google Places is not configured (issue 19, ADR 021). They
	// never go into structured data. A save without them keeps the saved
	// ones.
	ReviewRating formValue `json:"reviewRating"`
	ReviewCount  formValue `json:"reviewCount"`
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

// formValue is a form field sent as a JSON string or number. Null or
// absent leaves it unset; any other JSON value is kept as text that fails
// validation with the field's own message.
type formValue struct {
	Set  bool
	Text string
}

func (v *formValue) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = formValue{}
		return nil
	}
	*v = formValue{Set: true}
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

func (v formValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.Text) }

func fieldText(s string) formValue { return formValue{Set: true, Text: s} }

// owner are the owner's review figures of saved settings (defaults for
// what is missing or unreadable).
func (st Settings) owner() reviews.Owner {
	return reviews.OwnerFromSettings(map[string]string{reviews.KeyOwnerRating: st.ReviewRating.Text, reviews.KeyOwnerCount: st.ReviewCount.Text})
}

// addressRE parses "street, city, ST 12345".
var addressRE = regexp.MustCompile(`^(.+?),\s*([^,]+?),\s*([A-Za-z]{2})\s+(\d{5})$`)

func formatAddress(b config.Business) string {
	return fmt.Sprintf("%s, %s, %s %s", b.Street, b.City, b.State, b.Zip)
}

// loadSettings returns the saved settings over the configured defaults.
func (s *Server) loadSettings(ctx context.Context) (Settings, error) {
	b := s.cfg.Business
	st := Settings{BusinessName: b.Name, Phone: b.Phone, Address: formatAddress(b), Website: s.cfg.BaseURL, EmergencyPhone: b.Phone,
		AutoIndexNow: true, SEOMonitoring: true, AutoSchema: true, EmergencyMode: true, BusinessHours: DefaultHours}
	st.BusinessHoursText = hoursText(st.BusinessHours)
	own := reviews.DefaultOwner()
	st.ReviewRating, st.ReviewCount = fieldText(own.Rating), fieldText(strconv.Itoa(own.Count))
	if s.store == nil {
		return st, nil
	}
	m, err := s.store.Settings(ctx)
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
	str("emergency_phone", &st.EmergencyPhone)
	str("business_hours", &st.BusinessHours)
	flag("auto_indexnow", &st.AutoIndexNow)
	flag("seo_monitoring", &st.SEOMonitoring)
	flag("auto_schema", &st.AutoSchema)
	flag("emergency_mode", &st.EmergencyMode)
	st.BusinessHoursText = hoursText(st.BusinessHours)
	own = reviews.OwnerFromSettings(m)
	st.ReviewRating, st.ReviewCount = fieldText(own.Rating), fieldText(strconv.Itoa(own.Count))
	return st, nil
}

// overlaySettings applies saved business facts to the configured ones.
func (s *Server) overlaySettings(ctx context.Context, b config.Business) config.Business {
	st, err := s.loadSettings(ctx)
	if err != nil {
		s.log.Error("settings unavailable, using configuration", "err", err)
		return b
	}
	b.Name, b.Phone, b.Website = st.BusinessName, st.Phone, st.Website
	if m := addressRE.FindStringSubmatch(st.Address); m != nil {
		b.Street, b.City, b.State, b.Zip = m[1], m[2], strings.ToUpper(m[3]), m[4]
	}
	return b
}

// validateSettings returns a message per bad field.
func validateSettings(st Settings) map[string]string {
	errs := map[string]string{}
	if n := len([]rune(strings.TrimSpace(st.BusinessName))); n == 0 || n > 100 {
		errs["businessName"] = "Enter the business name (100 characters at most)."
	}
	if len(config.PhoneDigits(st.Phone)) != 10 || len(st.Phone) > 30 {
		errs["phone"] = "Enter a 10-digit phone number, e.g. (770) 555-0134."
	}
	if len(config.PhoneDigits(st.EmergencyPhone)) != 10 || len(st.EmergencyPhone) > 30 {
		errs["emergencyPhone"] = "Enter a 10-digit phone number, e.g. (770) 555-0134."
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

func (s *Server) getSettings(c echo.Context) error {
	st, err := s.loadSettings(c.Request().Context())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Settings could not be loaded.", Err: err}
	}
	st.ReviewFigures = s.reviewFiguresInfo(c.Request().Context())
	return c.JSON(http.StatusOK, st)
}

func (s *Server) reviewFiguresInfo(ctx context.Context) *ReviewFiguresInfo {
	f := s.reviewFigures(ctx)
	return &ReviewFiguresInfo{PlacesConfigured: s.reviewsClient.Configured(), InUse: f, InStructuredData: f.AggregateRating() != nil}
}

// putSettings saves the settings and re-renders every public page with
// them. Nothing is saved when a field is invalid.
func (s *Server) putSettings(c echo.Context) error {
	var st Settings
	if err := c.Bind(&st); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the settings as JSON.", Err: err}
	}
	st.BusinessName, st.Phone, st.Address, st.Website, st.EmergencyPhone = strings.TrimSpace(st.BusinessName), strings.TrimSpace(st.Phone),
		strings.TrimSpace(st.Address), strings.TrimSpace(st.Website), strings.TrimSpace(st.EmergencyPhone)
	// A client that does not send the hours or the review figures keeps
	// the saved ones.
	if strings.TrimSpace(st.BusinessHours) == "" || !st.ReviewRating.Set || !st.ReviewCount.Set {
		if cur, err := s.loadSettings(c.Request().Context()); err == nil {
			if strings.TrimSpace(st.BusinessHours) == "" {
				st.BusinessHours = cur.BusinessHours
			}
			if !st.ReviewRating.Set {
				st.ReviewRating = cur.ReviewRating
			}
			if !st.ReviewCount.Set {
				st.ReviewCount = cur.ReviewCount
			}
		}
	}
	if errs := validateSettings(st); len(errs) > 0 {
		return c.JSON(http.StatusUnprocessableEntity, map[string]any{"error": "Some settings need fixing.", "errors": errs})
	}
	h, _ := ParseHours(st.BusinessHours)
	st.BusinessHours, st.BusinessHoursText = h.String(), h.Text()
	rating, _ := reviews.ParseOwnerRating(st.ReviewRating.Text)
	count, _ := reviews.ParseOwnerCount(st.ReviewCount.Text)
	st.ReviewRating, st.ReviewCount = fieldText(rating), fieldText(strconv.Itoa(count))
	b := func(v bool) string { return fmt.Sprint(v) }
	kv := map[string]string{
		"business_name": st.BusinessName, "phone": st.Phone, "address": st.Address, "website": st.Website,
		"emergency_phone": st.EmergencyPhone, "auto_indexnow": b(st.AutoIndexNow), "seo_monitoring": b(st.SEOMonitoring),
		"auto_schema": b(st.AutoSchema), "emergency_mode": b(st.EmergencyMode), "business_hours": st.BusinessHours,
		reviews.KeyOwnerRating: st.ReviewRating.Text, reviews.KeyOwnerCount: st.ReviewCount.Text,
	}
	if err := s.store.SetSettings(c.Request().Context(), kv, time.Now().UTC()); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Settings could not be saved.", Err: err}
	}
	s.log.Info("settings saved")
	s.Invalidate("settings saved")
	st.ReviewFigures = s.reviewFiguresInfo(c.Request().Context())
	return c.JSON(http.StatusOK, st)
}

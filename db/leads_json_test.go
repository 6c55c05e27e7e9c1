package db

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A Lead's JSON is data at rest: the spool file (spool.Record) and every
// outbox payload (notify.Event) hold it, and the webhook posts the
// payload as stored. It is named after avatar_leads' columns and stays
// so when the admin API's names change (ADR 059: the admin's rows are
// leads.Full and leads.Masked, with names of their own).
func TestLeadJSONIsTheColumns(t *testing.T) {
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			if f.Anonymous {
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "attribution" {
					t.Errorf("Lead.%s is sent as %q, want \"attribution\"", f.Name, name)
				}
				walk(f.Type)
				continue
			}
			col := f.Tag.Get("db")
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != col {
				t.Errorf("Lead.%s: JSON name %q, column %q: stored leads would no longer load", f.Name, name, col)
			}
		}
	}
	walk(reflect.TypeOf(Lead{}))
}

// A lead spooled or put in the outbox before ADR 059 loads whole.
func TestStoredLeadLoads(t *testing.T) {
	stored := `{"id":"L1","created_at":"2026-11-27T14:02:11Z","updated_at":"2026-11-27T14:05:00Z","first_name":"Jane","last_name":"Doe",
		"phone":"+16785550199","phone_typed":"678 555 0199","email":"jane@example.com","city":"Marietta","street_address":"1 Main St",
		"zip_code":"30060","damage_type":"Water Damage","status":"new","is_emergency":true,"source":"website",
		"insurance_carrier":"Acme","claim_number":"C-1","notes":"Basement",
		"attribution":{"landing_page":"/","referrer_host":"google.com","utm_source":"google","utm_medium":"cpc","utm_campaign":"spring",
			"utm_term":"flood","utm_content":"ad1","gclid":"g","gbraid":"gb","wbraid":"wb","fbclid":"f","msclkid":"m","device_class":"laptop","visit_id":"v1"},
		"assigned_to":"u1","first_response_at":"2026-11-27T14:05:00Z","escalated_at":null}`
	var got Lead
	if err := json.Unmarshal([]byte(stored), &got); err != nil {
		t.Fatal(err)
	}
	u1, answered := "u1", time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	want := Lead{ID: "L1", CreatedAt: time.Date(2026, 11, 27, 14, 2, 11, 0, time.UTC), UpdatedAt: answered, FirstName: "Jane", LastName: "Doe",
		Phone: "+16785550199", PhoneTyped: "678 555 0199", Email: "jane@example.com", City: "Marietta", StreetAddress: "1 Main St",
		ZipCode: "30060", DamageType: "Water Damage", Status: "new", IsEmergency: true, Source: "website",
		InsuranceCarrier: "Acme", ClaimNumber: "C-1", Notes: "Basement",
		Attribution: Attribution{LandingPage: "/", ReferrerHost: "google.com", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "spring",
			UTMTerm: "flood", UTMContent: "ad1", GCLID: "g", GBRAID: "gb", WBRAID: "wb", FBCLID: "f", MSCLKID: "m", DeviceClass: "laptop", VisitID: "v1"},
		AssignedTo: &u1, FirstResponseAt: &answered}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored lead (-want, +got):\n%s", diff)
	}
}

package settings

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// A refused save (an invalid office number) names the field and saves
// nothing.
func TestSettingsInvalidOfficePhone(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		res := r.save(t, map[string]any{"phone": "(404) 555-0123", "officePhone": "12"})
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(res.Body, `"officePhone"`) {
			t.Fatalf("%d %s", res.StatusCode, res.Body)
		}
		m, err := store.Settings(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if p := m["phone"]; p != "" {
			t.Errorf("saved %q", p)
		}
		if n := r.changed.Load(); n != 0 {
			t.Errorf("a refused save re-rendered the pages %d times", n)
		}
	})
}

// Saves from several admins at once all succeed, and the settings end up
// one of them whole (name and phone from the same save).
func TestParallelSettingsSaves(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		const n = 50
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				body := map[string]any{"businessName": fmt.Sprintf("Save %02d Restoration", i), "phone": fmt.Sprintf("(404) 555-01%02d", i),
					"address": "100 Main St, Marietta, GA 30060", "website": "https://www.peachstate.example", "officePhone": "(404) 555-0177"}
				codes[i] = r.Call(t, "PUT", "/api/admin/settings", asOwner, body).StatusCode
			}(i)
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusOK {
				t.Errorf("save %d: %d", i, c)
			}
		}
		var got struct{ BusinessName, Phone string }
		json.Unmarshal([]byte(r.Call(t, "GET", "/api/admin/settings", asOwner, nil).Body), &got)
		var k int
		if _, err := fmt.Sscanf(got.BusinessName, "Save %02d Restoration", &k); err != nil || got.Phone != fmt.Sprintf("(404) 555-01%02d", k) {
			t.Errorf("after parallel saves: %+v, want one save's name and phone", got)
		}
	})
}

// Business hours: the defaults, a refusal that says how to write them,
// a save normalised, and a save that leaves them out keeps them.
func TestSettingsBusinessHours(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		got := r.Call(t, "GET", "/api/admin/settings", asOwner, nil)
		if !strings.Contains(got.Body, `"businessHours":"Mo-Fr 08:00-18:00"`) || !strings.Contains(got.Body, `"businessHoursText":"Mon–Fri 8:00 AM–6:00 PM"`) {
			t.Errorf("default hours: %s", got.Body)
		}
		res := r.save(t, map[string]any{"businessHours": "weekdays 9 to 5"})
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(res.Body, `"businessHours":"Enter the hours as days and 24-hour times`) {
			t.Errorf("bad hours: %d %s", res.StatusCode, res.Body)
		}
		res = r.save(t, map[string]any{"businessHours": "mo-fr 07:00-19:00"})
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"businessHours":"Mo-Fr 07:00-19:00"`) || !strings.Contains(res.Body, `"businessHoursText":"Mon–Fri 7:00 AM–7:00 PM"`) {
			t.Errorf("hours not normalised: %d %s", res.StatusCode, res.Body)
		}
		// A client that does not send the hours keeps the saved ones.
		res = r.save(t, map[string]any{"businessHours": nil})
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"businessHours":"Mo-Fr 07:00-19:00"`) {
			t.Errorf("hours lost when omitted: %d %s", res.StatusCode, res.Body)
		}
	})
}

// Bad review figures get a clear message per field, the answer never
// echoes them, and nothing is saved: the settings keep the figures saved
// before. (That the site keeps showing them is server/'s
// TestReviewSettingsValidation.)
func TestReviewSettingsValidation(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		if res := r.save(t, map[string]any{"reviewRating": "4.6", "reviewCount": "112"}); res.StatusCode != 200 {
			t.Fatalf("save: %d %s", res.StatusCode, res.Body)
		}
		long := strings.Repeat("9", 200000)
		for _, tt := range []struct {
			name          string
			rating, count any
			bad           []string
		}{
			{"rating above 5", "5.5", "10", []string{"reviewRating"}},
			{"rating below 1", "0.5", "10", []string{"reviewRating"}},
			{"two decimals", 4.95, "10", []string{"reviewRating"}},
			{"comma decimal", "4,9", "10", []string{"reviewRating"}},
			{"words", "great", "lots", []string{"reviewRating", "reviewCount"}},
			{"empty", "", "", []string{"reviewRating", "reviewCount"}},
			{"markup", "<script>alert(1)</script>", "<b>1</b>", []string{"reviewRating", "reviewCount"}},
			{"object and array", map[string]any{"v": 4}, []any{1}, []string{"reviewRating", "reviewCount"}},
			{"booleans", true, false, []string{"reviewRating", "reviewCount"}},
			{"negative count", "4.5", -1, []string{"reviewCount"}},
			{"fractional count", "4.5", 1.5, []string{"reviewCount"}},
			{"count over the maximum", "4.5", 100001, []string{"reviewCount"}},
			{"huge count", "4.5", 1e300, []string{"reviewCount"}},
			{"very long text", long, long, []string{"reviewRating", "reviewCount"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				res := r.save(t, map[string]any{"reviewRating": tt.rating, "reviewCount": tt.count})
				if res.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%d %.200s", res.StatusCode, res.Body)
				}
				var out struct{ Errors map[string]string }
				json.Unmarshal([]byte(res.Body), &out)
				var keys []string
				for _, k := range []string{"reviewRating", "reviewCount"} {
					if out.Errors[k] != "" {
						keys = append(keys, k)
					}
				}
				if diff := cmp.Diff(tt.bad, keys); diff != "" {
					t.Errorf("fields in error (-want, +got):\n%s", diff)
				}
				if out.Errors["reviewRating"] != "" && !strings.Contains(out.Errors["reviewRating"], "from 1.0 to 5.0") {
					t.Errorf("rating message %q", out.Errors["reviewRating"])
				}
				if out.Errors["reviewCount"] != "" && !strings.Contains(out.Errors["reviewCount"], "whole number from 0 to 100000") {
					t.Errorf("count message %q", out.Errors["reviewCount"])
				}
				if len(res.Body) > 2000 {
					t.Errorf("the answer echoes the input: %d bytes", len(res.Body))
				}
			})
		}
		if got := r.Call(t, "GET", "/api/admin/settings", asOwner, nil); !strings.Contains(got.Body, `"reviewRating":"4.6"`) || !strings.Contains(got.Body, `"reviewCount":"112"`) {
			t.Errorf("after refused saves: %.400s", got.Body)
		}
	})
}

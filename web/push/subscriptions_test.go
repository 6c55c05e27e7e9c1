package push

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

// Subscribing: only a browser's push service, whole keys, at most 10
// devices per account however many requests race, a device removed only
// by its own account, the label from the request's User-Agent, never
// the page's words; a removal is audited. (The body limit and a cookie
// session's CSRF header are server/'s TestPushSubscriptionHostile.)
func TestPushSubscriptionHostile(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store)
		sub := notifytest.Subscription(t)
		keys := sub["keys"].(map[string]string)
		with := func(endpoint, p256dh, auth string) map[string]any {
			return map[string]any{"endpoint": endpoint, "keys": map[string]string{"p256dh": p256dh, "auth": auth}}
		}
		for _, c := range []struct {
			name string
			body any
		}{
			{"loopback", with("https://127.0.0.1:8443/push/x", keys["p256dh"], keys["auth"])},
			{"metadata address", with("http://169.254.169.254/latest/meta-data", keys["p256dh"], keys["auth"])},
			{"plain http push service", with("http://fcm.googleapis.com/fcm/send/x", keys["p256dh"], keys["auth"])},
			{"look-alike host", with("https://fcm.googleapis.com.evil.test/fcm/send/x", keys["p256dh"], keys["auth"])},
			{"user info", with("https://attacker@fcm.googleapis.com/fcm/send/x", keys["p256dh"], keys["auth"])},
			{"oversized endpoint", with("https://fcm.googleapis.com/fcm/send/"+strings.Repeat("a", 3000), keys["p256dh"], keys["auth"])},
			{"javascript", with("javascript:alert(1)", keys["p256dh"], keys["auth"])},
			{"short key", with(sub["endpoint"].(string), keys["p256dh"][:40], keys["auth"])},
			{"key off the curve", with(sub["endpoint"].(string), base64.RawURLEncoding.EncodeToString(append([]byte{4}, bytes.Repeat([]byte{1}, 64)...)), keys["auth"])},
			{"long auth", with(sub["endpoint"].(string), keys["p256dh"], base64.RawURLEncoding.EncodeToString(make([]byte, 32)))},
			{"not base64", with(sub["endpoint"].(string), "<script>", keys["auth"])},
			{"no keys", map[string]any{"endpoint": sub["endpoint"]}},
			{"not JSON", "just text"},
			{"array", []any{1, 2}},
		} {
			body := c.body
			if s, ok := body.(string); ok {
				j, _ := json.Marshal(s) // a JSON string, not an object
				body = string(j)
			}
			if res := r.Call(t, "POST", "/api/admin/push/subscriptions", asStaff, body); res.StatusCode != 400 {
				t.Errorf("%s: %d %s", c.name, res.StatusCode, res.Body)
			}
		}
		if ps, _ := store.ListPushSubscriptions(t.Context()); len(ps) != 0 {
			t.Fatalf("refused subscriptions stored: %d", len(ps))
		}

		// The label is the User-Agent's, whatever the body says.
		b, _ := json.Marshal(map[string]any{"endpoint": sub["endpoint"], "keys": keys, "label": "<img src=x onerror=alert(1)>"})
		req := httptest.NewRequest("POST", "/api/admin/push/subscriptions", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+asStaff)
		req.Header.Set("User-Agent", "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36")
		res := r.Serve(req)
		var added DeviceAnswer
		if json.Unmarshal([]byte(res.Body), &added); res.StatusCode != 201 || added.Device.Label != "Chrome on Android" || added.Device.EndpointHash != EndpointHash(sub["endpoint"].(string)) {
			t.Fatalf("subscribe: %d %s", res.StatusCode, res.Body)
		}

		// 25 subscriptions of one account at once: exactly 10 stored (one
		// was there already), the rest 409.
		var wg sync.WaitGroup
		codes := make(chan int, 25)
		for i := 0; i < 25; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- r.Call(t, "POST", "/api/admin/push/subscriptions", asStaff, notifytest.Subscription(t)).StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		count := map[int]int{}
		for c := range codes {
			count[c]++
		}
		mine, _ := store.PushSubscriptionsFor(t.Context(), "u-crew")
		if len(mine) != db.MaxPushDevices || count[201] != db.MaxPushDevices-1 || count[409] != 25-(db.MaxPushDevices-1) {
			t.Errorf("25 parallel subscriptions: stored %d, answers %v", len(mine), count)
		}

		// Nobody removes another account's device, admins included; the
		// owner can, once.
		adminDev := r.Call(t, "POST", "/api/admin/push/subscriptions", asAdmin, notifytest.Subscription(t))
		var ad DeviceAnswer
		json.Unmarshal([]byte(adminDev.Body), &ad)
		if res := r.Call(t, "DELETE", "/api/admin/push/devices/"+ad.Device.ID, asStaff, nil); res.StatusCode != 404 {
			t.Errorf("staff removing the admin's device: %d", res.StatusCode)
		}
		if res := r.Call(t, "DELETE", "/api/admin/push/devices/"+added.Device.ID, asAdmin, nil); res.StatusCode != 404 {
			t.Errorf("admin removing staff's device: %d", res.StatusCode)
		}
		if res := r.Call(t, "DELETE", "/api/admin/push/devices/"+strings.Repeat("x", 5000), asStaff, nil); res.StatusCode != 404 {
			t.Errorf("a 5000-character id: %d", res.StatusCode)
		}
		var list DeviceList
		if res := r.Call(t, "GET", "/api/admin/push/devices", asStaff, nil); json.Unmarshal([]byte(res.Body), &list) != nil || len(list.Devices) != db.MaxPushDevices {
			t.Errorf("staff's devices: %s", res.Body)
		}
		for _, d := range list.Devices {
			if d.ID == ad.Device.ID {
				t.Error("staff's list holds the admin's device")
			}
		}
		if res := r.Call(t, "DELETE", "/api/admin/push/devices/"+added.Device.ID, asStaff, nil); res.StatusCode != 204 {
			t.Errorf("removing one's own device: %d %s", res.StatusCode, res.Body)
		}
		if res := r.Call(t, "DELETE", "/api/admin/push/devices/"+added.Device.ID, asStaff, nil); res.StatusCode != 404 {
			t.Errorf("removing it again: %d", res.StatusCode)
		}
		var all AllDevices
		if res := r.Call(t, "GET", "/api/admin/push/devices/all", asAdmin, nil); json.Unmarshal([]byte(res.Body), &all) != nil || len(all.Devices) != db.MaxPushDevices {
			t.Errorf("every device: %s", res.Body)
		} else if all.Devices[0].Email == "" {
			t.Errorf("every device without its account: %+v", all.Devices[0])
		}
		entries, _, err := store.ListAudit(t.Context(), 200, 0)
		if err != nil {
			t.Fatal(err)
		}
		removed := false
		for _, e := range entries {
			removed = removed || e.Action+":"+e.Actor == "push_device_removed:"+staffEmail
		}
		if !removed {
			t.Errorf("removal not audited: %+v", entries)
		}
	})
}

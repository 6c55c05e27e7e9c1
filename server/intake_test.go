package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
)

// Text the databases cannot store is refused at the edge with a clear
// 400, whatever the encoding (raw byte, percent-escape, JSON escape) and
// wherever it sits (query, form, JSON key or value, nested), and nothing
// is saved. Before this, a NUL in a beacon made PostgreSQL reject whole
// analytics batches, and a NUL in an estimate was "received" and never
// stored.
func TestTextIntakeRefusesNULAndInvalidUTF8(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	token := unlock(t, h)
	send := func(method, path, ct, body string) *response {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return do(t, h, req)
	}
	cases := []struct{ name, method, path, ct, body string }{
		{"settings: JSON escape", "PUT", "/api/admin/settings", "application/json", `{"businessName":"Avatar\u0000Restoration"}`},
		{"settings: escape in a key", "PUT", "/api/admin/settings", "application/json", `{"business\u0000Name":"x"}`},
		{"settings: raw invalid UTF-8", "PUT", "/api/admin/settings", "application/json", "{\"businessName\":\"Avatar \xff\"}"},
		{"settings: nested", "PUT", "/api/admin/settings", "application/json", `{"x":[{"y":"\u0000"}]}`},
		{"beacon as text/plain", "POST", "/api/collect", "text/plain;charset=UTF-8", `{"path":"/","utm":{"source":"a\u0000b"}}`},
		{"search: percent-escape", "GET", "/search?q=water%00damage", "", ""},
		{"search: invalid UTF-8 escape", "GET", "/search?q=water%ffdamage", "", ""},
		{"upload's project name", "POST", "/api/admin/media?project=Roof%00Job", "multipart/form-data; boundary=x", "--x--"},
		{"form body", "POST", "/api/admin/unlock", "application/x-www-form-urlencoded", "pin=12%0034"},
		{"CSV filter", "GET", "/api/admin/leads/export.csv?q=%00", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := send(c.method, c.path, c.ct, c.body)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "a NUL character or invalid UTF-8") {
				t.Errorf("%d %.200s", r.StatusCode, r.Body)
			}
		})
	}
	st, err := store.Settings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range st {
		if !guard.ValidText(k) || !guard.ValidText(v) {
			t.Errorf("setting %q = %q was stored", k, v)
		}
	}
	// Text that is merely unusual passes: accents, emoji, escaped quotes,
	// a literal backslash-u in a value.
	r := send("GET", "/search?q="+"caf%C3%A9+%F0%9F%92%A7", "", "")
	if r.StatusCode != http.StatusOK {
		t.Errorf("accented search: %d", r.StatusCode)
	}
	if !jsonTextOK([]byte(`{"a":"caf\u00e9 \"quoted\" \\u0000 is text"}`)) {
		t.Error("a literal \\\\u0000 (escaped backslash) was refused")
	}
}

// The estimate form answers a bad character per field, keeps everything
// else typed, shows the text back without the bad bytes, and stores
// nothing.
func TestEstimateRefusesNULPerField(t *testing.T) {
	srv, store := newTestServer(t, nil)
	f := validForm()
	f.Set("notes", "Pipe burst\x00 in the basement")
	f.Set("city", "Mari\xffetta")
	r := postForm(t, srv.Handler(), "/api/estimate", f, "10.6.0.1", "application/json")
	var st leads.EstimateState
	json.Unmarshal([]byte(r.Body), &st)
	if r.StatusCode != http.StatusUnprocessableEntity || st.Errors["notes"] != leads.MsgBadField || st.Errors["city"] != leads.MsgBadField || len(st.Errors) != 2 {
		t.Fatalf("%d %v", r.StatusCode, st.Errors)
	}
	if st.Values.Notes != "Pipe burst in the basement" || st.Values.City != "Mari\uFFFDetta" || st.Values.Name != "Maria Gonzalez" {
		t.Errorf("values shown back: %+v", st.Values)
	}
	r = postForm(t, srv.Handler(), "/estimate", f, "10.6.0.2", "")
	if r.StatusCode != http.StatusUnprocessableEntity || strings.Contains(r.Body, "\x00") || !strings.Contains(r.Body, "Maria Gonzalez") {
		t.Errorf("no-JS: %d", r.StatusCode)
	}
	if n := len(storedLeads(t, store)); n != 0 {
		t.Errorf("%d leads stored", n)
	}
}

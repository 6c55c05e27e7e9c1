// Package indexnowtest is a fake IndexNow endpoint for tests: it records
// the submissions posted to it and answers each with the status a test
// chose (with IndexNow's own words for a refusal).
package indexnowtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/indexnow"
)

// Endpoint is a fake IndexNow at URL, closed when the test ends.
type Endpoint struct {
	*httptest.Server
	mu       sync.Mutex
	status   int
	payloads []indexnow.Payload
	ctype    string
}

// New starts an endpoint that answers every submission with status.
func New(t testing.TB, status int) *Endpoint {
	t.Helper()
	f := &Endpoint{status: status}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p indexnow.Payload
		if r.Method != http.MethodPost || json.Unmarshal(b, &p) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.payloads = append(f.payloads, p)
		f.ctype = r.Header.Get("Content-Type")
		st := f.status
		f.mu.Unlock()
		w.WriteHeader(st)
		if st >= 300 {
			io.WriteString(w, "Key not valid")
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// Calls are the submissions received, oldest first.
func (f *Endpoint) Calls() []indexnow.Payload {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]indexnow.Payload(nil), f.payloads...)
}

// ContentType is the last submission's Content-Type.
func (f *Endpoint) ContentType() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ctype
}

package server

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Every answer carries X-Request-Id, and the request's log line the same
// id; behind TRUST_PROXY a well-formed incoming id is kept, anything
// else is replaced; without TRUST_PROXY nobody chooses the id.
func TestRequestIDs(t *testing.T) {
	for _, trust := range []bool{false, true} {
		t.Run(fmt.Sprint("trust proxy ", trust), func(t *testing.T) {
			srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "TRUST_PROXY": fmt.Sprint(trust)})
			var buf bytes.Buffer
			var mu sync.Mutex
			srv.log = NewFormatLogger(lockedWriter{&buf, &mu}, nil, "json", 0)
			h := srv.Handler()
			get(t, h, "/") // warm: the next / is served from the cache
			seen := map[string]bool{}
			for _, c := range []struct {
				name, path, incoming string
			}{
				{"cached page", "/", ""},
				{"routed page", "/services", ""},
				{"404", "/nope", ""},
				{"admin API", "/api/admin/session", ""},
				{"incoming good", "/", "5f2b9c1e-7a4d-4c7b-9a55-0b3f1e2d4c6a"},
				{"incoming too short", "/", "abc"},
				{"incoming with a newline", "/", "good-id-123\nlevel=ERROR"},
				{"incoming with spaces", "/", "an id with spaces"},
			} {
				req := httptest.NewRequest("GET", c.path, nil)
				if c.incoming != "" {
					req.Header["X-Request-Id"] = []string{c.incoming}
				}
				r := do(t, h, req)
				id := r.Header.Get("X-Request-Id")
				keep := trust && c.name == "incoming good"
				switch {
				case keep && id != c.incoming:
					t.Errorf("%s: %q, want the incoming id", c.name, id)
				case !keep && !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(id):
					t.Errorf("%s: id %q is not one the server made", c.name, id)
				}
				if !keep && seen[id] {
					t.Errorf("%s: id %q seen twice", c.name, id)
				}
				seen[id] = true
				mu.Lock()
				logged := buf.String()
				mu.Unlock()
				if !strings.Contains(logged, `"req_id":"`+id+`"`) {
					t.Errorf("%s: the log has no line with req_id %q", c.name, id)
				}
			}
		})
	}
	// Ids minted in blocks stay unique across blocks and goroutines.
	var m idMinter
	var mu sync.Mutex
	all := map[string]bool{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]string, 0, 1000)
			for i := 0; i < 1000; i++ {
				local = append(local, m.take()[0])
			}
			mu.Lock()
			for _, id := range local {
				all[id] = true
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(all) != 4000 {
		t.Errorf("%d distinct ids of 4000", len(all))
	}
}

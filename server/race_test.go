package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestRaceConcurrentRequests drives the shared paths (render cache, fast
// path, runtime pool, settings overlay, rate limiter) from many goroutines
// while the cache is invalidated. `make test` runs it under -race.
func TestRaceConcurrentRequests(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	paths := []string{"/", "/services", "/contact", "/blog", "/areas/cobb/marietta", "/no-such-page", "/search?q=mold", "/sitemap.xml"}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				p := paths[(g+i)%len(paths)]
				req := httptest.NewRequest("GET", p, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				want := http.StatusOK
				if p == "/no-such-page" {
					want = http.StatusNotFound
				}
				if w.Code != want {
					errs <- p + ": " + http.StatusText(w.Code)
				}
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			srv.Changed("race test")
			req := httptest.NewRequest("POST", "/api/estimate", strings.NewReader("name=A+B&phone=7705550100&city=X&damageType=Mold&emergency=no"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept", "application/json")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

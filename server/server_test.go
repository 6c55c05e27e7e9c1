package server

import (
	"net/http"
	"runtime"
	"testing"
	"weak"

	"github.com/atlanta-restoration/site/config"
)

// PORT without BASE_URL: canonicals follow the port.
func TestBaseURLFollowsPort(t *testing.T) {
	cfg, err := config.LoadFrom(func(k string) string { return map[string]string{"PORT": "9090"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != "http://localhost:9090" || cfg.Addr != ":9090" {
		t.Errorf("base %q addr %q", cfg.BaseURL, cfg.Addr)
	}
	cfg, _ = config.LoadFrom(func(k string) string {
		return map[string]string{"PORT": "9090", "BASE_URL": "https://www.example.com"}[k]
	})
	if cfg.BaseURL != "https://www.example.com" {
		t.Errorf("explicit BASE_URL: %q", cfg.BaseURL)
	}
}

// TestClosedServerIsReleased: the engine's rebuild hook holds its server,
// so before Close removed it, every server made on a shared engine stayed
// alive (~5 MB each). The benchmarks build one server per run: the heap
// crept up to the memory limit and the collector ran without pause, so
// the fourth run of BenchmarkHomeRenderCold took 90 ms instead of 22.
func TestClosedServerIsReleased(t *testing.T) {
	var ref weak.Pointer[Server]
	t.Run("server", func(t *testing.T) {
		srv, _ := newTestServer(t, nil)
		ref = weak.Make(srv)
		if res := get(t, srv.Handler(), "/"); res.StatusCode != http.StatusOK {
			t.Fatalf("GET / = %d", res.StatusCode)
		}
	}) // its cleanups, srv.Close among them, have run here
	for i := 0; i < 5 && ref.Value() != nil; i++ {
		runtime.GC()
	}
	if ref.Value() != nil {
		t.Fatal("a closed server is still reachable: something global (an engine hook?) holds it")
	}
}

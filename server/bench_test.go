package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/ssr"
)

// BenchmarkHomeRenderCold measures a cache miss for /: loader, goja render
// and document assembly, without compression.
func BenchmarkHomeRenderCold(b *testing.B) {
	ssr.TuneGC()
	srv, _ := newTestServer(b, nil)
	ctx := context.Background()
	r, pg, err := srv.site.Load(ctx, "/")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := srv.pages.RenderDoc(ctx, r.Page, "/", pg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHomeMissWithCompression is the whole miss: render plus gzip and
// brotli of the document, as the cache stores it.
func BenchmarkHomeMissWithCompression(b *testing.B) {
	ssr.TuneGC()
	srv, _ := newTestServer(b, nil)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := srv.pages.Render(ctx, "/"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHomeCached is a cache hit through the whole handler chain.
func BenchmarkHomeCached(b *testing.B) {
	srv, _ := newTestServer(b, nil)
	h := srv.Handler()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	h.ServeHTTP(httptest.NewRecorder(), req)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkCachedOverTCP serves the cached / over loopback TCP through
// the real http.Server, the listener caps and the access log (written to
// a file through the buffered writer, as in production), to 8 keep-alive clients in this process.
// It is the wrk measurement made repeatable and profilable:
//
//	go test -run '^$' -bench CachedOverTCP -cpuprofile cpu.out ./server/
func BenchmarkCachedOverTCP(b *testing.B) {
	srv, _ := newTestServer(b, nil)
	f, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	lw := NewLogWriter(f, 200*time.Millisecond) // as main.go sets it up
	defer lw.Close()
	srv.log = NewLogger(lw, srv.cfg.Secrets())
	if _, err := srv.pages.Render(context.Background(), "/"); err != nil {
		b.Fatal(err)
	}
	if _, err := srv.Cache().Get(context.Background(), "/"); err != nil {
		b.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := srv.HTTPServer("")
	go hs.Serve(ln)
	defer hs.Close()
	req := []byte("GET / HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: gzip, br\r\nUser-Agent: bench\r\n\r\n")
	b.SetParallelism(4) // 8 clients on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			b.Error(err)
			return
		}
		defer conn.Close()
		br := bufio.NewReaderSize(conn, 64<<10)
		for pb.Next() {
			if _, err := conn.Write(req); err != nil {
				b.Error(err)
				return
			}
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" {
				b.Errorf("status %d, encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
				return
			}
		}
	})
}

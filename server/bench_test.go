package server

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/atlanta-restoration/site/ssr"
)

// BenchmarkHomeRenderCold measures a cache miss for /: loader, goja render
// and document assembly, without compression.
func BenchmarkHomeRenderCold(b *testing.B) {
	ssr.TuneGC()
	srv, _ := newTestServer(b, nil)
	ctx := context.Background()
	r, p, _ := srv.routeFor("/")
	pg, err := r.Load(ctx, srv, p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := srv.renderDoc(ctx, r.Page, "/", pg); err != nil {
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
		if _, err := srv.renderPath(ctx, "/"); err != nil {
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

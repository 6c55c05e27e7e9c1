package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/atlanta-restoration/site/config"
)

// liveServer serves srv on a real loopback listener with the production
// timeouts and connection caps.
func liveServer(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(ln.Addr().String())
	go hs.Serve(srv.LimitListener(ln))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// slowPost sends a request with a body of n bytes, one byte every gap, and
// reports how many body bytes it got out before the server answered or
// closed the connection.
func slowPost(t *testing.T, addr, path, header string, body []byte, gap time.Duration) (sent int, status string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n", path, header, len(body))
	answered := make(chan string, 1)
	go func() {
		b := make([]byte, 64)
		n, _ := conn.Read(b)
		answered <- string(b[:n])
	}()
	for sent = 0; sent < len(body); sent++ {
		select {
		case s := <-answered:
			return sent, firstLine(s)
		default:
		}
		if _, err := conn.Write(body[sent : sent+1]); err != nil {
			return sent, "write failed"
		}
		time.Sleep(gap)
	}
	select {
	case s := <-answered:
		return sent, firstLine(s)
	case <-time.After(10 * time.Second):
		return sent, "no answer"
	}
}

func firstLine(s string) string {
	if s == "" {
		return "closed"
	}
	l, _, _ := strings.Cut(s, "\r\n")
	return l
}

// A form body trickled one byte at a time is cut off after
// BODY_READ_TIMEOUT instead of holding the connection for as long as the
// client likes.
func TestSlowFormBodyIsCutOff(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"BODY_READ_TIMEOUT": "300ms"})
	addr := liveServer(t, srv)
	body := []byte("name=" + strings.Repeat("a", 195))
	sent, status := slowPost(t, addr, "/api/estimate", "Content-Type: application/x-www-form-urlencoded\r\n", body, 20*time.Millisecond)
	if sent >= len(body) || !strings.Contains(status, "408") {
		t.Fatalf("trickled body: %d of %d bytes sent, answer %q; want a 408 before the body is complete", sent, len(body), status)
	}
	t.Logf("cut off after %d of %d bytes: %s", sent, len(body), status)
}

// An upload that keeps moving may take longer than BODY_READ_TIMEOUT; one
// that stalls for longer than UPLOAD_IDLE_TIMEOUT is cut off.
func TestUploadDeadlineFollowsProgress(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"BODY_READ_TIMEOUT": "200ms", "UPLOAD_IDLE_TIMEOUT": "400ms"})
	addr := liveServer(t, srv)
	tok := unlock(t, srv.Handler())
	mp, ct := multipartBody("slow.jpg", testJPEG(t, 64, 64), -1)
	body, _ := io.ReadAll(mp)
	hdr := "Authorization: Bearer " + tok + "\r\nContent-Type: " + ct + "\r\n"

	// Moving: 40 chunks 25 ms apart, about 1 s in all (5x BODY_READ_TIMEOUT).
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/admin/media?project=Slow+Job HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n", hdr, len(body))
	chunk := (len(body) + 39) / 40
	for i := 0; i < len(body); i += chunk {
		conn.Write(body[i:min(i+chunk, len(body))])
		time.Sleep(25 * time.Millisecond)
	}
	res, err := http.ReadResponse(bufioReader(conn), nil)
	if err != nil || res.StatusCode != http.StatusCreated {
		b := []byte{}
		if res != nil {
			b, _ = io.ReadAll(res.Body)
		}
		t.Fatalf("slow but moving upload: %v %v %s", err, res, b)
	}

	// Stalled: half the body, then a pause longer than the idle timeout.
	conn2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	fmt.Fprintf(conn2, "POST /api/admin/media?project=Stalled HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n", hdr, len(body))
	conn2.Write(body[:len(body)/2])
	time.Sleep(1200 * time.Millisecond)
	conn2.Write(body[len(body)/2:])
	res2, err := http.ReadResponse(bufioReader(conn2), nil)
	if err == nil && res2.StatusCode == http.StatusCreated {
		t.Fatal("a stalled upload was kept open past UPLOAD_IDLE_TIMEOUT")
	}
}

// One client IP cannot hold more than MAX_CONNS_PER_IP connections.
func TestConnectionsPerIPAreCapped(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"MAX_CONNS_PER_IP": "3"})
	addr := liveServer(t, srv)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// Let the server accept the first three before the fourth arrives.
	for _, c := range conns {
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		if res, err := http.ReadResponse(bufioReader(c), nil); err != nil || res.StatusCode != 200 {
			t.Fatalf("connection within the cap: %v", err)
		}
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	fmt.Fprintf(extra, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if res, err := http.ReadResponse(bufioReader(extra), nil); err == nil {
		t.Fatalf("a 4th connection from one IP was served: %d", res.StatusCode)
	}
	// Closing one frees its place.
	conns[0].Close()
	conns = conns[1:]
	time.Sleep(100 * time.Millisecond)
	again, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	fmt.Fprintf(again, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if res, err := http.ReadResponse(bufioReader(again), nil); err != nil || res.StatusCode != 200 {
		t.Fatalf("after a close, a new connection: %v", err)
	}
}

// Every configured secret stays out of the log, even when a Go error
// quotes a URL that carries one.
func TestSecretsNeverReachTheLog(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	endpoint := closed.URL
	closed.Close() // connection refused: the error names the whole URL
	secrets := map[string]string{
		"GOOGLE_PLACES_API_KEY":  "AIzaSyTESTKEY-do-not-log-0123456789",
		"GOOGLE_PLACE_ID":        "ChIJplace",
		"GOOGLE_PLACES_ENDPOINT": endpoint,
		"ADMIN_PIN":              "9071355",
		"S3_ACCESS_KEY":          "AKIATESTACCESSKEY",
		"S3_SECRET_KEY":          "s3-secret-do-not-log",
		"DATABASE_URL":           "",
	}
	var buf bytes.Buffer
	cfg := testConfig(t, mapWith(secrets, "DATA_DIR", t.TempDir()))
	srv, _ := newTestServer(t, mapWith(secrets, "DATA_DIR", t.TempDir()))
	srv.log = NewLogger(&buf, cfg.Secrets())
	h := srv.Handler()
	// A failing review fetch (its URL carries the key), a wrong PIN, a
	// right PIN, a 404 and an admin call.
	post := httptest.NewRequest("POST", "/api/reviews/refresh", nil)
	if r := do(t, h, post); r.StatusCode != http.StatusBadGateway {
		t.Fatalf("refresh against a closed port: %d %s", r.StatusCode, r.Body)
	}
	jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
	tok := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": secrets["ADMIN_PIN"]})
	get(t, h, "/no-such-page-"+secrets["ADMIN_PIN"])
	jsonReq(t, h, "GET", "/api/admin/settings", "Bearer-"+secrets["S3_SECRET_KEY"], nil)
	_ = tok
	out := buf.String()
	if !strings.Contains(out, "reviews") {
		t.Fatalf("the review failure was not logged:\n%s", out)
	}
	for name, v := range secrets {
		if name == "GOOGLE_PLACE_ID" || name == "GOOGLE_PLACES_ENDPOINT" || v == "" {
			continue
		}
		if strings.Contains(out, v) {
			t.Errorf("%s appears in the log:\n%s", name, out)
		}
	}
}

func mapWith(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// Cached and uncached requests log the same keys, one line each; a 404
// gets no second line; an unconfigured review refresh is an answer, not
// a failure (the page says reviews are not shown; ADR 021): no warning,
// no error.
func TestOneLogLinePerRequest(t *testing.T) {
	var buf bytes.Buffer
	srv, _ := newTestServer(t, nil)
	srv.log = NewLogger(&buf, nil)
	h := srv.Handler()
	get(t, h, "/services")     // rendered (miss)
	get(t, h, "/services")     // cached
	get(t, h, "/no-such-page") // 404
	for i := 0; i < 3; i++ {
		do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var httpLines []string
	warns := 0
	for _, l := range lines {
		if strings.Contains(l, "level=ERROR") {
			t.Errorf("error line: %s", l)
		}
		if strings.Contains(l, "level=WARN") {
			warns++
		}
		if strings.Contains(l, "msg=http") {
			httpLines = append(httpLines, l)
		}
	}
	if len(httpLines) != 6 {
		t.Fatalf("%d request lines for 6 requests:\n%s", len(httpLines), buf.String())
	}
	if warns != 0 {
		t.Errorf("%d warnings for an unconfigured review refresh, want none", warns)
	}
	for _, l := range httpLines {
		for _, key := range []string{"method=", "path=", "status=", "bytes=", "dur_ms="} {
			if !strings.Contains(l, " "+key) {
				t.Errorf("line lacks %s: %s", key, l)
			}
		}
		if strings.Contains(l, "req.") {
			t.Errorf("old key set: %s", l)
		}
	}
	if !strings.Contains(httpLines[1], "cached=true") || strings.Contains(httpLines[0], "cached=true") {
		t.Errorf("cached marking:\n%s\n%s", httpLines[0], httpLines[1])
	}
	if strings.Contains(buf.String(), "request rejected") || strings.Contains(httpLines[2], "err=") {
		t.Errorf("a 404 logged an empty error:\n%s", buf.String())
	}
}

// Every admin API answer, errors included, carries no-store.
func TestAdminAPIIsNoStore(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	for _, c := range []struct{ method, path, token string }{
		{"GET", "/api/admin/settings", tok}, {"GET", "/api/admin/settings", ""}, {"GET", "/api/admin/nope", tok},
		{"POST", "/api/admin/unlock", ""}, {"GET", "/api/admin/media", tok}, {"GET", "/api/admin/sessions", tok},
		{"POST", "/api/admin/logout", tok},
	} {
		r := jsonReq(t, h, c.method, c.path, c.token, map[string]string{"pin": "1"})
		if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s %s (%d): Cache-Control %q", c.method, c.path, r.StatusCode, cc)
		}
	}
}

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

func bufioReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

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

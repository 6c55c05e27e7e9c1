package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
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

func bufioReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

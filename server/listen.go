package server

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/netutil"

	"github.com/atlanta-restoration/site/web/leadfiles"
	mediaweb "github.com/atlanta-restoration/site/web/media"
)

// Connection and body limits. A client may hold the server only
// as long as it makes progress:
//   - request headers must arrive within ReadHeaderTimeout;
//   - a form or JSON body within BODY_READ_TIMEOUT of the headers;
//   - an upload body may take as long as it needs, but may not pause for
//     more than UPLOAD_IDLE_TIMEOUT between two reads, so a slow but
//     moving 1 GB video still arrives while a stalled one is cut off;
//   - at most MAX_CONNS connections are open (past that, new ones wait in
//     the kernel's accept queue) and at most MAX_CONNS_PER_IP from one
//     client IP (past that, new ones are closed at once).
const (
	ReadHeaderTimeout = 10 * time.Second
	IdleTimeout       = 120 * time.Second
	MaxHeaderBytes    = 64 << 10
)

// HTTPServer returns the http.Server that serves the site on addr. It
// has no WriteTimeout (the leads' live stream lasts as long as its
// session); Shutdown ends the live streams at once (EndStreams) rather
// than waiting SHUTDOWN_TIMEOUT for them.
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := &http.Server{Addr: addr, Handler: s, ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: IdleTimeout, MaxHeaderBytes: MaxHeaderBytes}
	hs.RegisterOnShutdown(s.EndStreams)
	return hs
}

// Listen opens addr with the connection caps applied.
func (s *Server) Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return s.LimitListener(ln), nil
}

// LimitListener applies MAX_CONNS and, unless the server trusts a proxy
// (every connection would come from it), MAX_CONNS_PER_IP.
func (s *Server) LimitListener(ln net.Listener) net.Listener {
	if n := s.cfg.Limits.MaxConnsPerIP; n > 0 && !s.cfg.TrustProxy {
		ln = &perIPListener{Listener: ln, max: n, open: map[string]int{}}
	}
	return netutil.LimitListener(ln, s.cfg.Limits.MaxConns)
}

// perIPListener closes a new connection at once when its IP already holds
// max open ones.
type perIPListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := remoteIP(c)
		l.mu.Lock()
		if l.open[ip] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[ip]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(ip) }}, nil
	}
}

func (l *perIPListener) release(ip string) {
	l.mu.Lock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
	l.mu.Unlock()
}

func remoteIP(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// limitBody sets the read deadline of a request that has a body: a fixed
// one for forms and JSON, a per-read idle one for uploads.
func (s *Server) limitBody(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	rc := http.NewResponseController(w)
	if isUpload(r) {
		r.Body = &idleBody{ReadCloser: r.Body, rc: rc, idle: s.cfg.Limits.UploadIdleTimeout}
		return
	}
	// Fails only on writers without a connection (tests' recorders).
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.Limits.BodyReadTimeout))
}

// readFormBody reads a URL-encoded form body (which form parsing would
// read whole anyway) before routing, under the body deadline. A body that
// does not arrive in time gets a cheap 408 and the connection is closed,
// instead of a half-read form reaching a handler that renders a page.
// It reports whether the request may go on.
func (s *Server) readFormBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody || isUpload(r) || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return true
	}
	limit := s.bodyLimit
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			s.metrics.ObserveRequest("refused", http.StatusRequestTimeout, 0)
			s.refuseEarly(w, r, http.StatusRequestTimeout, "The request body did not arrive in time.")
			s.logRequest(r.Method, r.URL.Path, w.Header().Get(requestIDHeader), http.StatusRequestTimeout, 0, 0, false, errors.New("body read timeout"))
			return false
		}
		s.metrics.ObserveRequest("refused", http.StatusBadRequest, 0)
		s.refuseEarly(w, r, http.StatusBadRequest, "The request body could not be read.")
		s.logRequest(r.Method, r.URL.Path, w.Header().Get(requestIDHeader), http.StatusBadRequest, 0, 0, false, err)
		return false
	}
	if int64(len(b)) > limit {
		s.metrics.ObserveRequest("refused", http.StatusRequestEntityTooLarge, 0)
		s.refuseEarly(w, r, http.StatusRequestEntityTooLarge, "The request body is too large.")
		s.logRequest(r.Method, r.URL.Path, w.Header().Get(requestIDHeader), http.StatusRequestEntityTooLarge, 0, 0, false, nil)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return true
}

// refuseEarly answers a request refused before routing, and closes the
// connection (its body was not read to the end). The answer carries what
// every answer of the site carries: the security headers, and no-store on
// the admin API, which echo's middleware would have set.
func (s *Server) refuseEarly(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h := w.Header()
	for k, v := range s.secHeaders {
		h[k] = v
	}
	if strings.HasPrefix(r.URL.Path, "/api/admin") {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Connection", "close")
	http.Error(w, msg, status)
}

func isUpload(r *http.Request) bool { return isUploadRequest(r.Method, r.URL.Path) }

// isUploadRequest reports a request whose body is files, which streams
// under its room's own caps and UPLOAD_IDLE_TIMEOUT instead of
// BODY_LIMIT: the media library's uploads and posters, and a lead's files
// (the homeowner's photos, the owner's documents).
func isUploadRequest(method, path string) bool {
	return mediaweb.IsUploadRequest(method, path) || leadfiles.IsUploadRequest(method, path)
}

// idleBody pushes the connection's read deadline forward before every
// read: an upload is cut off only when it stops moving.
type idleBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	idle time.Duration
}

func (b *idleBody) Read(p []byte) (int, error) {
	_ = b.rc.SetReadDeadline(time.Now().Add(b.idle))
	return b.ReadCloser.Read(p)
}

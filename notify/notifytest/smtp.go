// Package notifytest is an in-process SMTP server for tests: it speaks
// enough SMTP for net/smtp (EHLO, STARTTLS with a self-signed
// certificate, AUTH PLAIN, MAIL, RCPT, DATA, RSET, QUIT) and records what
// it receives, so tests exercise the real client code.
package notifytest

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options shape the server's behaviour.
type Options struct {
	// StartTLS offers STARTTLS.
	StartTLS bool
	// User and Password are the credentials AUTH PLAIN accepts; empty
	// User offers no AUTH.
	User, Password string
	// RejectRcpt answers RCPT TO with this reply (e.g. "550 5.1.1 no such
	// user"); empty accepts.
	RejectRcpt string
	// FailData makes the first FailData messages fail at the end of DATA
	// with 451 (a temporary failure).
	FailData int
}

// Message is one accepted message.
type Message struct {
	From string
	To   []string
	Data []byte // as received, dot-unstuffed
	TLS  bool   // the conversation was encrypted when DATA was sent
	User string // the user authenticated, if any
}

// Server is a running fake SMTP server.
type Server struct {
	Addr string // host:port
	opts Options
	ln   net.Listener
	cert tls.Certificate
	pool *x509.CertPool

	mu       sync.Mutex
	messages []Message
	commands []string // every command line, AUTH arguments blanked
	failed   int
	wg       sync.WaitGroup
}

// NewServer starts a server on 127.0.0.1; it stops when the test ends.
func NewServer(t testing.TB, opts Options) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String(), opts: opts, ln: ln}
	s.cert, s.pool = selfSigned(t)
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

// ClientTLS is a TLS configuration that trusts the server's certificate.
func (s *Server) ClientTLS() *tls.Config { return &tls.Config{RootCAs: s.pool} }

// Messages returns what was accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Commands returns every command line received (AUTH's argument blanked).
func (s *Server) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.commands...)
}

// WaitMessages waits until n messages were accepted, or timeout.
func (s *Server) WaitMessages(n int, timeout time.Duration) []Message {
	end := time.Now().Add(timeout)
	for {
		m := s.Messages()
		if len(m) >= n || time.Now().After(end) {
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.session(c)
		}()
	}
}

func (s *Server) session(c net.Conn) {
	defer func() { c.Close() }()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	reply := func(lines ...string) {
		for _, l := range lines {
			w.WriteString(l + "\r\n")
		}
		w.Flush()
	}
	reply("220 fake.test ESMTP ready")
	var (
		isTLS bool
		user  string
		msg   Message
	)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		verb = strings.ToUpper(verb)
		s.mu.Lock()
		if verb == "AUTH" {
			s.commands = append(s.commands, "AUTH "+strings.SplitN(arg, " ", 2)[0]+" ***")
		} else {
			s.commands = append(s.commands, line)
		}
		s.mu.Unlock()
		switch verb {
		case "EHLO":
			ext := []string{"250-fake.test", "250-8BITMIME"}
			if s.opts.StartTLS && !isTLS {
				ext = append(ext, "250-STARTTLS")
			}
			if s.opts.User != "" {
				ext = append(ext, "250-AUTH PLAIN")
			}
			ext = append(ext, "250 SIZE 10485760")
			reply(ext...)
		case "HELO":
			reply("250 fake.test")
		case "STARTTLS":
			if !s.opts.StartTLS || isTLS {
				reply("502 5.5.1 not offered")
				continue
			}
			reply("220 2.0.0 go ahead")
			tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{s.cert}})
			if err := tc.Handshake(); err != nil {
				return
			}
			c, isTLS = tc, true
			r, w = bufio.NewReader(c), bufio.NewWriter(c)
			user, msg = "", Message{}
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			if strings.ToUpper(mech) != "PLAIN" || s.opts.User == "" {
				reply("504 5.5.4 unrecognized authentication type")
				continue
			}
			if resp == "" {
				reply("334 ")
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				resp = strings.TrimSpace(l)
			}
			b, _ := base64.StdEncoding.DecodeString(resp)
			parts := strings.Split(string(b), "\x00")
			if len(parts) == 3 && parts[1] == s.opts.User && parts[2] == s.opts.Password {
				user = parts[1]
				reply("235 2.7.0 authenticated")
			} else {
				reply("535 5.7.8 authentication failed")
			}
		case "MAIL":
			if s.opts.User != "" && user == "" {
				reply("530 5.7.0 authentication required")
				continue
			}
			msg = Message{From: addrArg(arg), TLS: isTLS, User: user}
			reply("250 2.1.0 ok")
		case "RCPT":
			if s.opts.RejectRcpt != "" {
				reply(s.opts.RejectRcpt)
				continue
			}
			msg.To = append(msg.To, addrArg(arg))
			reply("250 2.1.5 ok")
		case "DATA":
			if msg.From == "" || len(msg.To) == 0 {
				reply("503 5.5.1 need MAIL and RCPT")
				continue
			}
			reply("354 end with .")
			var data bytes.Buffer
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			msg.Data = data.Bytes()
			msg.TLS = isTLS
			s.mu.Lock()
			fail := s.failed < s.opts.FailData
			if fail {
				s.failed++
			} else {
				s.messages = append(s.messages, msg)
			}
			s.mu.Unlock()
			if fail {
				reply("451 4.3.0 try again later")
			} else {
				reply("250 2.0.0 queued")
			}
			msg = Message{User: user}
		case "RSET":
			msg = Message{User: user}
			reply("250 ok")
		case "NOOP":
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 5.5.2 unknown command")
		}
	}
}

// addrArg takes the address out of "FROM:<a@b> BODY=8BITMIME".
func addrArg(arg string) string {
	i, j := strings.Index(arg, "<"), strings.Index(arg, ">")
	if i < 0 || j < i {
		return ""
	}
	return arg[i+1 : j]
}

func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fake smtp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost", "mail.example.test"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

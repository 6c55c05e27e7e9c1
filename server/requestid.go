package server

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync/atomic"
)

// Request ids: every answer carries X-Request-Id and every
// request's log line the same id (req_id), so the owner's "the form
// failed at 2:14" can be found in the log. Behind TRUST_PROXY a
// well-formed id the proxy sent is kept, so the proxy's log and ours
// agree; otherwise, and for anything malformed, the server makes one.
// Nobody else can choose the id a log line carries.

// requestIDHeader is X-Request-Id in canonical form, for direct map use.
const requestIDHeader = "X-Request-Id"

// idsPerBlock is how many ids are minted at once: the cached fast path
// must not allocate per request, so ids are cut from one block (one
// string, one slice of header values) made every idsPerBlock requests.
const idsPerBlock = 256

// idBlock is a run of random ids. vals[i] is id i as a one-element
// header value; next is the next unused index.
type idBlock struct {
	vals [][]string
	next atomic.Int64
}

// idMinter hands out request ids from the current block.
type idMinter struct{ cur atomic.Pointer[idBlock] }

// newIDBlock makes idsPerBlock ids of 16 hex digits (64 random bits) from
// one read of crypto/rand.
func newIDBlock() *idBlock {
	raw := make([]byte, idsPerBlock*8)
	rand.Read(raw)
	all := hex.EncodeToString(raw)
	backing := make([]string, idsPerBlock)
	b := &idBlock{vals: make([][]string, idsPerBlock)}
	for i := range backing {
		backing[i] = all[i*16 : (i+1)*16]
		// Capacity 1: an append to the header value cannot write into
		// the next request's id.
		b.vals[i] = backing[i : i+1 : i+1]
	}
	return b
}

// take returns a fresh id as a header value.
func (m *idMinter) take() []string {
	for {
		b := m.cur.Load()
		if b != nil {
			if i := b.next.Add(1) - 1; i < idsPerBlock {
				return b.vals[i]
			}
		}
		m.cur.CompareAndSwap(b, newIDBlock())
	}
}

// requestID sets the request's id on the answer and returns it: the
// proxy's, behind TRUST_PROXY, when it is well formed; else a new one.
func (s *Server) requestID(w http.ResponseWriter, r *http.Request) string {
	v := r.Header[requestIDHeader]
	if !s.cfg.TrustProxy || len(v) != 1 || !validRequestID(v[0]) {
		v = s.ids.take()
	} else {
		v = v[:1:1]
	}
	w.Header()[requestIDHeader] = v
	return v[0]
}

// validRequestID accepts 8 to 64 letters, digits, dots, dashes,
// underscores and colons: what proxies send (UUIDs, hex, ULIDs), and
// nothing that could break a log line or forge another record.
func validRequestID(s string) bool {
	if len(s) < 8 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}

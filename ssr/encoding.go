package ssr

import (
	"strconv"
	"strings"
)

// Negotiate is the encoding a response should use for an
// Accept-Encoding header: "br", "gzip", or "" for identity.
func Negotiate(accept string) string { return negotiate(accept) }

// negotiate picks br, gzip or identity from an Accept-Encoding header,
// honouring q=0 exclusions. br wins a tie because it is smaller.
func negotiate(accept string) string {
	best, bestQ := "", 0.0
	for _, part := range strings.Split(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := 1.0
		if params != "" {
			if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if q <= 0 || (name != "br" && name != "gzip") {
			continue
		}
		if q > bestQ || (q == bestQ && name == "br") {
			best, bestQ = name, q
		}
	}
	return best
}

// etagMatch reports whether an If-None-Match header names etag (or *).
func etagMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

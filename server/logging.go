package server

import (
	"context"
	"io"
	"log/slog"
	"sort"
	"strings"
	"time"
)

// NewLogger returns the server's logger: slog text lines at info on out,
// with every configured secret (and the password part of URLs that carry
// one) replaced by [REDACTED] in every message and attribute, errors
// included. Secrets can reach a log through text nobody wrote on purpose,
// such as a Go error that quotes a whole request URL.
func NewLogger(out io.Writer, secrets []string) *slog.Logger {
	return NewFormatLogger(out, secrets, "text", slog.LevelInfo)
}

// NewFormatLogger is NewLogger in LOG_FORMAT (text, or json: one object
// per line with the same keys) at LOG_LEVEL. Both formats go through the
// same redaction.
func NewFormatLogger(out io.Writer, secrets []string, format string, level slog.Level) *slog.Logger {
	o := &slog.HandlerOptions{Level: level, ReplaceAttr: redactor(secrets)}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(out, o))
	}
	return slog.New(slog.NewTextHandler(out, o))
}

// minSecretLen keeps redaction from rewriting ordinary short strings.
const minSecretLen = 4

func redactor(secrets []string) func([]string, slog.Attr) slog.Attr {
	var list []string
	for _, s := range secrets {
		if len(s) >= minSecretLen {
			list = append(list, s)
		}
	}
	if len(list) == 0 {
		return nil
	}
	// Longest first, so a secret that contains another is removed whole.
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, "[REDACTED]")
	}
	r := strings.NewReplacer(pairs...)
	return func(_ []string, a slog.Attr) slog.Attr {
		switch a.Value.Kind() {
		case slog.KindString:
			if v := a.Value.String(); v != "" {
				a.Value = slog.StringValue(r.Replace(v))
			}
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case error:
				a.Value = slog.StringValue(r.Replace(v.Error()))
			case interface{ String() string }:
				a.Value = slog.StringValue(r.Replace(v.String()))
			}
		}
		return a
	}
}

// logRequest writes the one line a request gets, cached or not, with the
// same keys: method, path, status, bytes, dur_ms, req_id (also sent as
// X-Request-Id), and cached or err when they apply. 5xx are errors;
// expected failures and 4xx are info.
func (s *Server) logRequest(method, path, id string, status int, bytes int64, durMs float64, cached bool, err error) {
	path = logPath(path)
	level := slog.LevelInfo
	if status >= 500 && !isQuiet(err) {
		level = slog.LevelError
	}
	if !s.accessLog && level < slog.LevelError {
		return
	}
	// The record goes straight to the handler: Logger.LogAttrs would also
	// look up the caller's program counter (runtime.Callers), which no
	// handler here prints, on the cached path's every request.
	h := s.log.Handler()
	if !h.Enabled(context.Background(), level) {
		return
	}
	r := slog.NewRecord(time.Now(), level, "http", 0)
	// One AddAttrs call: a record keeps five attributes inline and
	// allocates once for the rest, not once per call.
	var buf [8]slog.Attr
	attrs := append(buf[:0], slog.String("method", method), slog.String("path", path), slog.Int("status", status),
		slog.Int64("bytes", bytes), slog.Float64("dur_ms", durMs), slog.String("req_id", id))
	if cached {
		attrs = append(attrs, slog.Bool("cached", true))
	}
	if err != nil && !isPlainNotFound(err) {
		attrs = append(attrs, slog.Any("err", err))
	}
	r.AddAttrs(attrs...)
	_ = h.Handle(context.Background(), r)
}

// secretPaths are the addresses whose next segment is a secret: a review
// request's feedback token opens that homeowner's page (ADR 063), and a
// homeowner's link their job page and booking (ADR 066).
var secretPaths = []string{"/feedback/", "/my/"}

// logPath is a request's path as the log may keep it: a secret segment
// becomes [REDACTED], the rest ("/stop") stays, so the line still says
// what was asked.
func logPath(path string) string {
	for _, p := range secretPaths {
		rest, ok := strings.CutPrefix(path, p)
		if !ok || rest == "" {
			continue
		}
		_, tail, _ := strings.Cut(rest, "/")
		if tail != "" {
			tail = "/" + tail
		}
		return p + "[REDACTED]" + tail
	}
	return path
}

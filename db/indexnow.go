package db

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/failure"
)

// IndexNowSubmission is a row of indexnow_submissions: one post to
// IndexNow and what it answered.
type IndexNowSubmission struct {
	ID        string    `db:"id"`
	CreatedAt time.Time `db:"created_at"`
	// TriggeredBy is auto (a content change), all (Submit All Site Pages)
	// or custom (the admin's list).
	TriggeredBy string `db:"triggered_by"`
	// URLs is the submitted list as a JSON array.
	URLs       string `db:"urls"`
	URLCount   int    `db:"url_count"`
	StatusCode int    `db:"status_code"`
	// Response is IndexNow's answer (or the kind of failure, as
	// failure.Scrub leaves it), truncated.
	Response string `db:"response"`
	Outcome  string `db:"outcome"`
}

// SubmissionRetention is how long submissions are kept.
const SubmissionRetention = 180 * 24 * time.Hour

const submissionColumns = `id, created_at, triggered_by, urls, url_count, status_code, response, outcome`

// CreateIndexNowSubmission stores a submission (an empty ID is generated)
// and drops those older than SubmissionRetention.
func (s *Store) CreateIndexNowSubmission(ctx context.Context, sub IndexNowSubmission) error {
	if sub.ID == "" {
		sub.ID = newRowID()
	}
	// The answer comes from outside: no address or token of it is kept.
	sub.Response = cleanText(failure.Scrub(sub.Response), 1000)
	_, err := s.db.NamedExecContext(ctx, `INSERT INTO indexnow_submissions (`+submissionColumns+`)
		VALUES (:id, :created_at, :triggered_by, :urls, :url_count, :status_code, :response, :outcome)`, sub)
	if err != nil {
		return fmt.Errorf("record indexnow submission: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM indexnow_submissions WHERE created_at < ?`), sub.CreatedAt.Add(-SubmissionRetention)); err != nil {
		return fmt.Errorf("prune indexnow submissions: %w", err)
	}
	return nil
}

// ListIndexNowSubmissions returns a page of submissions, newest first,
// and how many there are.
func (s *Store) ListIndexNowSubmissions(ctx context.Context, limit, offset int) ([]IndexNowSubmission, int, error) {
	out := []IndexNowSubmission{}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT COUNT(*) FROM indexnow_submissions`); err != nil {
		return nil, 0, fmt.Errorf("count indexnow submissions: %w", err)
	}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+submissionColumns+` FROM indexnow_submissions ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list indexnow submissions: %w", err)
	}
	// Rows stored before answers were scrubbed are shown scrubbed.
	for i := range out {
		out[i].Response = failure.Scrub(out[i].Response)
	}
	return out, total, nil
}

// IndexNowSent returns the ETag each path had when IndexNow last accepted
// it (path -> ETag).
func (s *Store) IndexNowSent(ctx context.Context) (map[string]string, error) {
	rows := []struct {
		Path string `db:"path"`
		ETag string `db:"etag"`
	}{}
	if err := s.db.SelectContext(ctx, &rows, `SELECT path, etag FROM indexnow_sent`); err != nil {
		return nil, fmt.Errorf("indexnow sent: %w", err)
	}
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		m[r.Path] = r.ETag
	}
	return m, nil
}

// MarkIndexNowSent records path -> ETag as accepted at the given time.
func (s *Store) MarkIndexNowSent(ctx context.Context, etags map[string]string, at time.Time) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		for p, e := range etags {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO indexnow_sent (path, etag, sent_at) VALUES (?, ?, ?)
				ON CONFLICT (path) DO UPDATE SET etag = excluded.etag, sent_at = excluded.sent_at`), p, e, at); err != nil {
				return fmt.Errorf("mark indexnow sent %s: %w", p, err)
			}
		}
		return nil
	})
}

// cleanText makes text from outside (a remote answer) storable: valid
// UTF-8 without NUL bytes (PostgreSQL refuses both), cut to at most max
// bytes on a character boundary.
func cleanText(s string, max int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

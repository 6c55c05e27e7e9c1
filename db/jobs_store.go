package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Job is a row of jobs (migration 106, ADR 061): one finished piece of
// work the crews did. (db/jobs.go is the background jobs' runs.)
type Job struct {
	ID    string `db:"id"`
	Slug  string `db:"slug"`
	Title string `db:"title"`
	// CityID is the city record's content item id (ADR 046), "" until the
	// job is placed.
	CityID string `db:"city_id"`
	// Lat and Lng are the job's place from its photos, rounded to 0.01
	// degree; nil when no photo said where it was taken. Private: for the
	// server's distance maths only, never in a page, a prop or an answer.
	Lat *float64 `db:"lat" json:"-"`
	Lng *float64 `db:"lng" json:"-"`
	// Month is 'YYYY-MM', "" until set.
	Month string `db:"month"`
	// Service is the damage type: the service record's content item id.
	Service string `db:"service"`
	Story   string `db:"story"`
	// LeadID is the lead the job came from, "" for none.
	LeadID string `db:"lead_id"`
	// CustomerName is shown only when NameConsent is recorded.
	CustomerName string     `db:"customer_name"`
	NameConsent  bool       `db:"name_consent"`
	Status       string     `db:"status"` // JobDraft or JobPublished
	PublishedAt  *time.Time `db:"published_at"`
	CreatedAt    time.Time  `db:"created_at"`
	UpdatedAt    time.Time  `db:"updated_at"`
	// Version starts at 1 and is bumped by every edit of the job's own
	// fields and by a publish or unpublish.
	Version int `db:"version"`
	// Photos is how many photos and videos the job has (read, not stored).
	Photos int `db:"photos"`
}

// A job's statuses.
const (
	JobDraft     = "draft"
	JobPublished = "published"
)

// The audit log's actions on jobs (web/work writes them).
const (
	AuditJobPublish     = "job_publish"
	AuditJobUnpublish   = "job_unpublish"
	AuditJobDelete      = "job_delete"
	AuditJobNameConsent = "job_name_consent"
)

// The phases of a job's photo.
const (
	PhaseBefore = "before"
	PhaseDuring = "during"
	PhaseAfter  = "after"
)

// JobFields are what the owner edits on a job.
type JobFields struct {
	Title        string
	CityID       string
	Month        string
	Service      string
	Story        string
	LeadID       string
	CustomerName string
	NameConsent  bool
}

// ErrJobConflict is an edit, publish or unpublish based on a version of
// the job that is no longer current: someone else changed it meanwhile.
var ErrJobConflict = errors.New("the job was changed since it was read")

// ErrBadPhase is a phase that is not before, during, after or "".
var ErrBadPhase = errors.New("unknown phase")

const jobColumns = `id, slug, title, city_id, lat, lng, month, service, story, lead_id, customer_name, name_consent, status, published_at, created_at, updated_at, version`

// jobSelect reads jobs with their photo count.
const jobSelect = `SELECT ` + jobColumns + `, (SELECT COUNT(*) FROM media m WHERE m.job_id = jobs.id) AS photos FROM jobs`

// RoundPlace rounds a position to 0.01 degree (about 1 km): the only
// precision a job's place is ever kept at.
func RoundPlace(v float64) float64 { return math.Round(v*100) / 100 }

// jobSlug is the slug a title suggests: lower-case letters and digits
// joined by single hyphens, at most 60 characters; "job" for none.
func jobSlug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "job"
	}
	return s
}

// CreateJob stores a new draft job. Its slug comes from the title (made
// unique with -2, -3...) and never changes afterwards, so a published
// job's address stays.
func (s *Store) CreateJob(ctx context.Context, f JobFields) (Job, error) {
	now := time.Now().UTC()
	base := jobSlug(f.Title)
	for n := 1; n < 1000; n++ {
		slug := base
		if n > 1 {
			slug = base + "-" + strconv.Itoa(n)
		}
		var taken int
		if err := s.db.GetContext(ctx, &taken, s.q(`SELECT COUNT(*) FROM jobs WHERE slug = ?`), slug); err != nil {
			return Job{}, fmt.Errorf("create job: %w", err)
		}
		if taken > 0 {
			continue
		}
		id := newRowID()
		_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO jobs (id, slug, title, city_id, month, service, story, lead_id, customer_name, name_consent, status, created_at, updated_at, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, 1)`),
			id, slug, f.Title, f.CityID, f.Month, f.Service, f.Story, f.LeadID, f.CustomerName, f.NameConsent, now, now)
		if err != nil {
			if isUniqueViolation(err) { // another create took the slug meanwhile
				continue
			}
			return Job{}, fmt.Errorf("create job: %w", err)
		}
		return s.GetJob(ctx, id)
	}
	return Job{}, fmt.Errorf("create job: no free slug for %q", base)
}

// GetJob returns one job; ErrNotFound if there is none.
func (s *Store) GetJob(ctx context.Context, id string) (Job, error) {
	var j Job
	if err := s.db.GetContext(ctx, &j, s.q(jobSelect+` WHERE id = ?`), id); err != nil {
		return j, fmt.Errorf("job %s: %w", id, notFound(err))
	}
	return j, nil
}

// JobsOfLead are the jobs that came from a lead (a person's privacy
// export names them), oldest first.
func (s *Store) JobsOfLead(ctx context.Context, leadID string) ([]Job, error) {
	rows := []Job{}
	if err := s.db.SelectContext(ctx, &rows, s.q(jobSelect+` WHERE lead_id = ? ORDER BY created_at, id`), leadID); err != nil {
		return nil, fmt.Errorf("jobs of lead %s: %w", leadID, err)
	}
	return rows, nil
}

// ListJobs returns a page (from 1) of jobs, newest first, and how many
// jobs there are.
func (s *Store) ListJobs(ctx context.Context, page, perPage int) ([]Job, int, error) {
	page, perPage = max(page, 1), min(max(perPage, 1), 200)
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT COUNT(*) FROM jobs`); err != nil {
		return nil, 0, fmt.Errorf("count jobs: %w", err)
	}
	rows := []Job{}
	if err := s.db.SelectContext(ctx, &rows, s.q(jobSelect+` ORDER BY created_at DESC, id LIMIT ? OFFSET ?`), perPage, (page-1)*perPage); err != nil {
		return nil, 0, fmt.Errorf("list jobs: %w", err)
	}
	return rows, total, nil
}

// UpdateJob saves the owner's fields of job id, if its version is still
// base (ErrJobConflict otherwise; ErrNotFound when it is gone), and
// returns the saved job.
func (s *Store) UpdateJob(ctx context.Context, id string, base int, f JobFields) (Job, error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE jobs SET title = ?, city_id = ?, month = ?, service = ?, story = ?, lead_id = ?,
		customer_name = ?, name_consent = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?`),
		f.Title, f.CityID, f.Month, f.Service, f.Story, f.LeadID, f.CustomerName, f.NameConsent, time.Now().UTC(), id, base)
	if err != nil {
		return Job{}, fmt.Errorf("update job %s: %w", id, err)
	}
	return s.afterVersioned(ctx, id, res)
}

// afterVersioned reads the job a versioned write changed, or says why it
// changed nothing: gone (ErrNotFound) or moved on (ErrJobConflict).
func (s *Store) afterVersioned(ctx context.Context, id string, res sql.Result) (Job, error) {
	n, err := res.RowsAffected()
	if err != nil {
		return Job{}, err
	}
	j, err := s.GetJob(ctx, id)
	if err != nil {
		return Job{}, err
	}
	if n == 0 {
		return j, fmt.Errorf("job %s: %w", id, ErrJobConflict)
	}
	return j, nil
}

// PublishJob makes job id public, if its version is still base. A job
// published before keeps its first published_at.
func (s *Store) PublishJob(ctx context.Context, id string, base int) (Job, error) {
	now := time.Now().UTC()
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE jobs SET status = 'published', published_at = COALESCE(published_at, ?), updated_at = ?,
		version = version + 1 WHERE id = ? AND version = ?`), now, now, id, base)
	if err != nil {
		return Job{}, fmt.Errorf("publish job %s: %w", id, err)
	}
	return s.afterVersioned(ctx, id, res)
}

// UnpublishJob makes job id private again, if its version is still base.
func (s *Store) UnpublishJob(ctx context.Context, id string, base int) (Job, error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE jobs SET status = 'draft', updated_at = ?, version = version + 1 WHERE id = ? AND version = ?`),
		time.Now().UTC(), id, base)
	if err != nil {
		return Job{}, fmt.Errorf("unpublish job %s: %w", id, err)
	}
	return s.afterVersioned(ctx, id, res)
}

// DeleteJob removes a job and returns it as it was; its photos and videos
// stay in the library, detached. ErrNotFound if there was none.
func (s *Store) DeleteJob(ctx context.Context, id string) (Job, error) {
	j, err := s.GetJob(ctx, id)
	if err != nil {
		return j, err
	}
	err = s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE media SET job_id = NULL, phase = '' WHERE job_id = ?`), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM jobs WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return j, fmt.Errorf("delete job %s: %w", id, err)
	}
	return j, nil
}

// AttachMedia puts a photo or video in job jobID with a phase (moving it
// from any other job). A job with no place yet takes the photo's rounded
// position, if it has one. ErrNotFound when the job or the media is gone;
// ErrBadPhase for a phase that is not before, during, after or "".
func (s *Store) AttachMedia(ctx context.Context, jobID, mediaID, phase string) error {
	switch phase {
	case "", PhaseBefore, PhaseDuring, PhaseAfter:
	default:
		return fmt.Errorf("attach %s: %w", mediaID, ErrBadPhase)
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		// The job's row is written first, which also says whether it
		// exists: a transaction that read before its first write fails
		// on SQLite when another connection commits in between
		// (SQLITE_BUSY_SNAPSHOT).
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE jobs SET updated_at = updated_at WHERE id = ?`), jobID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("job %s: %w", jobID, ErrNotFound)
		}
		res, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE media SET job_id = ?, phase = ? WHERE id = ?`), jobID, phase, mediaID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("media %s: %w", mediaID, ErrNotFound)
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE jobs SET
			lat = (SELECT geo_lat FROM media WHERE id = ?), lng = (SELECT geo_lng FROM media WHERE id = ?)
			WHERE id = ? AND lat IS NULL AND EXISTS (SELECT 1 FROM media WHERE id = ? AND geo_lat IS NOT NULL AND geo_lng IS NOT NULL)`),
			mediaID, mediaID, jobID, mediaID)
		return err
	})
}

// DetachMedia takes a photo or video out of job jobID; it stays in the
// library. ErrNotFound when it was not in that job.
func (s *Store) DetachMedia(ctx context.Context, jobID, mediaID string) error {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE media SET job_id = NULL, phase = '' WHERE id = ? AND job_id = ?`), mediaID, jobID)
	if err != nil {
		return fmt.Errorf("detach media %s: %w", mediaID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("media %s in job %s: %w", mediaID, jobID, ErrNotFound)
	}
	return nil
}

// phaseOrder sorts a job's media: before, during, after, then the rest,
// each oldest first.
const phaseOrder = `CASE phase WHEN 'before' THEN 0 WHEN 'during' THEN 1 WHEN 'after' THEN 2 ELSE 3 END, created_at, id`

// JobMedia returns the photos and videos of a job, before, during, after
// and then the rest, each oldest first.
func (s *Store) JobMedia(ctx context.Context, jobID string) ([]Media, error) {
	out := []Media{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+mediaColumns+` FROM media WHERE job_id = ? ORDER BY `+phaseOrder), jobID); err != nil {
		return nil, fmt.Errorf("job %s media: %w", jobID, err)
	}
	return out, nil
}

// PublishedJob is a published job as the public pages may show it.
// CustomerName is "" unless the homeowner's consent is recorded. Lat and
// Lng are the rounded place (HasPlace false when no photo gave one: use
// the city's own coordinates then); they are for distance maths on the
// server only and never go into props, HTML or JSON.
type PublishedJob struct {
	ID           string
	Slug         string
	Title        string
	CityID       string
	Month        string
	Service      string
	Story        string
	CustomerName string
	// LeadID is the lead the job came from ("" for none): server only,
	// it finds the homeowner's testimonial for the job's page.
	LeadID      string
	Lat, Lng    float64
	HasPlace    bool
	Media       []PublishedJobMedia
	PublishedAt time.Time
}

// PublishedJobMedia is one photo or video of a published job. Variants is
// the stored JSON list of WebP variants (media.StoredVariant), Path and
// Poster storage keys ("" for no poster).
type PublishedJobMedia struct {
	ID       string
	Kind     string // "image" or "video"
	MIME     string
	Phase    string
	Alt      string
	Caption  string
	Width    int
	Height   int
	Path     string
	Poster   string
	Variants string
}

// PublishedJobs returns every published job with its photos and videos
// (before, during, after, then the rest), newest published first: two
// queries, linear in the data.
func (s *Store) PublishedJobs(ctx context.Context) ([]PublishedJob, error) {
	var jobs []Job
	if err := s.db.SelectContext(ctx, &jobs, `SELECT `+jobColumns+`, 0 AS photos FROM jobs WHERE status = 'published' ORDER BY published_at DESC, id`); err != nil {
		return nil, fmt.Errorf("published jobs: %w", err)
	}
	var media []Media
	if err := s.db.SelectContext(ctx, &media, `SELECT `+mediaColumns+` FROM media WHERE job_id IN (SELECT id FROM jobs WHERE status = 'published') ORDER BY job_id, `+phaseOrder); err != nil {
		return nil, fmt.Errorf("published jobs' media: %w", err)
	}
	out := make([]PublishedJob, len(jobs))
	at := make(map[string]int, len(jobs))
	for i, j := range jobs {
		p := PublishedJob{ID: j.ID, Slug: j.Slug, Title: j.Title, CityID: j.CityID, Month: j.Month, Service: j.Service, Story: j.Story, LeadID: j.LeadID}
		if j.NameConsent {
			p.CustomerName = j.CustomerName
		}
		if j.Lat != nil && j.Lng != nil {
			p.Lat, p.Lng, p.HasPlace = RoundPlace(*j.Lat), RoundPlace(*j.Lng), true
		}
		if j.PublishedAt != nil {
			p.PublishedAt = j.PublishedAt.UTC()
		}
		out[i] = p
		at[j.ID] = i
	}
	for _, m := range media {
		i, ok := at[*m.JobID]
		if !ok { // published after the first query read the jobs
			continue
		}
		out[i].Media = append(out[i].Media, PublishedJobMedia{ID: m.ID, Kind: m.Kind, MIME: m.MIME, Phase: m.Phase, Alt: m.Alt,
			Caption: m.Caption, Width: m.Width, Height: m.Height, Path: m.Path, Poster: m.Poster, Variants: m.Variants})
	}
	return out, nil
}

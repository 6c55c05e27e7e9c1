package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Kinds of lead_files (migration 110): the documents the owner attaches,
// the homeowner's photos and the crew's shared job photos.
const (
	FileEstimate       = "estimate"
	FileAuthorization  = "authorization"
	FileMoistureLog    = "moisture_log"
	FileCompletion     = "completion"
	FileHomeownerPhoto = "homeowner_photo"
	FileCrewPhoto      = "crew_photo"
)

// DocumentKinds are the kinds of document the owner attaches, in the
// order the admin offers them.
var DocumentKinds = []string{FileEstimate, FileAuthorization, FileMoistureLog, FileCompletion}

// Bounds of one lead's files, checked under the lead's lock so racing
// uploads cannot pass them. A month-long claim has a few documents and a
// few dozen photos; more is a script.
const (
	MaxLeadDocuments      = 100
	MaxHomeownerPhotos    = 30
	MaxHomeownerMessages  = 50
	MaxHomeownerMessageLn = 2000 // bytes of one message as stored
)

// ErrTooManyFiles is returned when a lead has its bound of files (or the
// homeowner of messages) already.
var ErrTooManyFiles = errors.New("this job has too many files")

// ErrNotSharable is returned when a photo is not in a job of the lead.
var ErrNotSharable = errors.New("that photo is not in a job of this lead")

// LeadFile is one file of a lead's pages. For a crew photo, Path, MIME,
// Size and Name are the job photo's (read through the join).
type LeadFile struct {
	ID        string    `db:"id"`
	LeadID    string    `db:"lead_id"`
	Kind      string    `db:"kind"`
	MediaID   string    `db:"media_id"`
	Path      string    `db:"path"`
	MIME      string    `db:"mime"`
	Size      int64     `db:"size"`
	Name      string    `db:"name"`
	Actor     string    `db:"actor"`
	CreatedAt time.Time `db:"created_at"`
}

// IsPhoto reports whether the file is shown as a picture (not a PDF).
func (f LeadFile) IsPhoto() bool { return strings.HasPrefix(f.MIME, "image/") }

// leadFileSelect reads a lead's own files and its crew photos that are
// still in a job of the lead (a photo detached from the job, moved to
// another job or deleted stops being shared, with no cleanup to forget).
const leadFileSelect = `SELECT f.id, f.lead_id, f.kind, COALESCE(f.media_id, '') AS media_id,
	CASE WHEN f.kind = 'crew_photo' THEN m.path ELSE f.path END AS path,
	CASE WHEN f.kind = 'crew_photo' THEN m.mime ELSE f.mime END AS mime,
	CASE WHEN f.kind = 'crew_photo' THEN m.size ELSE f.size END AS size,
	CASE WHEN f.kind = 'crew_photo' THEN COALESCE(NULLIF(m.caption, ''), 'Photo from the crew') ELSE f.name END AS name,
	f.actor, f.created_at
FROM lead_files f
LEFT JOIN media m ON m.id = f.media_id
WHERE (f.kind <> 'crew_photo' OR m.job_id IN (SELECT j.id FROM jobs j WHERE j.lead_id = f.lead_id))`

// LeadFiles lists a lead's files, oldest first.
func (s *Store) LeadFiles(ctx context.Context, leadID string) ([]LeadFile, error) {
	out := []LeadFile{}
	err := s.db.SelectContext(ctx, &out, s.q(leadFileSelect+` AND f.lead_id = ? ORDER BY f.created_at, f.id`), leadID)
	if err != nil {
		return nil, fmt.Errorf("lead %s files: %w", leadID, err)
	}
	return out, nil
}

// LeadFileOf is the file id of lead leadID: ErrNotFound when it is
// another lead's, unknown, or a crew photo no longer in the lead's job.
// Every download names both, so a link reaches its own lead's files only.
func (s *Store) LeadFileOf(ctx context.Context, leadID, id string) (LeadFile, error) {
	var f LeadFile
	err := s.db.GetContext(ctx, &f, s.q(leadFileSelect+` AND f.lead_id = ? AND f.id = ?`), leadID, id)
	if err != nil {
		return f, fmt.Errorf("lead %s file %s: %w", leadID, id, notFound(err))
	}
	return f, nil
}

// fileEvent is the timeline entry of a new file: the owner's document
// (EventDocument, To its kind, Body its name) or the homeowner's photos.
func fileEvent(f LeadFile, by Actor, at time.Time) LeadEvent {
	e := by.event(f.LeadID, EventDocument, at)
	e.To, e.Body = f.Kind, f.Name
	return e
}

// countKind counts a lead's files of the kinds given, in tx.
func countKind(ctx context.Context, tx *sqlx.Tx, leadID string, kinds ...string) (int, error) {
	q, args, err := sqlx.In(`SELECT COUNT(*) FROM lead_files WHERE lead_id = ? AND kind IN (?)`, leadID, kinds)
	if err != nil {
		return 0, err
	}
	var n int
	err = tx.GetContext(ctx, &n, tx.Rebind(q), args...)
	return n, err
}

// AddLeadDocument stores the owner's document f (its file already in
// storage under f.Path) with its timeline entry, and announces the
// change. ErrNotFound when the lead is gone; ErrTooManyFiles past
// MaxLeadDocuments.
func (s *Store) AddLeadDocument(ctx context.Context, f LeadFile, by Actor, now time.Time) (LeadFile, error) {
	if !isDocumentKind(f.Kind) || f.Path == "" {
		return LeadFile{}, fmt.Errorf("lead %s document: kind %q or path missing", f.LeadID, f.Kind)
	}
	f.ID, f.Actor, f.CreatedAt = newRowID(), by.Name, now.UTC()
	ch := s.leadChange(LeadDocument, f.LeadID, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, f.LeadID); err != nil {
			return err
		}
		n, err := countKind(ctx, tx, f.LeadID, DocumentKinds...)
		if err != nil {
			return err
		}
		if n >= MaxLeadDocuments {
			return ErrTooManyFiles
		}
		if err := insertLeadFile(ctx, tx, f); err != nil {
			return err
		}
		if err := addLeadEvent(ctx, tx, fileEvent(f, by, now)); err != nil {
			return err
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return LeadFile{}, fmt.Errorf("lead %s document: %w", f.LeadID, err)
	}
	s.leadChanged(ch)
	return f, nil
}

func isDocumentKind(k string) bool {
	for _, d := range DocumentKinds {
		if d == k {
			return true
		}
	}
	return false
}

func insertLeadFile(ctx context.Context, tx *sqlx.Tx, f LeadFile) error {
	var mediaID any
	if f.MediaID != "" {
		mediaID = f.MediaID
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO lead_files (id, lead_id, kind, media_id, path, mime, size, name, actor, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), f.ID, f.LeadID, f.Kind, mediaID, f.Path, f.MIME, f.Size, f.Name, f.Actor, f.CreatedAt)
	return err
}

// HomeownerSent is what the homeowner sent from their page in one post:
// photos (already in storage), a message, or both.
type HomeownerSent struct {
	Photos  []LeadFile
	Message string
}

// AddHomeownerPost stores what the homeowner sent: each photo as a
// lead file, and one timeline entry (EventHomeowner: To "photos" with
// Body the message, or To "message"), then announces the change to the
// owner's screens. The lead's bounds are counted under its lock:
// ErrTooManyFiles past MaxHomeownerPhotos photos or MaxHomeownerMessages
// posts. ErrNotFound when the lead is gone.
func (s *Store) AddHomeownerPost(ctx context.Context, leadID string, p HomeownerSent, now time.Time) ([]LeadFile, error) {
	if len(p.Photos) == 0 && strings.TrimSpace(p.Message) == "" || len(p.Message) > MaxHomeownerMessageLn {
		return nil, fmt.Errorf("lead %s homeowner post: empty, or a message over %d bytes", leadID, MaxHomeownerMessageLn)
	}
	by := Actor{Name: "homeowner"}
	e := by.event(leadID, EventHomeowner, now)
	e.To, e.Body = "message", p.Message
	if len(p.Photos) > 0 {
		e.To = "photos"
		e.From = fmt.Sprint(len(p.Photos))
	}
	ch := s.leadChange(LeadHomeowner, leadID, now)
	out := make([]LeadFile, 0, len(p.Photos))
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		n, err := countKind(ctx, tx, leadID, FileHomeownerPhoto)
		if err != nil {
			return err
		}
		if n+len(p.Photos) > MaxHomeownerPhotos {
			return ErrTooManyFiles
		}
		var posts int
		if err := tx.GetContext(ctx, &posts, tx.Rebind(`SELECT COUNT(*) FROM lead_events WHERE lead_id = ? AND kind = ?`), leadID, EventHomeowner); err != nil {
			return err
		}
		if posts >= MaxHomeownerMessages {
			return ErrTooManyFiles
		}
		for i, f := range p.Photos {
			f.ID, f.LeadID, f.Kind, f.Actor = newRowID(), leadID, FileHomeownerPhoto, by.Name
			// One post's photos keep their order.
			f.CreatedAt = now.UTC().Add(time.Duration(i) * time.Microsecond)
			if f.Path == "" {
				return fmt.Errorf("photo %d has no file", i)
			}
			if err := insertLeadFile(ctx, tx, f); err != nil {
				return err
			}
			out = append(out, f)
		}
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return nil, fmt.Errorf("lead %s homeowner post: %w", leadID, err)
	}
	s.leadChanged(ch)
	return out, nil
}

// ShareCrewPhoto shares the job photo mediaID with the lead's pages.
// ErrNotSharable when it is not a photo or video in a job of the lead;
// sharing it again changes nothing (the row is returned).
func (s *Store) ShareCrewPhoto(ctx context.Context, leadID, mediaID string, by Actor, now time.Time) (LeadFile, error) {
	f := LeadFile{ID: newRowID(), LeadID: leadID, Kind: FileCrewPhoto, MediaID: mediaID, Actor: by.Name, CreatedAt: now.UTC()}
	ch := s.leadChange(LeadDocument, leadID, now)
	added := false
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM media m JOIN jobs j ON j.id = m.job_id WHERE m.id = ? AND j.lead_id = ?`), mediaID, leadID); err != nil {
			return err
		}
		if n == 0 {
			return ErrNotSharable
		}
		var id string
		err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM lead_files WHERE lead_id = ? AND media_id = ?`), leadID, mediaID)
		if err == nil {
			f.ID = id
			return nil
		}
		if err := notFound(err); !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := insertLeadFile(ctx, tx, f); err != nil {
			return err
		}
		added = true
		e := by.event(leadID, EventDocument, now)
		e.To = FileCrewPhoto
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return LeadFile{}, fmt.Errorf("lead %s share %s: %w", leadID, mediaID, err)
	}
	if added {
		s.leadChanged(ch)
	}
	return s.LeadFileOf(ctx, leadID, f.ID)
}

// RemoveLeadFile takes file id off lead leadID's pages and returns it:
// for a crew photo the job photo stays in the job; for the others the
// caller deletes f.Path from storage. ErrNotFound when the lead has no
// such file.
func (s *Store) RemoveLeadFile(ctx context.Context, leadID, id string, now time.Time) (LeadFile, error) {
	var f LeadFile
	ch := s.leadChange(LeadDocument, leadID, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		// The lead's row is written first (see IssueLeadLink).
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		err := tx.GetContext(ctx, &f, tx.Rebind(`SELECT id, lead_id, kind, COALESCE(media_id, '') AS media_id, path, mime, size, name, actor, created_at
			FROM lead_files WHERE lead_id = ? AND id = ?`), leadID, id)
		if err != nil {
			return notFound(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM lead_files WHERE id = ?`), id); err != nil {
			return err
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return LeadFile{}, fmt.Errorf("lead %s remove file %s: %w", leadID, id, err)
	}
	s.leadChanged(ch)
	return f, nil
}

// LeadFilePaths lists the storage keys of every lead's own files: a
// deleted lead's rows go with it (ON DELETE CASCADE), and its caller
// removes the files first.
func (s *Store) LeadFilePaths(ctx context.Context, leadID string) ([]string, error) {
	out := []string{}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT path FROM lead_files WHERE lead_id = ? AND path <> ''`), leadID)
	if err != nil {
		return nil, fmt.Errorf("lead %s file paths: %w", leadID, err)
	}
	return out, nil
}

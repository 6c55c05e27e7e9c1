package db

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/phone"
)

// Lead is a row of avatar_leads (spec 3). Its JSON, named after the
// columns, is a lead at rest: the spool file and the outbox payloads hold
// it and the webhook posts it, so it keeps these names (ADR 059). The
// admin API sends leads.Full and leads.Masked instead.
type Lead struct {
	ID        string    `db:"id" json:"id"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
	FirstName string    `db:"first_name" json:"first_name"`
	LastName  string    `db:"last_name" json:"last_name"`
	// Phone is E.164 ("+16785550199") for a North American number, else
	// as typed (package phone); PhoneTyped is what the visitor typed.
	Phone            string `db:"phone" json:"phone"`
	PhoneTyped       string `db:"phone_typed" json:"phone_typed"`
	Email            string `db:"email" json:"email"`
	City             string `db:"city" json:"city"`
	StreetAddress    string `db:"street_address" json:"street_address"`
	ZipCode          string `db:"zip_code" json:"zip_code"`
	DamageType       string `db:"damage_type" json:"damage_type"`
	Status           string `db:"status" json:"status"`
	IsEmergency      bool   `db:"is_emergency" json:"is_emergency"`
	Source           string `db:"source" json:"source"`
	InsuranceCarrier string `db:"insurance_carrier" json:"insurance_carrier"`
	ClaimNumber      string `db:"claim_number" json:"claim_number"`
	Notes            string `db:"notes" json:"notes"`
	// Attribution is where the visit that sent the lead came from
	// (leads.ParseAttribution bounds every field before it gets here).
	Attribution `json:"attribution"`
	// AssignedTo is the id of the account working the lead (nil: nobody).
	AssignedTo *string `db:"assigned_to" json:"assigned_to"`
	// FirstResponseAt is when a person first changed the status or added
	// a note: the end of the lead's first response time.
	FirstResponseAt *time.Time `db:"first_response_at" json:"first_response_at"`
	// EscalatedAt is when the lead, an emergency still new, was escalated.
	EscalatedAt *time.Time `db:"escalated_at" json:"escalated_at"`
}

// Attribution is where a lead's visit came from: the columns
// of migration 023. Every field is "" when it was not recorded. The rules
// that admit a value are package leads' (ParseAttribution); this is only
// their stored form, here so that a spooled lead carries it too.
type Attribution struct {
	// LandingPage is the path of the visit's first page on the site.
	LandingPage string `db:"landing_page" json:"landing_page"`
	// ReferrerHost is the host of the page that sent the visitor, when
	// it was another site's.
	ReferrerHost string `db:"referrer_host" json:"referrer_host"`
	UTMSource    string `db:"utm_source" json:"utm_source"`
	UTMMedium    string `db:"utm_medium" json:"utm_medium"`
	UTMCampaign  string `db:"utm_campaign" json:"utm_campaign"`
	UTMTerm      string `db:"utm_term" json:"utm_term"`
	UTMContent   string `db:"utm_content" json:"utm_content"`
	// The ad platforms' click ids: Google (gclid, and gbraid and wbraid
	// for iOS app and web campaigns), Meta (fbclid), Microsoft (msclkid).
	GCLID   string `db:"gclid" json:"gclid"`
	GBRAID  string `db:"gbraid" json:"gbraid"`
	WBRAID  string `db:"wbraid" json:"wbraid"`
	FBCLID  string `db:"fbclid" json:"fbclid"`
	MSCLKID string `db:"msclkid" json:"msclkid"`
	// DeviceClass is the screen class: mobile, tablet, laptop or desktop.
	DeviceClass string `db:"device_class" json:"device_class"`
	// VisitID is the first-party id of the visit, which ties the lead to
	// it in the site's analytics.
	VisitID string `db:"visit_id" json:"visit_id"`
}

const leadColumns = `id, created_at, updated_at, first_name, last_name, phone, phone_typed, email, city, street_address, zip_code,
	damage_type, status, is_emergency, source, insurance_carrier, claim_number, notes,
	landing_page, referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
	gclid, gbraid, wbraid, fbclid, msclkid, device_class, visit_id, assigned_to, first_response_at, escalated_at`

// leadValues are leadColumns' named parameters.
const leadValues = `:id, :created_at, :updated_at, :first_name, :last_name, :phone, :phone_typed, :email, :city, :street_address,
	:zip_code, :damage_type, :status, :is_emergency, :source, :insurance_carrier, :claim_number, :notes,
	:landing_page, :referrer_host, :utm_source, :utm_medium, :utm_campaign, :utm_term, :utm_content,
	:gclid, :gbraid, :wbraid, :fbclid, :msclkid, :device_class, :visit_id, :assigned_to, :first_response_at, :escalated_at`

// storedLead is a lead as its row holds it: with what a search matches.
type storedLead struct {
	Lead
	SearchName    string `db:"search_name"`
	SearchContact string `db:"search_contact"`
	SourceKey     string `db:"source_key"`
}

// searchSep separates the parts of the search columns. Nobody can type
// it, so a search never matches across two parts.
const searchSep = "\x1f"

// LeadSearch is what the leads search matches (LeadQuery.Q): the name
// and city ("first last", searchSep, city), and the contact (email,
// searchSep, the phone's digits), in lower case.
func LeadSearch(l Lead) (name, contact string) {
	name = strings.ToLower(l.FirstName+" "+l.LastName) + searchSep + strings.ToLower(l.City)
	contact = strings.ToLower(l.Email) + searchSep + digitsOf(l.Phone)
	return name, contact
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stored is l normalised, with its search columns.
func stored(l Lead) storedLead {
	l = l.Normalized()
	name, contact := LeadSearch(l)
	return storedLead{Lead: l, SearchName: name, SearchContact: contact, SourceKey: LeadSourceKey(l.Attribution)}
}

// Normalized is l with its phone in the stored form: PhoneTyped keeps
// what was typed (when the caller has not set it), Phone becomes E.164
// when the number is a possible North American one and stays as typed
// otherwise. It is idempotent, so every path that stores a lead (the
// form, a spool replay, a notifier building the announcement first) can
// apply it without knowing whether another did.
func (l Lead) Normalized() Lead {
	if l.PhoneTyped == "" {
		l.PhoneTyped = l.Phone
	}
	l.Phone, _ = phone.Normalize(l.Phone)
	return l
}

// LeadStatuses are spec 4's five lead states.
var LeadStatuses = []string{"new", "contacted", "scheduled", "completed", "cancelled"}

// CreateLead stores a lead, its phone normalised (Lead.Normalized). The
// caller reports success only after this returns nil.
func (s *Store) CreateLead(ctx context.Context, l Lead) error {
	ch := s.leadChange(LeadCreated, l.ID, l.CreatedAt)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO avatar_leads (`+leadColumns+`, search_name, search_contact, source_key) VALUES (`+leadValues+`, :search_name, :search_contact, :source_key)`, stored(l)); err != nil {
			return err
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return fmt.Errorf("create lead: %w", err)
	}
	s.leadChanged(ch)
	return nil
}

// GetLead returns one lead by id.
func (s *Store) GetLead(ctx context.Context, id string) (Lead, error) {
	var l Lead
	if err := s.db.GetContext(ctx, &l, s.q(`SELECT `+leadColumns+` FROM avatar_leads WHERE id = ?`), id); err != nil {
		return l, fmt.Errorf("lead %s: %w", id, notFound(err))
	}
	return l, nil
}

// ListLeads returns every lead, newest first.
func (s *Store) ListLeads(ctx context.Context) ([]Lead, error) {
	var ls []Lead
	if err := s.db.SelectContext(ctx, &ls, `SELECT `+leadColumns+` FROM avatar_leads ORDER BY created_at DESC, id`); err != nil {
		return nil, fmt.Errorf("list leads: %w", err)
	}
	return ls, nil
}

// normalizeLeadPhones brings the leads whose phone_typed is empty (stored
// before migration 012, or by an older instance since) to the stored
// form: phone_typed gets the phone as typed, phone its E.164 form when it
// has one. A number that cannot be normalised is kept as typed. It runs
// after the migrations at every open; once done, it finds no rows.
//
// The rows are read first and updated in a transaction that only writes:
// a SQLite transaction that reads and then writes cannot wait for another
// writer (SQLITE_BUSY at once), and lib/pq cannot update while a result
// set is open. Each update re-checks phone_typed, so stores opening at the
// same time (two instances, or the user CLI beside the server) cannot
// normalise a row twice.
func (s *Store) normalizeLeadPhones(ctx context.Context) error {
	var rows []struct {
		ID    string `db:"id"`
		Phone string `db:"phone"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT id, phone FROM avatar_leads WHERE phone_typed = '' AND phone <> ''`); err != nil {
		return fmt.Errorf("normalise lead phones: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, r := range rows {
			l := Lead{Phone: r.Phone}.Normalized()
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET phone = ?, phone_typed = ?, search_contact = '' WHERE id = ? AND phone_typed = ''`),
				l.Phone, l.PhoneTyped, r.ID); err != nil {
				return fmt.Errorf("normalise lead %s phone: %w", r.ID, err)
			}
		}
		return nil
	})
}

// fillLeadSearch fills the search columns of the leads stored without
// them (before migration 116, or by a restore of an older backup, or
// whose phone normalizeLeadPhones just changed), a batch at a time, each
// update re-checking that the row still lacks them.
func (s *Store) fillLeadSearch(ctx context.Context) error {
	for {
		var rows []Lead
		if err := s.db.SelectContext(ctx, &rows, `SELECT id, first_name, last_name, city, email, phone FROM avatar_leads
			WHERE search_name = '' OR search_contact = '' LIMIT 1000`); err != nil {
			return fmt.Errorf("fill lead search: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		filled := 0
		err := s.Transact(ctx, func(tx *sqlx.Tx) error {
			for _, l := range rows {
				name, contact := LeadSearch(l)
				res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET search_name = ?, search_contact = ?
					WHERE id = ? AND (search_name = '' OR search_contact = '')`), name, contact, l.ID)
				if err != nil {
					return fmt.Errorf("fill lead %s search: %w", l.ID, err)
				}
				if n, _ := res.RowsAffected(); n > 0 {
					filled++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if filled == 0 {
			return nil // another store filled them meanwhile
		}
	}
}

// SetLeadStatus changes a lead's status and sets updated_at to now.
func (s *Store) SetLeadStatus(ctx context.Context, id, status string, now time.Time) error {
	valid := false
	for _, st := range LeadStatuses {
		valid = valid || st == status
	}
	if !valid {
		return fmt.Errorf("lead %s: status %q is not one of %v", id, status, LeadStatuses)
	}
	ch := s.leadChange(LeadStatus, id, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET status = ?, updated_at = ? WHERE id = ?`), status, now, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return fmt.Errorf("lead %s: %w", id, err)
	}
	s.leadChanged(ch)
	return nil
}

// LeadQuery selects leads for the leads manager and the CSV export.
type LeadQuery struct {
	// Q matches first name, last name, the full name and city, case-
	// insensitively. With SearchContact it also matches the email and,
	// when Q has digits, the phone's digits.
	Q             string
	SearchContact bool
	Status        string
	DamageType    string
	Emergency     *bool
	From, To      *time.Time // created_at >= From, < To
	Limit, Offset int        // Limit 0: no limit
}

// likeEscape escapes LIKE's wildcards so a search is literal.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func (q LeadQuery) where() (string, []any) {
	var conds []string
	var args []any
	if t := strings.TrimSpace(q.Q); t != "" {
		// One LIKE on the name-and-city column matches the first name,
		// the last name, the full name and the city; the contact column
		// holds the email before searchSep and the phone's digits after,
		// so each pattern matches only its own part.
		low := likeEscape(strings.ToLower(t))
		ors := []string{`search_name LIKE ? ESCAPE '\'`}
		args = append(args, "%"+low+"%")
		if q.SearchContact {
			ors = append(ors, `search_contact LIKE ? ESCAPE '\'`)
			args = append(args, "%"+low+"%"+searchSep+"%")
			if digits := digitsOf(t); len(digits) >= 3 {
				ors = append(ors, `search_contact LIKE ?`)
				args = append(args, "%"+searchSep+"%"+digits+"%")
			}
		}
		if strings.Contains(t, searchSep) {
			ors = []string{"1 = 0"} // what nobody can type matches nothing
			args = args[:0]
		}
		conds = append(conds, "("+strings.Join(ors, " OR ")+")")
	}
	if q.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, q.Status)
	}
	if q.DamageType != "" {
		conds = append(conds, "damage_type = ?")
		args = append(args, q.DamageType)
	}
	if q.Emergency != nil {
		conds = append(conds, "is_emergency = ?")
		args = append(args, *q.Emergency)
	}
	if q.From != nil {
		conds = append(conds, "created_at >= ?")
		args = append(args, q.From.UTC())
	}
	if q.To != nil {
		conds = append(conds, "created_at < ?")
		args = append(args, q.To.UTC())
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// QueryLeads returns one page of the leads q selects, newest first, and
// how many it selects in all.
func (s *Store) QueryLeads(ctx context.Context, q LeadQuery) ([]Lead, int, error) {
	where, args := q.where()
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(`SELECT COUNT(*) FROM avatar_leads`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count leads: %w", err)
	}
	query := `SELECT ` + leadColumns + ` FROM avatar_leads` + where + ` ORDER BY created_at DESC, id`
	if q.Limit > 0 {
		// The page's ids first, from an index in the list's order (which
		// also holds the search columns), then their rows: a deep page
		// steps over index entries, not over whole leads.
		query = `SELECT ` + leadColumns + ` FROM avatar_leads WHERE id IN (
			SELECT id FROM avatar_leads` + where + ` ORDER BY created_at DESC, id LIMIT ? OFFSET ?) ORDER BY created_at DESC, id`
		args = append(args, q.Limit, q.Offset)
	}
	ls := []Lead{}
	if err := s.db.SelectContext(ctx, &ls, s.q(query), args...); err != nil {
		return nil, 0, fmt.Errorf("query leads: %w", err)
	}
	return ls, total, nil
}

// EachLead calls fn for every lead q selects, newest first, reading rows
// as it goes (the CSV export streams without holding them all).
func (s *Store) EachLead(ctx context.Context, q LeadQuery, fn func(Lead) error) error {
	where, args := q.where()
	rows, err := s.db.QueryxContext(ctx, s.q(`SELECT `+leadColumns+` FROM avatar_leads`+where+` ORDER BY created_at DESC, id`), args...)
	if err != nil {
		return fmt.Errorf("export leads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Lead
		if err := rows.StructScan(&l); err != nil {
			return fmt.Errorf("export leads: %w", err)
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EscalateLeads escalates the emergency leads still 'new' that were
// created at or before cutoff and never escalated: at most limit of
// them, oldest first. For each it sets escalated_at to now, writes the
// outbox rows that rows returns (their Event is OutboxEscalated) and an
// 'escalated' event on its timeline, all in one transaction, and it
// returns the leads it escalated.
//
// A lead is escalated once, however many instances run this at the same
// moment: escalated_at is set by one conditional UPDATE (... WHERE
// escalated_at IS NULL), which PostgreSQL re-checks on the row after
// waiting for another transaction's lock (and rows another instance holds
// are skipped), and which SQLite runs one writer at a time. The UPDATE is
// the transaction's first statement, so on SQLite it waits for another
// writer rather than failing. rows runs inside the transaction: it must
// not use the store.
func (s *Store) EscalateLeads(ctx context.Context, cutoff, now time.Time, limit int, rows func(Lead) ([]OutboxRow, error)) ([]Lead, error) {
	lock := ""
	if s.dialect == "postgres" {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	var out []Lead
	var changes []LeadChange
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		out, changes = nil, nil
		if err := tx.SelectContext(ctx, &out, tx.Rebind(`UPDATE avatar_leads SET escalated_at = ?
			WHERE escalated_at IS NULL AND status = 'new' AND id IN (SELECT id FROM avatar_leads
				WHERE is_emergency = ? AND status = 'new' AND escalated_at IS NULL AND created_at <= ?
				ORDER BY created_at, id LIMIT ?`+lock+`)
			RETURNING `+leadColumns), now.UTC(), true, cutoff.UTC(), limit); err != nil {
			return err
		}
		for _, l := range out {
			rs, err := rows(l)
			if err != nil {
				return fmt.Errorf("lead %s: %w", l.ID, err)
			}
			for i := range rs {
				rs[i].Event = OutboxEscalated
			}
			if err := insertOutbox(ctx, tx, l.ID, rs); err != nil {
				return err
			}
			if err := addLeadEvent(ctx, tx, SystemActor.event(l.ID, EventEscalated, now)); err != nil {
				return err
			}
			changes = append(changes, s.leadChange(LeadEscalated, l.ID, now))
		}
		return s.notifyLead(ctx, tx, changes...)
	})
	if err != nil {
		return nil, fmt.Errorf("escalate leads: %w", err)
	}
	s.leadChanged(changes...)
	return out, nil
}

// ResponseStats sums up the first response times of the leads created
// in a window: the time from a lead's creation to the first status
// change or note by a person.
type ResponseStats struct {
	// Leads were created in the window; Answered of them have had a
	// response. Leads not yet answered are not in the percentiles.
	Leads    int `json:"leads"`
	Answered int `json:"answered"`
	// Median and P90 are nearest-rank percentiles of the answered leads'
	// response times: the value at rank ceil(p·n) of the n times sorted
	// ascending (for an even n the median is the lower middle value, a
	// time that some lead really had). 0 when none was answered.
	Median time.Duration `json:"median"`
	P90    time.Duration `json:"p90"`
}

// ResponseTimes are the dashboard's first response figures.
type ResponseTimes struct {
	Last7Days  ResponseStats `json:"last7Days"`
	Last30Days ResponseStats `json:"last30Days"`
}

// LeadResponseTimes returns the first response figures of the leads
// created in the 7 and the 30 days before now.
func (s *Store) LeadResponseTimes(ctx context.Context, now time.Time) (ResponseTimes, error) {
	var rt ResponseTimes
	var err error
	if rt.Last7Days, err = s.LeadResponseStats(ctx, now.Add(-7*24*time.Hour), now); err != nil {
		return rt, err
	}
	rt.Last30Days, err = s.LeadResponseStats(ctx, now.Add(-30*24*time.Hour), now)
	return rt, err
}

// LeadResponseStats sums up the first response times of the leads
// created in [from, to). The times are read and ranked here, in Go, so
// the figures are the same on both databases (SQLite has no percentile
// function, and its timestamps are text).
func (s *Store) LeadResponseStats(ctx context.Context, from, to time.Time) (ResponseStats, error) {
	var rows []struct {
		CreatedAt   time.Time  `db:"created_at"`
		RespondedAt *time.Time `db:"first_response_at"`
	}
	if err := s.db.SelectContext(ctx, &rows, s.q(`SELECT created_at, first_response_at FROM avatar_leads WHERE created_at >= ? AND created_at < ?`),
		from.UTC(), to.UTC()); err != nil {
		return ResponseStats{}, fmt.Errorf("lead response times: %w", err)
	}
	st := ResponseStats{Leads: len(rows)}
	var ds []time.Duration
	for _, r := range rows {
		if r.RespondedAt == nil {
			continue
		}
		// A clock that stepped back between the two cannot make a
		// response faster than instant.
		ds = append(ds, max(r.RespondedAt.Sub(r.CreatedAt), 0))
	}
	st.Answered = len(ds)
	slices.Sort(ds)
	st.Median, st.P90 = NearestRank(ds, 50), NearestRank(ds, 90)
	return st, nil
}

// NearestRank is the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method: the element at rank ceil(p/100·n), 1-based. It is
// always one of the values; 0 for none.
func NearestRank(sorted []time.Duration, p int) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := (p*n + 99) / 100 // ceil(p·n/100) in integers
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}

// LeadSourceCount is how many leads created in a window share one
// attribution: the UTM source, medium and campaign, the referrer's host
// and the ad platform of a click id ("google", "meta", "microsoft" or "").
type LeadSourceCount struct {
	UTMSource    string `db:"utm_source"`
	UTMMedium    string `db:"utm_medium"`
	UTMCampaign  string `db:"utm_campaign"`
	ReferrerHost string `db:"referrer_host"`
	ClickFrom    string `db:"click_from"`
	Leads        int64  `db:"leads"`
	Emergencies  int64  `db:"emergencies"`
}

// LeadSources counts the leads created in [from, to) by their
// attribution (Analytics' 'Leads by source / campaign'). Every
// stored lead is counted, spooled and no-JavaScript ones included: their
// attribution is what the server could read, empty where nothing. The
// leads are grouped on their source_key (LeadSourceKey), read with
// created_at and is_emergency from one index (migration 117): one short
// value per lead to sort rather than five columns and a CASE over five
// more, the same groups since the key is one-to-one.
func (s *Store) LeadSources(ctx context.Context, from, to time.Time) ([]LeadSourceCount, error) {
	var rows []struct {
		Key         string `db:"source_key"`
		Leads       int64  `db:"leads"`
		Emergencies int64  `db:"emergencies"`
	}
	err := s.db.SelectContext(ctx, &rows, s.q(`SELECT source_key, COUNT(*) AS leads, SUM(CASE WHEN is_emergency THEN 1 ELSE 0 END) AS emergencies
		FROM avatar_leads WHERE created_at >= ? AND created_at < ? GROUP BY source_key`), from.UTC(), to.UTC())
	if err != nil {
		return nil, fmt.Errorf("lead sources: %w", err)
	}
	out := make([]LeadSourceCount, 0, len(rows))
	for _, r := range rows {
		c, ok := parseLeadSourceKey(r.Key)
		if !ok {
			return nil, fmt.Errorf("lead sources: a lead's source_key %q is not one LeadSourceKey writes", r.Key)
		}
		c.Leads, c.Emergencies = r.Leads, r.Emergencies
		out = append(out, c)
	}
	return out, nil
}

// LeadClickFrom is the ad platform of a's click id: "google", "meta",
// "microsoft" or "" (none), in that order of precedence.
func LeadClickFrom(a Attribution) string {
	switch {
	case a.GCLID != "" || a.GBRAID != "" || a.WBRAID != "":
		return "google"
	case a.FBCLID != "":
		return "meta"
	case a.MSCLKID != "":
		return "microsoft"
	}
	return ""
}

// LeadSourceKey is a's attribution as LeadSources groups it: the UTM
// source, medium and campaign, the referrer's host and LeadClickFrom,
// each written as its length in bytes, a colon and the bytes, so two
// attributions share a key exactly when they share all five (whatever
// bytes a field holds). It is never "".
func LeadSourceKey(a Attribution) string {
	var b strings.Builder
	for _, f := range []string{a.UTMSource, a.UTMMedium, a.UTMCampaign, a.ReferrerHost, LeadClickFrom(a)} {
		b.WriteString(strconv.Itoa(len(f)))
		b.WriteByte(':')
		b.WriteString(f)
	}
	return b.String()
}

// parseLeadSourceKey reads the five fields of a LeadSourceKey back.
func parseLeadSourceKey(k string) (LeadSourceCount, bool) {
	var f [5]string
	for i := range f {
		colon := strings.IndexByte(k, ':')
		if colon < 1 {
			return LeadSourceCount{}, false
		}
		n, err := strconv.Atoi(k[:colon])
		if err != nil || n < 0 || n > len(k)-colon-1 {
			return LeadSourceCount{}, false
		}
		f[i], k = k[colon+1:colon+1+n], k[colon+1+n:]
	}
	if k != "" {
		return LeadSourceCount{}, false
	}
	return LeadSourceCount{UTMSource: f[0], UTMMedium: f[1], UTMCampaign: f[2], ReferrerHost: f[3], ClickFrom: f[4]}, true
}

// fillLeadSourceKey writes the source_key of the leads stored without
// one (before migration 117, by a restore of an older backup, or by a
// bulk load that writes rows itself), a batch at a time, each update
// re-checking that the row still lacks it.
func (s *Store) fillLeadSourceKey(ctx context.Context) error {
	for {
		var rows []struct {
			ID string `db:"id"`
			Attribution
		}
		if err := s.db.SelectContext(ctx, &rows, `SELECT id, utm_source, utm_medium, utm_campaign, referrer_host, gclid, gbraid, wbraid, fbclid, msclkid
			FROM avatar_leads WHERE source_key = '' LIMIT 1000`); err != nil {
			return fmt.Errorf("fill lead source key: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		filled := 0
		err := s.Transact(ctx, func(tx *sqlx.Tx) error {
			for _, r := range rows {
				res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET source_key = ? WHERE id = ? AND source_key = ''`), LeadSourceKey(r.Attribution), r.ID)
				if err != nil {
					return fmt.Errorf("fill lead %s source key: %w", r.ID, err)
				}
				if n, _ := res.RowsAffected(); n > 0 {
					filled++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if filled == 0 {
			return nil // another store filled them meanwhile
		}
	}
}

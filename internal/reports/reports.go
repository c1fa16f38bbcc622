// Package reports takes shoppers' reports of wrong store data (wrong hours,
// closed for good, wrong place or phone) and their moderation: a moderator
// sees the open reports grouped by store beside the store's current data and
// fixes the store, hides it, marks it permanently closed or dismisses the
// reports. Every decision is written to the audit log, and an accepted
// report is mailed to the store's owner (docs/claims.md, "Reports").
package reports

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/ownership"
	"locator/internal/ratelimit"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// Reason is what a shopper says is wrong.
type Reason string

const (
	WrongHours        Reason = "wrong_hours"
	PermanentlyClosed Reason = "permanently_closed"
	WrongLocation     Reason = "wrong_location"
	WrongPhone        Reason = "wrong_phone"
	Other             Reason = "other"
)

// Reasons in the order the form lists them.
var Reasons = []Reason{WrongHours, PermanentlyClosed, WrongLocation, WrongPhone, Other}

// MaxNote is the longest note, in characters.
const MaxNote = 500

// The limits on reports: a store's page is public, so one client must not
// fill the queue, and a few clients must not shut genuine shoppers out.
// They count the client's network (ratelimit.Network: an IPv4 /24, an IPv6
// /64), not its exact address, and are counted in the database
// (ratelimit.DB), so every replica agrees. docs/claims.md ("Report limits")
// tells the whole rule.
const (
	perNetPerHour     = 10 // reports from one network, all stores
	perNetStorePerDay = 3  // about one store from one network; past it, thanked and not kept
	perStorePerDay    = 30 // new entries in a store's queue; past it, repeats merge
	day               = 24 * time.Hour
	reportedMessage   = "Thanks! We'll check this store."
	tooManyMessage    = "Too many reports. Please try again later."
	reasonMessage     = "Choose what is wrong"
	noteLengthMessage = "The note should be at most 500 characters"
)

// ReportedMessage is what the shopper reads once the report is in.
const ReportedMessage = reportedMessage

// Report is one shopper's report.
type Report struct {
	ID         int64     `json:"id"`
	StoreID    int64     `json:"store_id"`
	Reason     Reason    `json:"reason"`
	Note       string    `json:"note"`
	Signed     bool      `json:"signed_in"` // sent by a signed-in member
	Copies     int       `json:"copies"`    // how many shoppers sent it: repeats merge into one (Submit)
	Status     string    `json:"status"`
	CreatedAt  time.Time `json:"created_at"`
	ResolvedBy string    `json:"resolved_by,omitempty"`
	Resolution string    `json:"resolution,omitempty"`
}

// Service keeps reports.
type Service struct {
	db     *db.DB
	stores *stores.Repo
	limits *ratelimit.DB
	// Owner finds the email of a store's owner, "" when it has none; nil:
	// the approved claim of the store (OwnerFromClaims).
	Owner func(ctx context.Context, q db.Querier, storeID int64) (string, error)
	now   clock.Clock
}

// New returns a Service on d, telling the time by clk (nil: the system's).
func New(d *db.DB, sr *stores.Repo, clk clock.Clock) *Service {
	if clk == nil {
		clk = clock.System()
	}
	return &Service{db: d, stores: sr, limits: ratelimit.NewDB(d), now: clk}
}

// Input is a report as the shopper sends it.
type Input struct {
	StoreID    int64
	Reason     string
	Note       string
	CustomerID int64  // 0: anonymous
	ClientIP   string // for the limits
}

// Validate checks the fields and trims the note.
func (in *Input) Validate() error {
	if !validReason(Reason(in.Reason)) {
		return apperr.Invalidf(reasonMessage)
	}
	var fits bool
	if in.Note, fits = textfield.Trim(in.Note, MaxNote); !fits {
		return apperr.Invalidf(noteLengthMessage)
	}
	if !utf8.ValidString(in.Note) || strings.ContainsRune(in.Note, 0) {
		return apperr.Invalidf("The note contains characters that are not allowed")
	}
	return nil
}

func validReason(r Reason) bool { return slices.Contains(Reasons, r) }

// Submit records a report of a published store.
func (s *Service) Submit(ctx context.Context, in Input) (*Report, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	st, err := s.stores.Get(ctx, in.StoreID)
	if err != nil {
		return nil, err
	}
	if st.Status != stores.Published {
		return nil, apperr.New(apperr.NotFound, "Store not found")
	}
	network := ratelimit.Network(in.ClientIP)
	ok, wait, err := s.limits.Reserve(ctx, "report-net:"+network, perNetPerHour, time.Hour)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &apperr.Error{Code: apperr.TooMany, Message: tooManyMessage, RetryAfter: wait}
	}
	r := &Report{StoreID: in.StoreID, Reason: Reason(in.Reason), Note: in.Note, Signed: in.CustomerID != 0,
		Status: "open", Copies: 1, CreatedAt: s.now().UTC().Truncate(time.Second)}
	// The same network about the same store again: its report is already
	// in the queue, so this one is thanked for and not kept.
	ok, _, err = s.limits.Reserve(ctx, fmt.Sprintf("report-net-store:%s:%d", network, in.StoreID), perNetStorePerDay, day)
	if err != nil {
		return nil, err
	}
	if !ok {
		return r, nil
	}
	// A reason the queue already holds for this store merges into it (one
	// more copy) when it adds no note, or when the store's new entries are
	// used up; a new reason is always kept, so the budget never shuts a
	// genuine shopper out (there are only len(Reasons) of them).
	var openID int64
	err = s.db.QueryRow(ctx, `SELECT id FROM store_reports WHERE store_id = $1 AND reason = $2 AND status = 'open'
		ORDER BY id LIMIT 1`, in.StoreID, in.Reason).Scan(&openID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("open report of store %d: %w", in.StoreID, err)
	}
	merge := openID != 0 && in.Note == ""
	if openID != 0 && !merge {
		ok, _, err := s.limits.Reserve(ctx, fmt.Sprintf("report-store:%d", in.StoreID), perStorePerDay, day)
		if err != nil {
			return nil, err
		}
		merge = !ok
	}
	if merge {
		if _, err := s.db.Exec(ctx, `UPDATE store_reports SET copies = copies + 1 WHERE id = $1`, openID); err != nil {
			return nil, fmt.Errorf("merge report into %d: %w", openID, err)
		}
		r.ID = openID
		return r, nil
	}
	var customer any
	if in.CustomerID != 0 {
		customer = in.CustomerID
	}
	err = s.db.QueryRow(ctx, `INSERT INTO store_reports (store_id, reason, note, customer_id, client_ip, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, r.StoreID, string(r.Reason), r.Note, customer, in.ClientIP, r.CreatedAt).Scan(&r.ID)
	if err != nil {
		return nil, fmt.Errorf("insert report: %w", err)
	}
	return r, nil
}

// StoreReports is one store in the moderators' queue: its current data and
// its open reports, oldest first.
type StoreReports struct {
	Store   *stores.Store
	Reports []Report
}

// QueuePage is the most stores one page of the moderators' queue holds.
const QueuePage = 20

// Open lists one page (from 1) of the stores with open reports, the most
// reported first (copies counted), then the one waiting longest, and how
// many stores have open reports in all.
func (s *Service) Open(ctx context.Context, page, perPage int) ([]StoreReports, int, error) {
	if perPage <= 0 || perPage > QueuePage {
		perPage = QueuePage
	}
	page = max(page, 1)
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(DISTINCT store_id) FROM store_reports WHERE status = 'open'`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count reported stores: %w", err)
	}
	rows, err := s.db.Query(ctx, `SELECT store_id FROM store_reports WHERE status = 'open'
		GROUP BY store_id ORDER BY SUM(copies) DESC, MIN(id) LIMIT $1 OFFSET $2`, perPage, (page-1)*perPage)
	if err != nil {
		return nil, 0, fmt.Errorf("reported stores: %w", err)
	}
	var order []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("scan reported store: %w", err)
		}
		order = append(order, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("reported stores: %w", err)
	}
	out := make([]StoreReports, 0, len(order))
	for _, id := range order {
		st, err := s.stores.Get(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		reps, err := s.openOf(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, StoreReports{Store: st, Reports: reps})
	}
	return out, total, nil
}

// openOf is a store's open reports, oldest first.
func (s *Service) openOf(ctx context.Context, storeID int64) ([]Report, error) {
	rows, err := s.db.Query(ctx, `SELECT id, store_id, reason, note, customer_id IS NOT NULL, status, created_at, copies
		FROM store_reports WHERE store_id = $1 AND status = 'open' ORDER BY id`, storeID)
	if err != nil {
		return nil, fmt.Errorf("open reports of store %d: %w", storeID, err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var reason string
		if err := rows.Scan(&r.ID, &r.StoreID, &reason, &r.Note, &r.Signed, &r.Status, &r.CreatedAt, &r.Copies); err != nil {
			return nil, fmt.Errorf("scan report: %w", err)
		}
		r.Reason = Reason(reason)
		out = append(out, r)
	}
	return out, rows.Err()
}

// OwnerFromClaims is the email of the store's owner: the business account
// linked to the store (an approved claim or a moderator's link; the latest
// link when several accounts share the store), else the email of the
// approved claim that published it, "" when there is neither. A claim still
// waiting for the owners' consent, or declined by them, is nobody's
// ownership (docs/claims.md), so its email is never taken for the owner's.
func OwnerFromClaims(ctx context.Context, q db.Querier, storeID int64) (string, error) {
	email, err := ownership.LatestEmail(ctx, q, storeID)
	if err != nil || email != "" {
		return email, err
	}
	err = q.QueryRow(ctx, `SELECT email FROM claims WHERE store_id = $1 AND status = 'approved'
		AND consent IN ('', 'accepted') ORDER BY decided_at DESC, id DESC LIMIT 1`, storeID).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("owner of store %d: %w", storeID, err)
	}
	return email, nil
}

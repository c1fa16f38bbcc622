// Package reviews holds store reviews and their summary (average, counts
// per star, recommended share): the demo's sample reviews, the reviews
// members write (write.go: who may, the screening and the limits), the
// owners' public replies (replies.go), anyone's flags and the moderators'
// decisions (moderation.go); docs/reviews.md. Every change to a published
// review updates the store's rating and search document in its
// transaction.
package reviews

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/stores"
)

// Review is one review of a store. Product is the embedded product as the
// marketplace shapes it (title, handle, thumbnail, store, ...), kept as JSON.
type Review struct {
	ID                 int64
	StoreID            int64
	ProductID          string
	CustomerID         string
	Status             string
	Rating             int
	Content            string
	Product            json.RawMessage
	CustomerFirstName  string
	CustomerLastName   string
	CustomerHasAccount bool
	CreatedAt          time.Time
	UpdatedAt          time.Time

	// Sample: one of the demo's sample reviews (written by the seed, no
	// member behind it).
	Sample bool
	// MemberID is the member who wrote it (0 for a sample review).
	MemberID int64
	// EditedAt is when its author last edited it (zero: never).
	EditedAt time.Time
	// HeldReason says why it waits for a moderator (Status Held), or why
	// a moderator removed it (Status Removed).
	HeldReason string
	// Reply is the store owner's public reply (zero Text: none).
	Reply Reply
}

// Reply is a store owner's public reply to a review.
type Reply struct {
	Text     string
	At       time.Time
	EditedAt time.Time // zero: never edited
}

// The statuses of a review: only Approved ones are published and counted.
const (
	Approved = "Approved"
	Held     = "Held"
	Removed  = "Removed"
)

// MaxContentLen bounds a review's text.
const MaxContentLen = 5000

// Validate checks a review before it is written.
func (r *Review) Validate() error {
	r.Content = strings.TrimSpace(r.Content)
	switch {
	case r.Rating < 1 || r.Rating > 5:
		return apperr.Invalidf("rating must be 1 to 5")
	case utf8.RuneCountInString(r.Content) > MaxContentLen:
		return apperr.Invalidf("content must be at most %d characters", MaxContentLen)
	case len(r.CustomerFirstName) > 255 || len(r.CustomerLastName) > 255:
		return apperr.Invalidf("names must be at most 255 characters")
	}
	if len(r.Product) == 0 {
		r.Product = json.RawMessage("{}")
	}
	if !json.Valid(r.Product) {
		return apperr.Invalidf("product must be JSON")
	}
	if r.Status == "" {
		r.Status = Approved
	}
	return nil
}

// Summary is what the "Reviews summary" chart shows.
type Summary struct {
	Average     float64 // one decimal
	Count       int
	Counts      [5]int // Counts[0] is 5 stars ... Counts[4] is 1 star
	Recommended int    // percentage of reviews rated 4 or 5, rounded
}

// Repo stores reviews.
type Repo struct {
	db     *db.DB
	stores *stores.Repo
	clock  clock.Clock
	// publicURL is the base of the links in owners' mail.
	publicURL string
}

// NewRepo returns a repository on d on the system's clock (the seed's and
// tests' reviews).
func NewRepo(d *db.DB, sr *stores.Repo) *Repo { return New(d, sr, clock.System(), "") }

// New returns the repository a serving replica uses: its clock tells the
// time of writes and limits, publicURL begins the links of owners' mail.
func New(d *db.DB, sr *stores.Repo, clk clock.Clock, publicURL string) *Repo {
	return &Repo{db: d, stores: sr, clock: clk, publicURL: strings.TrimRight(publicURL, "/")}
}

// AddAll inserts reviews and updates their stores' ratings, all in one
// transaction (seeding adds many at once). They are sample reviews: a
// member's review is written by Write.
func (r *Repo) AddAll(ctx context.Context, rs []*Review) error {
	return r.db.InTx(ctx, func(tx *db.Tx) error { return r.AddAllIn(ctx, tx, rs) })
}

// AddAllIn is AddAll inside the caller's transaction tx (the demo seeding
// writes a batch's stores and their reviews as one).
func (r *Repo) AddAllIn(ctx context.Context, tx *db.Tx, rs []*Review) error {
	for _, rv := range rs {
		if err := rv.Validate(); err != nil {
			return err
		}
	}
	return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
		touched := map[int64]bool{}
		var order []int64
		for _, rv := range rs {
			if err := insert(ctx, tx, rv); err != nil {
				return err
			}
			if !touched[rv.StoreID] {
				touched[rv.StoreID] = true
				order = append(order, rv.StoreID)
			}
		}
		for _, id := range order {
			var sum, count int64
			if err := tx.QueryRow(ctx, `SELECT COALESCE(SUM(rating), 0), COUNT(*) FROM reviews WHERE store_id = $1 AND status = 'Approved'`,
				id).Scan(&sum, &count); err != nil {
				return fmt.Errorf("rating of store %d: %w", id, err)
			}
			if err := w.SetRating(ctx, id, sum, count); err != nil {
				return err
			}
		}
		return nil
	})
}

// rate writes the rating of store id from its published reviews (the
// search index keeps it, so the list costs no join).
func rate(ctx context.Context, tx *db.Tx, w *stores.Writer, id int64) error {
	var sum, count int64
	if err := tx.QueryRow(ctx, `SELECT COALESCE(SUM(rating), 0), COUNT(*) FROM reviews WHERE store_id = $1 AND status = 'Approved'`,
		id).Scan(&sum, &count); err != nil {
		return fmt.Errorf("rating of store %d: %w", id, err)
	}
	return w.SetRating(ctx, id, sum, count)
}

func insert(ctx context.Context, tx *db.Tx, rv *Review) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	if rv.CreatedAt.IsZero() {
		rv.CreatedAt = now
	}
	if rv.UpdatedAt.IsZero() {
		rv.UpdatedAt = rv.CreatedAt
	}
	exists, err := stores.Exists(ctx, tx, rv.StoreID)
	if err != nil {
		return err
	}
	if !exists {
		return apperr.New(apperr.NotFound, "store %d not found", rv.StoreID)
	}
	rv.Sample = true
	err = tx.QueryRow(ctx, `INSERT INTO reviews (store_id, product_id, customer_id, status, rating, content, product,
		customer_first_name, customer_last_name, customer_has_account, created_at, updated_at, sample)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,TRUE) RETURNING id`,
		rv.StoreID, rv.ProductID, rv.CustomerID, rv.Status, rv.Rating, rv.Content, string(rv.Product),
		rv.CustomerFirstName, rv.CustomerLastName, rv.CustomerHasAccount, rv.CreatedAt, rv.UpdatedAt).Scan(&rv.ID)
	if err != nil {
		return fmt.Errorf("insert review of store %d: %w", rv.StoreID, err)
	}
	return nil
}

// The orders of a store's reviews.
const (
	Newest     = "newest"      // newest first (the default)
	Highest    = "rating_desc" // highest rating first, then newest
	Lowest     = "rating_asc"  // lowest rating first, then newest
	sortLegend = "newest, rating_desc or rating_asc"
)

var orders = map[string]string{
	Newest:  "created_at DESC, id DESC",
	Highest: "rating DESC, created_at DESC, id DESC",
	Lowest:  "rating ASC, created_at DESC, id DESC",
}

// ValidSort checks an order's name ("" is Newest).
func ValidSort(sort string) error {
	if _, ok := orders[sort]; !ok && sort != "" {
		return apperr.Invalidf("sort must be %s", sortLegend)
	}
	return nil
}

// reviewColumns are the columns scanReview reads.
const reviewColumns = `id, store_id, product_id, customer_id, status, rating, content, product,
	customer_first_name, customer_last_name, customer_has_account, created_at, updated_at,
	sample, COALESCE(member_id, 0), edited_at, held_reason, reply_text, reply_at, reply_edited_at`

func scanReview(sc db.Scanner) (*Review, error) {
	var rv Review
	var product string
	var edited, replyAt, replyEdited sql.NullTime
	if err := sc.Scan(&rv.ID, &rv.StoreID, &rv.ProductID, &rv.CustomerID, &rv.Status, &rv.Rating, &rv.Content,
		&product, &rv.CustomerFirstName, &rv.CustomerLastName, &rv.CustomerHasAccount, &rv.CreatedAt, &rv.UpdatedAt,
		&rv.Sample, &rv.MemberID, &edited, &rv.HeldReason, &rv.Reply.Text, &replyAt, &replyEdited); err != nil {
		return nil, err
	}
	rv.Product = json.RawMessage(product)
	rv.CreatedAt, rv.UpdatedAt = rv.CreatedAt.UTC(), rv.UpdatedAt.UTC()
	rv.EditedAt = edited.Time.UTC()
	if !edited.Valid {
		rv.EditedAt = time.Time{}
	}
	if rv.Reply.Text != "" {
		rv.Reply.At = replyAt.Time.UTC()
		if replyEdited.Valid {
			rv.Reply.EditedAt = replyEdited.Time.UTC()
		}
	}
	return &rv, nil
}

// List returns approved reviews of a store, newest first, and whether more follow.
func (r *Repo) List(ctx context.Context, storeID int64, offset, limit int) ([]Review, bool, error) {
	return r.ListSorted(ctx, storeID, Newest, offset, limit)
}

// ListMembers returns the latest published reviews of a store written by
// members (no sample), newest first, at most limit, and whether more follow.
func (r *Repo) ListMembers(ctx context.Context, storeID int64, limit int) ([]Review, bool, error) {
	rows, err := r.db.Query(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE store_id = $1 AND status = 'Approved'
		AND NOT sample ORDER BY created_at DESC, id DESC LIMIT $2`, storeID, limit+1)
	return page(rows, err, fmt.Sprintf("members' reviews of store %d", storeID), limit)
}

// ListSorted is List in the order sort (Newest, Highest or Lowest).
func (r *Repo) ListSorted(ctx context.Context, storeID int64, sort string, offset, limit int) ([]Review, bool, error) {
	order, ok := orders[sort]
	if !ok {
		order = orders[Newest]
	}
	rows, err := r.db.Query(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE store_id = $1 AND status = 'Approved'
		ORDER BY `+order+` LIMIT $2 OFFSET $3`, storeID, limit+1, offset)
	return page(rows, err, fmt.Sprintf("reviews of store %d", storeID), limit)
}

// page collects the reviews of a query asked for limit+1 rows: at most
// limit of them, and whether more follow.
func page(rows *sql.Rows, err error, what string, limit int) ([]Review, bool, error) {
	out, err := db.Collect(rows, err, what, scanReview)
	if err != nil {
		return nil, false, err
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

// Summarize computes the summary of a store's approved reviews.
func (r *Repo) Summarize(ctx context.Context, storeID int64) (Summary, error) {
	rows, err := r.db.Query(ctx, `SELECT rating, COUNT(*) FROM reviews
		WHERE store_id = $1 AND status = 'Approved' GROUP BY rating`, storeID)
	if err != nil {
		return Summary{}, fmt.Errorf("summarize reviews of store %d: %w", storeID, err)
	}
	defer rows.Close()
	var counts [5]int
	for rows.Next() {
		var rating, n int
		if err := rows.Scan(&rating, &n); err != nil {
			return Summary{}, fmt.Errorf("summarize reviews of store %d: %w", storeID, err)
		}
		if rating >= 1 && rating <= 5 {
			counts[5-rating] = n
		}
	}
	if err := rows.Err(); err != nil {
		return Summary{}, fmt.Errorf("summarize reviews of store %d: %w", storeID, err)
	}
	return Summarize(counts), nil
}

// Summarize derives the summary from counts per star (index 0 = 5 stars).
func Summarize(counts [5]int) Summary {
	s := Summary{Counts: counts}
	sum := 0
	for i, n := range counts {
		s.Count += n
		sum += n * (5 - i)
	}
	if s.Count == 0 {
		return s
	}
	s.Average = float64(int64(float64(sum)/float64(s.Count)*10+0.5)) / 10
	s.Recommended = int(float64(counts[0]+counts[1])*100/float64(s.Count) + 0.5)
	return s
}

// Period is the published reviews of a store written in a period of days
// and in the period before it (the owners' insights, docs/insights.md).
type Period struct {
	Current  int `json:"current"`
	Previous int `json:"previous"`
}

// CountPeriod counts store storeID's published reviews written from from
// (inclusive) to to (exclusive), and in as long a period before from.
func (r *Repo) CountPeriod(ctx context.Context, storeID int64, from, to time.Time) (Period, error) {
	var p Period
	before := from.Add(-to.Sub(from))
	err := r.db.QueryRow(ctx, `SELECT
		COUNT(CASE WHEN created_at >= $2 AND created_at < $3 THEN 1 END),
		COUNT(CASE WHEN created_at >= $4 AND created_at < $2 THEN 1 END)
		FROM reviews WHERE store_id = $1 AND status = 'Approved' AND created_at >= $4 AND created_at < $3`,
		storeID, from, to, before).Scan(&p.Current, &p.Previous)
	if err != nil {
		return Period{}, fmt.Errorf("reviews of store %d in a period: %w", storeID, err)
	}
	return p, nil
}

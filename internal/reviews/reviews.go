// Package reviews holds store reviews and their summary (average, counts
// per star, recommended share). Adding a review updates the store's rating
// and search document in the same transaction.
package reviews

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
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
}

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
		r.Status = "Approved"
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
}

// NewRepo returns a repository on d.
func NewRepo(d *db.DB, sr *stores.Repo) *Repo { return &Repo{db: d, stores: sr} }

// AddAll inserts reviews and updates their stores' ratings, all in one
// transaction (seeding and imports add many at once).
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
	err = tx.QueryRow(ctx, `INSERT INTO reviews (store_id, product_id, customer_id, status, rating, content, product,
		customer_first_name, customer_last_name, customer_has_account, created_at, updated_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING id`,
		rv.StoreID, rv.ProductID, rv.CustomerID, rv.Status, rv.Rating, rv.Content, string(rv.Product),
		rv.CustomerFirstName, rv.CustomerLastName, rv.CustomerHasAccount, rv.CreatedAt, rv.UpdatedAt).Scan(&rv.ID)
	if err != nil {
		return fmt.Errorf("insert review of store %d: %w", rv.StoreID, err)
	}
	return nil
}

// List returns approved reviews of a store, newest first, and whether more follow.
func (r *Repo) List(ctx context.Context, storeID int64, offset, limit int) ([]Review, bool, error) {
	rows, err := r.db.Query(ctx, `SELECT id, store_id, product_id, customer_id, status, rating, content, product,
		customer_first_name, customer_last_name, customer_has_account, created_at, updated_at
		FROM reviews WHERE store_id = $1 AND status = 'Approved'
		ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, storeID, limit+1, offset)
	if err != nil {
		return nil, false, fmt.Errorf("list reviews of store %d: %w", storeID, err)
	}
	defer rows.Close()
	var out []Review
	for rows.Next() {
		var rv Review
		var product string
		if err := rows.Scan(&rv.ID, &rv.StoreID, &rv.ProductID, &rv.CustomerID, &rv.Status, &rv.Rating, &rv.Content,
			&product, &rv.CustomerFirstName, &rv.CustomerLastName, &rv.CustomerHasAccount, &rv.CreatedAt, &rv.UpdatedAt); err != nil {
			return nil, false, fmt.Errorf("list reviews of store %d: %w", storeID, err)
		}
		rv.Product = json.RawMessage(product)
		out = append(out, rv)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("list reviews of store %d: %w", storeID, err)
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

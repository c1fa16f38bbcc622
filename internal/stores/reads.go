package stores

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/schedule"
)

// The stores table has one owner, this package (docs/architecture.md, "One
// owner per table"): other features read the rows they need through the
// functions below, written for the shapes they use, and never name the
// table in their own SQL. They take a db.Querier so that a feature can read
// inside its own transaction; a list of ids is one parameter (db.IDList).

// Summary is what other features show of a store beside their own rows: a
// moderator's queue line, a change request, a monthly mail, a licence match.
type Summary struct {
	ID         int64
	Name       string
	Address    string
	City       string
	PostalCode string
	Latitude   float64
	Longitude  float64
}

const summaryColumns = "id, name, address, city, postal_code, latitude, longitude"

func scanSummary(sc db.Scanner) (*Summary, error) {
	var s Summary
	if err := sc.Scan(&s.ID, &s.Name, &s.Address, &s.City, &s.PostalCode, &s.Latitude, &s.Longitude); err != nil {
		return nil, err
	}
	return &s, nil
}

// Summaries returns the stores among ids (in any status; an id that is no
// store is left out), ordered by name, then id, as the database orders
// names.
func Summaries(ctx context.Context, q db.Querier, ids []int64) ([]Summary, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, "SELECT "+summaryColumns+" FROM stores WHERE id IN ("+db.IDList(q, 1)+") ORDER BY name, id", db.IDs(ids))
	return db.Collect(rows, err, "store summaries", scanSummary)
}

// SummaryMap is Summaries by id.
func SummaryMap(ctx context.Context, q db.Querier, ids []int64) (map[int64]Summary, error) {
	ss, err := Summaries(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	m := make(map[int64]Summary, len(ss))
	for _, s := range ss {
		m[s.ID] = s
	}
	return m, nil
}

// SummariesNotClosed reads every store that is not permanently closed (in
// any status) and returns those keep accepts, in no set order. The rows
// are read one at a time, so a caller that keeps few of a million stores
// never holds them all.
func SummariesNotClosed(ctx context.Context, q db.Querier, keep func(*Summary) bool) ([]Summary, error) {
	rows, err := q.Query(ctx, "SELECT "+summaryColumns+" FROM stores WHERE NOT permanently_closed")
	if err != nil {
		return nil, fmt.Errorf("read stores: %w", err)
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		s, err := scanSummary(rows)
		if err != nil {
			return nil, fmt.Errorf("read stores: %w", err)
		}
		if keep(s) {
			out = append(out, *s)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stores: %w", err)
	}
	return out, nil
}

// Exists reports whether store id exists, in any status.
func Exists(ctx context.Context, q db.Querier, id int64) (bool, error) {
	var n int
	if err := q.QueryRow(ctx, "SELECT COUNT(*) FROM stores WHERE id = $1", id).Scan(&n); err != nil {
		return false, fmt.Errorf("check store %d: %w", id, err)
	}
	return n > 0, nil
}

// Image returns the image URL of store id ("" when it has none), or a
// NotFound error.
func Image(ctx context.Context, q db.Querier, id int64) (string, error) {
	var image string
	err := q.QueryRow(ctx, "SELECT COALESCE(image, '') FROM stores WHERE id = $1", id).Scan(&image)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.NotFound, "store %d not found", id)
	}
	if err != nil {
		return "", fmt.Errorf("store %d: %w", id, err)
	}
	return image, nil
}

// Lookalike returns the first published store (by id) whose name is name
// in any case and whose postal code is postalCode, or 0: probably the
// store a claim names again.
func Lookalike(ctx context.Context, q db.Querier, name, postalCode string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM stores WHERE status = 'published' AND lower(name) = $1 AND postal_code = $2
		ORDER BY id LIMIT 1`, strings.ToLower(name), postalCode).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("find a matching store: %w", err)
	}
	return id, nil
}

// PublishedDocs returns the published stores among ids as the API shows
// them at now (PublishedDocAt), by id; an id that is no published store is
// left out.
func PublishedDocs(ctx context.Context, q db.Querier, ids []int64, now time.Time) (map[int64][]byte, error) {
	out := make(map[int64][]byte, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT id, search_doc, schedule, time_zone, is_delivery_available, is_curbside_pickup_available,
		is_order_online_available FROM stores WHERE id IN (`+db.IDList(q, 1)+`) AND status = 'published'`, db.IDs(ids))
	if err != nil {
		return nil, fmt.Errorf("published stores: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var doc, sched, zone string
		var delivery, curbside, online bool
		if err := rows.Scan(&id, &doc, &sched, &zone, &delivery, &curbside, &online); err != nil {
			return nil, fmt.Errorf("published stores: %w", err)
		}
		out[id] = FinishRow(nil, doc, sched, zone, now, schedule.OfferedOf(delivery, curbside, online))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("published stores: %w", err)
	}
	return out, nil
}

// SetRating writes store id's rating (the sum of its approved reviews'
// ratings and their count, which the reviews feature keeps) and re-renders
// its document (touch).
func (w *Writer) SetRating(ctx context.Context, id, sum, count int64) error {
	if _, err := w.tx.Exec(ctx, "UPDATE stores SET rating_sum = $1, review_count = $2 WHERE id = $3", sum, count, id); err != nil {
		return fmt.Errorf("update rating of store %d: %w", id, err)
	}
	return w.touch(ctx, id)
}

// SetImage makes image the image of store id (a NotFound error when there
// is no such store) and re-renders its document (touch).
func (w *Writer) SetImage(ctx context.Context, id int64, image string) error {
	res, err := w.tx.Exec(ctx, "UPDATE stores SET image = $1, updated_at = $2 WHERE id = $3", image, time.Now().UTC(), id)
	if err != nil {
		return fmt.Errorf("set image of store %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.NotFound, "store %d not found", id)
	}
	return w.touch(ctx, id)
}

// SummariesNear returns the stores (in any status) within about km of
// (lat, lon), at most limit, nearest first; and those whose postal code
// is postalCode (when not empty) wherever they are: what a moderator
// picks from when mapping a place known by its address.
func SummariesNear(ctx context.Context, q db.Querier, lat, lon, km float64, postalCode string, limit int) ([]Summary, error) {
	dLat := km / 111.0
	dLon := km / (111.0 * math.Max(0.01, math.Cos(lat*math.Pi/180)))
	rows, err := q.Query(ctx, "SELECT "+summaryColumns+` FROM stores
		WHERE (latitude BETWEEN $1 AND $2 AND longitude BETWEEN $3 AND $4) OR (postal_code <> '' AND postal_code = $5)`,
		lat-dLat, lat+dLat, lon-dLon, lon+dLon, postalCode)
	out, err := db.Collect(rows, err, "stores near a place", scanSummary)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Summary) int {
		return cmp.Or(cmp.Compare(DistanceKm(lat, lon, a.Latitude, a.Longitude), DistanceKm(lat, lon, b.Latitude, b.Longitude)), cmp.Compare(a.ID, b.ID))
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

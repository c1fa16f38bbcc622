package stores

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sync"
	"time"

	"locator/internal/db"
)

// The change feed: what a replica's search index reads. Every store write
// bumps the search version (see Writer) and stamps the rows it touched with
// it, so "the stores changed after version v", read in (version, id) order,
// is all a replica needs to catch up from v.

// Entry is what a search index needs of one published store.
type Entry struct {
	ID          int64
	Latitude    float64
	Longitude   float64
	Delivery    bool
	OrderOnline bool
	Curbside    bool
	Licence     uint8 // LicenceVerified, LicenceDemoted
	TimeZone    string
	Schedule    string    // EncodeStoreSchedule form
	Doc         []byte    // complete JSON object (RenderDoc)
	UpdatedAt   time.Time // the store's last change: a store page's Last-Modified and sitemap lastmod
}

// Version returns the current search version.
func (r *Repo) Version(ctx context.Context) (int64, error) {
	var v int64
	if err := r.db.QueryRow(ctx, "SELECT version FROM search_version WHERE id = 1").Scan(&v); err != nil {
		return 0, fmt.Errorf("read search version: %w", err)
	}
	return v, nil
}

// Change is one store as the index sees it; Published false means remove
// (a store that is not published, or permanently closed: such a store stays
// published for its own page but is never searchable).
type Change struct {
	Entry
	Published bool
}

// ScanChanges calls fn for every store changed after version since (all
// published stores when since < 0), in batches of at most batch, and returns
// the highest version seen. Changes come in (version, id) order, published
// stores in id order; either way by keyset pages on an index, so a few
// changes among a million stores cost a few index entries, not a table
// scan. The batch and the documents in it are only valid during fn (the
// index copies what it keeps): reusing one buffer spares a start-up a
// million short-lived allocations of a kilobyte.
func (r *Repo) ScanChanges(ctx context.Context, since int64, batch int, fn func([]Change) error) (int64, error) {
	if since < 0 {
		q := `SELECT ` + changeColumns + ` FROM stores WHERE id > $1 AND status = 'published' AND NOT permanently_closed ORDER BY id LIMIT $2`
		return r.scanBatches(ctx, q, batch, since, func(lastID, _ int64) []any {
			return []any{lastID, batch}
		}, fn)
	}
	q := `SELECT ` + changeColumns + ` FROM stores WHERE (version, id) > ($1, $2) ORDER BY version, id LIMIT $3`
	started := false
	return r.scanBatches(ctx, q, batch, since, func(lastID, lastVersion int64) []any {
		if !started {
			started = true
			return []any{since, int64(math.MaxInt64), batch} // version > since
		}
		return []any{lastVersion, lastID, batch}
	}, fn)
}

const changeColumns = `id, latitude, longitude, is_delivery_available, is_order_online_available,
	is_curbside_pickup_available, time_zone, schedule, search_doc, status, version, permanently_closed, updated_at, licence_flags`

// ScanPublished calls fn for every published store, reading with workers
// connections at once, each over its own range of ids; fn gets one batch
// at a time, in no particular order across ranges. This is the start-up
// load: reading a million rows costs seconds of CPU in the driver, which
// the cores share.
// reserve, when not nil, is told first how many stores may come.
func (r *Repo) ScanPublished(ctx context.Context, workers, batch int, reserve func(n int), fn func([]Change) error) (int64, error) {
	var lo, hi sql.NullInt64
	if err := r.db.QueryRow(ctx, "SELECT MIN(id), MAX(id) FROM stores").Scan(&lo, &hi); err != nil {
		return 0, fmt.Errorf("read store ids: %w", err)
	}
	if !lo.Valid {
		return -1, nil
	}
	if reserve != nil {
		var n int
		if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stores WHERE status = 'published'").Scan(&n); err != nil {
			return 0, fmt.Errorf("count published stores: %w", err)
		}
		reserve(n)
	}
	// SQLite would walk the status index and look each row up in the table
	// (a B-tree search per row); the table itself is already in id order.
	from := "stores"
	if r.db.Dialect() == db.SQLite {
		from = "stores NOT INDEXED"
	}
	q := `SELECT ` + changeColumns + ` FROM ` + from + ` WHERE id > $1 AND id <= $3 AND status = 'published' AND NOT permanently_closed ORDER BY id LIMIT $2`
	var mu sync.Mutex
	maxV := int64(-1)
	errs := make(chan error, workers)
	span := (hi.Int64 - lo.Int64 + int64(workers)) / int64(workers)
	for w := 0; w < workers; w++ {
		first, last := lo.Int64-1+int64(w)*span, lo.Int64-1+int64(w+1)*span
		go func() {
			v, err := r.scanBatches(ctx, q, batch, -1, func(lastID, _ int64) []any {
				return []any{max(lastID, first), batch, last}
			}, func(cs []Change) error {
				mu.Lock()
				defer mu.Unlock()
				return fn(cs)
			})
			mu.Lock()
			maxV = max(maxV, v)
			mu.Unlock()
			errs <- err
		}()
	}
	var err error
	for w := 0; w < workers; w++ {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return maxV, err
}

// scanBatches runs q (keyset pages: args(lastID, lastVersion) gives the
// parameters of the page after the row read last) until a page comes back
// short.
func (r *Repo) scanBatches(ctx context.Context, q string, batch int, since int64, args func(lastID, lastVersion int64) []any, fn func([]Change) error) (int64, error) {
	maxV := since
	var lastID, lastV int64
	buf := make([]Change, 0, batch)
	ends := make([]int, 0, batch)
	var docs []byte                 // every document of the batch, back to back
	interned := map[string]string{} // zones and schedules: a few hundred distinct values
	intern := func(b []byte) string {
		if s, ok := interned[string(b)]; ok {
			return s
		}
		s := string(b)
		interned[s] = s
		return s
	}
	for {
		rows, err := r.db.Query(ctx, q, args(lastID, lastV)...)
		if err != nil {
			return maxV, fmt.Errorf("read store changes: %w", err)
		}
		buf, docs, ends = buf[:0], docs[:0], ends[:0]
		var zone, sched, status sql.RawBytes // reused row to row
		for rows.Next() {
			var c Change
			var v int64
			var doc string // the driver's own copy
			var gone bool
			if err := rows.Scan(&c.ID, &c.Latitude, &c.Longitude, &c.Delivery, &c.OrderOnline, &c.Curbside,
				&zone, &sched, &doc, &status, &v, &gone, &c.UpdatedAt, &c.Licence); err != nil {
				rows.Close()
				return maxV, fmt.Errorf("read store changes: %w", err)
			}
			c.TimeZone, c.Schedule = intern(zone), intern(sched)
			docs = append(docs, doc...)
			ends = append(ends, len(docs))
			c.Published = string(status) == string(Published) && !gone
			maxV, lastV = max(maxV, v), v
			buf = append(buf, c)
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return maxV, fmt.Errorf("read store changes: %w", err)
		}
		rows.Close()
		if len(buf) == 0 {
			return maxV, nil
		}
		// docs may have moved while growing: slice it once it is complete.
		start := 0
		for i := range buf {
			buf[i].Doc = docs[start:ends[i]:ends[i]]
			start = ends[i]
		}
		lastID = buf[len(buf)-1].ID
		if err := fn(buf); err != nil {
			return maxV, err
		}
		if len(buf) < batch {
			return maxV, nil
		}
	}
}

// ChangedSince counts the stores written after version v.
func (r *Repo) ChangedSince(ctx context.Context, v int64) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stores WHERE version > $1", v).Scan(&n); err != nil {
		return 0, fmt.Errorf("count changed stores: %w", err)
	}
	return n, nil
}

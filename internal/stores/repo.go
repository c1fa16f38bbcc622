package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// Repo stores stores. Every write renders the store's search document and
// bumps the search version in the same transaction, so each replica's index
// sees the change on its next poll and never a half-written store.
type Repo struct {
	db        *db.DB
	countries sync.Map // code -> id
}

// NewRepo returns a repository on d.
func NewRepo(d *db.DB) *Repo { return &Repo{db: d} }

// DB returns the database the repository writes to.
func (r *Repo) DB() *db.DB { return r.db }

// BumpVersion advances the search version and returns the new value. The
// row lock it takes lasts until commit, so versions commit in order and a
// replica reading version v has seen every change numbered <= v.
func BumpVersion(ctx context.Context, tx *db.Tx) (int64, error) {
	var v int64
	err := tx.QueryRow(ctx, "UPDATE search_version SET version = version + 1 WHERE id = 1 RETURNING version").Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("bump search version: %w", err)
	}
	return v, nil
}

// Version returns the current search version.
func (r *Repo) Version(ctx context.Context) (int64, error) {
	var v int64
	if err := r.db.QueryRow(ctx, "SELECT version FROM search_version WHERE id = 1").Scan(&v); err != nil {
		return 0, fmt.Errorf("read search version: %w", err)
	}
	return v, nil
}

// Create validates and inserts s, setting s.ID.
func (r *Repo) Create(ctx context.Context, s *Store) error {
	return r.SaveAll(ctx, []*Store{s})
}

// Update validates and rewrites s (found by s.ID) with its hours.
func (r *Repo) Update(ctx context.Context, s *Store) error {
	if s.ID == 0 {
		return apperr.Invalidf("store id is required")
	}
	return r.SaveAll(ctx, []*Store{s})
}

// SaveAll validates every store first, then writes them all in one
// transaction: all or nothing.
func (r *Repo) SaveAll(ctx context.Context, ss []*Store) error {
	for _, s := range ss {
		if err := s.Validate(); err != nil {
			return err
		}
	}
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		v, err := BumpVersion(ctx, tx)
		if err != nil {
			return err
		}
		for _, s := range ss {
			if err := r.SaveTx(ctx, tx, s, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		for _, s := range ss {
			r.countries.Store(s.CountryCode, s.CountryID)
		}
	}
	return err
}

// SaveTx writes a validated store inside tx with search version v: an
// insert when s.ID is 0, an update otherwise.
func (r *Repo) SaveTx(ctx context.Context, tx *db.Tx, s *Store, v int64) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	cid, err := r.countryID(ctx, tx, s.CountryCode, s.CountryName)
	if err != nil {
		return err
	}
	s.CountryID = cid
	if s.CreatedAt.IsZero() {
		s.CreatedAt = now
	}
	s.UpdatedAt = now
	sched := EncodeSchedule(s.WorkingHours)
	args := []any{s.StoreID, s.Name, s.Image, s.PhoneNumber, s.Hours, s.CountryID, s.State, s.City,
		s.PostalCode, s.Address, s.Latitude, s.Longitude, s.GeoPrecision, s.TimeZone,
		s.Delivery, s.OrderOnline, s.Curbside, string(s.Status), s.RatingSum, s.ReviewCount, sched, v, s.UpdatedAt}
	if s.ID == 0 {
		err = tx.QueryRow(ctx, `INSERT INTO stores (store_id, name, image, phone_number, hours, country_id, state, city,
			postal_code, address, latitude, longitude, geo_precision, time_zone,
			is_delivery_available, is_order_online_available, is_curbside_pickup_available, status,
			rating_sum, review_count, schedule, version, updated_at, created_at)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24)
			RETURNING id`, append(args, s.CreatedAt)...).Scan(&s.ID)
		if err != nil {
			return fmt.Errorf("insert store %q: %w", s.Name, err)
		}
	} else {
		res, err := tx.Exec(ctx, `UPDATE stores SET store_id=$1, name=$2, image=$3, phone_number=$4, hours=$5,
			country_id=$6, state=$7, city=$8, postal_code=$9, address=$10, latitude=$11, longitude=$12,
			geo_precision=$13, time_zone=$14, is_delivery_available=$15, is_order_online_available=$16,
			is_curbside_pickup_available=$17, status=$18, rating_sum=$19, review_count=$20, schedule=$21,
			version=$22, updated_at=$23 WHERE id=$24`, append(args, s.ID)...)
		if err != nil {
			return fmt.Errorf("update store %d: %w", s.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "store %d not found", s.ID)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM working_hours WHERE store_id = $1", s.ID); err != nil {
			return fmt.Errorf("clear hours of store %d: %w", s.ID, err)
		}
	}
	if err := insertHours(ctx, tx, s); err != nil {
		return err
	}
	docJSON, err := RenderDoc(s)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE stores SET search_doc = $1 WHERE id = $2", string(docJSON), s.ID); err != nil {
		return fmt.Errorf("store search document of %d: %w", s.ID, err)
	}
	return nil
}

func insertHours(ctx context.Context, tx *db.Tx, s *Store) error {
	if len(s.WorkingHours) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("INSERT INTO working_hours (store_id, position, week_day, start_time, end_time) VALUES ")
	args := make([]any, 0, 5*len(s.WorkingHours))
	for i, h := range s.WorkingHours {
		if i > 0 {
			b.WriteByte(',')
		}
		n := len(args)
		fmt.Fprintf(&b, "($%d,$%d,$%d,$%d,$%d)", n+1, n+2, n+3, n+4, n+5)
		args = append(args, s.ID, i, int(h.WeekDay), h.Start, h.End)
	}
	if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
		return fmt.Errorf("insert hours of store %d: %w", s.ID, err)
	}
	return nil
}

func (r *Repo) countryID(ctx context.Context, tx *db.Tx, code, name string) (int64, error) {
	if v, ok := r.countries.Load(code); ok {
		return v.(int64), nil
	}
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO countries (code, display_name) VALUES ($1, $2)
		ON CONFLICT (code) DO UPDATE SET code = excluded.code RETURNING id`, code, name).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("country %s: %w", code, err)
	}
	// Cached by SaveAll after commit only: a rolled-back insert must not
	// leave an id behind.
	return id, nil
}

// WarmCountries caches country ids from committed rows.
func (r *Repo) WarmCountries(ctx context.Context) error {
	rows, err := r.db.Query(ctx, "SELECT id, code FROM countries")
	if err != nil {
		return fmt.Errorf("read countries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var code string
		if err := rows.Scan(&id, &code); err != nil {
			return fmt.Errorf("read countries: %w", err)
		}
		r.countries.Store(code, id)
	}
	return rows.Err()
}

const storeColumns = `s.id, s.store_id, s.name, s.image, s.phone_number, s.hours, s.country_id, c.code, c.display_name,
	s.state, s.city, s.postal_code, s.address, s.latitude, s.longitude, s.geo_precision, s.time_zone,
	s.is_delivery_available, s.is_order_online_available, s.is_curbside_pickup_available, s.status,
	s.rating_sum, s.review_count, s.schedule, s.created_at, s.updated_at`

// Get returns one store with its hours, or a NotFound error.
func (r *Repo) Get(ctx context.Context, id int64) (*Store, error) {
	return getStore(ctx, r.db, id)
}

// GetTx is Get inside a transaction.
func (r *Repo) GetTx(ctx context.Context, tx *db.Tx, id int64) (*Store, error) {
	return getStore(ctx, tx, id)
}

func getStore(ctx context.Context, q db.Querier, id int64) (*Store, error) {
	var s Store
	var status, sched string
	err := q.QueryRow(ctx, "SELECT "+storeColumns+" FROM stores s LEFT JOIN countries c ON c.id = s.country_id WHERE s.id = $1", id).Scan(
		&s.ID, &s.StoreID, &s.Name, &s.Image, &s.PhoneNumber, &s.Hours, &s.CountryID, &s.CountryCode, &s.CountryName,
		&s.State, &s.City, &s.PostalCode, &s.Address, &s.Latitude, &s.Longitude, &s.GeoPrecision, &s.TimeZone,
		&s.Delivery, &s.OrderOnline, &s.Curbside, &status, &s.RatingSum, &s.ReviewCount, &sched, &s.CreatedAt, &s.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "store %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get store %d: %w", id, err)
	}
	s.Status = Status(status)
	rows, err := q.Query(ctx, "SELECT week_day, start_time, end_time FROM working_hours WHERE store_id = $1 ORDER BY position", id)
	if err != nil {
		return nil, fmt.Errorf("hours of store %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var h WorkingHour
		var day int
		if err := rows.Scan(&day, &h.Start, &h.End); err != nil {
			return nil, fmt.Errorf("hours of store %d: %w", id, err)
		}
		h.WeekDay = time.Weekday(day)
		s.WorkingHours = append(s.WorkingHours, h)
	}
	return &s, rows.Err()
}

// Rerender re-renders the search document of store id inside tx at version v
// (after its reviews changed, say).
func (r *Repo) Rerender(ctx context.Context, tx *db.Tx, id int64, v int64) error {
	s, err := getStore(ctx, tx, id)
	if err != nil {
		return err
	}
	docJSON, err := RenderDoc(s)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE stores SET search_doc = $1, version = $2 WHERE id = $3", string(docJSON), v, id); err != nil {
		return fmt.Errorf("re-render store %d: %w", id, err)
	}
	return nil
}

// SetStatus publishes, hides or holds a store.
func (r *Repo) SetStatus(ctx context.Context, id int64, st Status) error {
	if st != Published && st != Pending && st != Hidden {
		return apperr.Invalidf("status must be published, pending or hidden")
	}
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		v, err := BumpVersion(ctx, tx)
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, "UPDATE stores SET status = $1, version = $2, updated_at = $3 WHERE id = $4",
			string(st), v, time.Now().UTC(), id)
		if err != nil {
			return fmt.Errorf("set status of store %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "store %d not found", id)
		}
		return nil
	})
}

// Count returns how many stores exist in any status.
func (r *Repo) Count(ctx context.Context) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stores").Scan(&n); err != nil {
		return 0, fmt.Errorf("count stores: %w", err)
	}
	return n, nil
}

// Change is one store as the index sees it; Published false means remove.
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
		q := `SELECT ` + changeColumns + ` FROM stores WHERE id > $1 AND status = 'published' ORDER BY id LIMIT $2`
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
	is_curbside_pickup_available, time_zone, schedule, search_doc, status, version`

// scanPublished calls fn for every published store, reading with workers
// connections at once, each over its own range of ids; fn gets one batch
// at a time, in no particular order across ranges. This is the start-up
// load: reading a million rows costs seconds of CPU in the driver, which
// the cores share.
// reserve, when not nil, is told first how many stores may come.
func (r *Repo) scanPublished(ctx context.Context, workers, batch int, reserve func(n int), fn func([]Change) error) (int64, error) {
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
	q := `SELECT ` + changeColumns + ` FROM ` + from + ` WHERE id > $1 AND id <= $3 AND status = 'published' ORDER BY id LIMIT $2`
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
			if err := rows.Scan(&c.ID, &c.Latitude, &c.Longitude, &c.Delivery, &c.OrderOnline, &c.Curbside,
				&zone, &sched, &doc, &status, &v); err != nil {
				rows.Close()
				return maxV, fmt.Errorf("read store changes: %w", err)
			}
			c.TimeZone, c.Schedule = intern(zone), intern(sched)
			docs = append(docs, doc...)
			ends = append(ends, len(docs))
			c.Published = string(status) == string(Published)
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

// PublishedDoc returns the search document of a published store.
func (r *Repo) PublishedDoc(ctx context.Context, id int64) ([]byte, error) {
	var doc string
	err := r.db.QueryRow(ctx, "SELECT search_doc FROM stores WHERE id = $1 AND status = 'published'", id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "store %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store %d: %w", id, err)
	}
	return []byte(doc), nil
}

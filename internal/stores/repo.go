package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/schedule"
)

// Repo stores stores. Every write goes through Write (see write.go): it
// renders the store's search document and bumps the search version in the
// same transaction, so each replica's index sees the change on its next
// poll and never a half-written store.
type Repo struct {
	db        *db.DB
	countries sync.Map // code -> id
}

// NewRepo returns a repository on d.
func NewRepo(d *db.DB) *Repo { return &Repo{db: d} }

// DB returns the database the repository writes to.
func (r *Repo) DB() *db.DB { return r.db }

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
		return r.Write(ctx, tx, func(w *Writer) error {
			for _, s := range ss {
				if err := w.Save(ctx, s); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err == nil {
		for _, s := range ss {
			r.countries.Store(s.CountryCode, s.CountryID)
		}
	}
	return err
}

// save writes a validated store inside tx with search version v: an
// insert when s.ID is 0, an update otherwise.
func (r *Repo) save(ctx context.Context, tx *db.Tx, s *Store, v int64) error {
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
	s.pruneSpecial(now)
	sched := EncodeStoreSchedule(s)
	from, until, note := closureColumns(s.TemporarilyClosed)
	args := []any{s.StoreID, s.Name, s.Image, s.PhoneNumber, s.Hours, s.CountryID, s.State, s.City,
		s.PostalCode, s.Address, s.Latitude, s.Longitude, s.GeoPrecision, s.TimeZone,
		s.Delivery, s.OrderOnline, s.Curbside, string(s.Status), s.RatingSum, s.ReviewCount, sched, v, s.UpdatedAt,
		from, until, note, s.PermanentlyClosed, s.Website, s.VerifiedAt, servicesColumn(s), s.AdultOnly}
	if s.ID == 0 {
		err = tx.QueryRow(ctx, `INSERT INTO stores (store_id, name, image, phone_number, hours, country_id, state, city,
			postal_code, address, latitude, longitude, geo_precision, time_zone,
			is_delivery_available, is_order_online_available, is_curbside_pickup_available, status,
			rating_sum, review_count, schedule, version, updated_at,
			temp_closed_from, temp_closed_until, temp_closed_note, permanently_closed, website, last_verified_at, services, adult_only, created_at)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32)
			RETURNING id`, append(args, s.CreatedAt)...).Scan(&s.ID)
		if err != nil {
			return storeIDTaken(s, fmt.Errorf("insert store %q: %w", s.Name, err))
		}
	} else {
		res, err := tx.Exec(ctx, `UPDATE stores SET store_id=$1, name=$2, image=$3, phone_number=$4, hours=$5,
			country_id=$6, state=$7, city=$8, postal_code=$9, address=$10, latitude=$11, longitude=$12,
			geo_precision=$13, time_zone=$14, is_delivery_available=$15, is_order_online_available=$16,
			is_curbside_pickup_available=$17, status=$18, rating_sum=$19, review_count=$20, schedule=$21,
			version=$22, updated_at=$23, temp_closed_from=$24, temp_closed_until=$25, temp_closed_note=$26,
			permanently_closed=$27, website=$28, last_verified_at=$29, services=$30, adult_only=$31 WHERE id=$32`, append(args, s.ID)...)
		if err != nil {
			return storeIDTaken(s, fmt.Errorf("update store %d: %w", s.ID, err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "store %d not found", s.ID)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM working_hours WHERE store_id = $1", s.ID); err != nil {
			return fmt.Errorf("clear hours of store %d: %w", s.ID, err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM special_hours WHERE store_id = $1", s.ID); err != nil {
			return fmt.Errorf("clear special hours of store %d: %w", s.ID, err)
		}
	}
	if err := insertHours(ctx, tx, s); err != nil {
		return err
	}
	if err := insertSpecial(ctx, tx, s); err != nil {
		return err
	}
	docJSON, err := RenderDoc(s)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE stores SET search_doc = $1, doc_format = $2 WHERE id = $3", string(docJSON), DocFormat, s.ID); err != nil {
		return fmt.Errorf("store search document of %d: %w", s.ID, err)
	}
	return nil
}

// storeIDTaken turns the unique index on store_id refusing s into a
// conflict the caller can show; the database error stays in the chain.
func storeIDTaken(s *Store, err error) error {
	if !db.UniqueViolation(err) {
		return err
	}
	return fmt.Errorf("%w: %w", apperr.New(apperr.Conflict, "store_id %q is already used by another store", s.StoreID), err)
}

// insertRows writes the rows of one store into table in one statement.
func insertRows(ctx context.Context, tx *db.Tx, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("INSERT INTO " + table + " (" + joinColumns(columns) + ") VALUES ")
	args := make([]any, 0, len(rows)*len(columns))
	for i, row := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + placeholders(len(columns), len(args)+1) + ")")
		args = append(args, row...)
	}
	_, err := tx.Exec(ctx, b.String(), args...)
	return err
}

func insertHours(ctx context.Context, tx *db.Tx, s *Store) error {
	if err := insertRows(ctx, tx, "working_hours", hoursColumns, hourRows(s)); err != nil {
		return fmt.Errorf("insert hours of store %d: %w", s.ID, err)
	}
	return nil
}

func insertSpecial(ctx context.Context, tx *db.Tx, s *Store) error {
	if err := insertRows(ctx, tx, "special_hours", specialColumns, specialRows(s)); err != nil {
		return fmt.Errorf("insert special hours of store %d: %w", s.ID, err)
	}
	return nil
}

// closureColumns is a temporary closure as its three columns (empty
// strings: none).
func closureColumns(c *schedule.Closure) (from, until, note string) {
	if c == nil {
		return "", "", ""
	}
	return c.From, c.Until, c.Note
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
	s.rating_sum, s.review_count, s.schedule, s.created_at, s.updated_at,
	s.temp_closed_from, s.temp_closed_until, s.temp_closed_note, s.permanently_closed, s.website, s.last_verified_at, s.licence_doc, s.services, s.adult_only`

// Get returns one store with its hours, or a NotFound error.
func (r *Repo) Get(ctx context.Context, id int64) (*Store, error) {
	return getStore(ctx, r.db, id)
}

// GetTx is Get inside a transaction.
func (r *Repo) GetTx(ctx context.Context, tx *db.Tx, id int64) (*Store, error) {
	return getStore(ctx, tx, id)
}

func getStore(ctx context.Context, q db.Querier, id int64) (*Store, error) {
	s, err := scanStore(q.QueryRow(ctx, "SELECT "+storeColumns+" FROM stores s LEFT JOIN countries c ON c.id = s.country_id WHERE s.id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "store %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get store %d: %w", id, err)
	}
	if err := loadHours(ctx, q, map[int64]*Store{id: s}, "($1)", []any{id}); err != nil {
		return nil, fmt.Errorf("store %d: %w", id, err)
	}
	return s, nil
}

// scanStore reads a row of storeColumns (without the hours).
func scanStore(sc db.Scanner) (*Store, error) {
	var s Store
	var status, sched, from, until, note, licence, services string
	err := sc.Scan(
		&s.ID, &s.StoreID, &s.Name, &s.Image, &s.PhoneNumber, &s.Hours, &s.CountryID, &s.CountryCode, &s.CountryName,
		&s.State, &s.City, &s.PostalCode, &s.Address, &s.Latitude, &s.Longitude, &s.GeoPrecision, &s.TimeZone,
		&s.Delivery, &s.OrderOnline, &s.Curbside, &status, &s.RatingSum, &s.ReviewCount, &sched, &s.CreatedAt, &s.UpdatedAt,
		&from, &until, &note, &s.PermanentlyClosed, &s.Website, &s.VerifiedAt, &licence, &services, &s.AdultOnly)
	if err != nil {
		return nil, err
	}
	s.Status = Status(status)
	if s.LicenceRecord, err = licenceRecord(licence); err != nil {
		return nil, fmt.Errorf("store %d: %w", s.ID, err)
	}
	parseServicesColumn(&s, services)
	if from != "" {
		s.TemporarilyClosed = &schedule.Closure{From: from, Until: until, Note: note}
	}
	return &s, nil
}

// loadHours adds the weekly and special hours of the stores of byID (by
// id) in two queries, whatever their number: in is the ids' "IN" list of
// placeholders and args their values.
func loadHours(ctx context.Context, q db.Querier, byID map[int64]*Store, in string, args []any) error {
	type row[T any] struct {
		store int64
		h     T
	}
	rows, err := q.Query(ctx, "SELECT store_id, day, closed, start_time, end_time, note FROM special_hours WHERE store_id IN "+in+" ORDER BY store_id, position", args...)
	special, err := db.Collect(rows, err, "special hours", func(sc db.Scanner) (*row[schedule.SpecialHour], error) {
		var r row[schedule.SpecialHour]
		return &r, sc.Scan(&r.store, &r.h.Date, &r.h.Closed, &r.h.Start, &r.h.End, &r.h.Note)
	})
	if err != nil {
		return err
	}
	for _, r := range special {
		byID[r.store].SpecialHours = append(byID[r.store].SpecialHours, r.h)
	}
	rows, err = q.Query(ctx, "SELECT store_id, week_day, start_time, end_time FROM working_hours WHERE store_id IN "+in+" ORDER BY store_id, position", args...)
	week, err := db.Collect(rows, err, "hours", func(sc db.Scanner) (*row[schedule.WorkingHour], error) {
		var r row[schedule.WorkingHour]
		var day int
		err := sc.Scan(&r.store, &day, &r.h.Start, &r.h.End)
		r.h.WeekDay = time.Weekday(day)
		return &r, err
	})
	if err != nil {
		return err
	}
	for _, r := range week {
		byID[r.store].WorkingHours = append(byID[r.store].WorkingHours, r.h)
	}
	return nil
}

// SetStatus publishes, hides or holds a store.
func (r *Repo) SetStatus(ctx context.Context, id int64, st Status) error {
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		return r.Write(ctx, tx, func(w *Writer) error { return w.SetStatus(ctx, id, st) })
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

// PublishedDoc returns a published store as the API shows it now: its
// search document with the live fields (FinishRow). A permanently closed
// store is still published here (it says so), though search never shows it.
func (r *Repo) PublishedDoc(ctx context.Context, id int64) ([]byte, error) {
	return r.PublishedDocAt(ctx, id, time.Now())
}

// PublishedDocAt is PublishedDoc at instant now.
func (r *Repo) PublishedDocAt(ctx context.Context, id int64, now time.Time) ([]byte, error) {
	var doc, sched, zone string
	var delivery, curbside, online bool
	err := r.db.QueryRow(ctx, `SELECT search_doc, schedule, time_zone, is_delivery_available, is_curbside_pickup_available,
		is_order_online_available FROM stores WHERE id = $1 AND status = 'published'`, id).Scan(&doc, &sched, &zone, &delivery, &curbside, &online)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "store %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store %d: %w", id, err)
	}
	return FinishRow(nil, doc, sched, zone, now, schedule.OfferedOf(delivery, curbside, online)), nil
}

var zoneCache sync.Map // name -> *time.Location

// Zone loads a time zone by name, cached (time.LoadLocation reads the zone
// database each time); an unknown name (validated on write, but tzdata may
// change) gives UTC.
func Zone(name string) *time.Location {
	if l, ok := zoneCache.Load(name); ok {
		return l.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC
	}
	zoneCache.Store(name, loc)
	return loc
}

// FinishRow appends the API's store object at now from a row's search_doc,
// schedule and time_zone columns and the services it offers (see schedule.FinishDoc).
func FinishRow(dst []byte, doc, sched, zone string, now time.Time, offered schedule.Offered) []byte {
	return schedule.FinishDoc(dst, []byte(doc), schedule.ParseSchedule(sched), now, Zone(zone), offered)
}

// IDByStoreID returns the id of the store with the marketplace store id
// storeID, or 0 when there is none. The query excludes the empty store_id,
// as the unique index on store_id does, so that index serves it.
func (r *Repo) IDByStoreID(ctx context.Context, storeID string) (int64, error) {
	var id int64
	err := r.db.QueryRow(ctx, "SELECT id FROM stores WHERE store_id = $1 AND store_id <> '' ORDER BY id LIMIT 1", storeID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("find store %q: %w", storeID, err)
	}
	return id, nil
}

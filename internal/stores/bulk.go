package stores

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"locator/internal/apperr"
	"locator/internal/db"
)

// bulkColumns are the columns save writes for a new store, in the order
// prepareBulk gives them, plus id, search_doc and doc_format (save writes the document in
// a second statement once the id is known; here the id is known first).
var bulkColumns = []string{"id", "store_id", "name", "image", "phone_number", "hours", "country_id", "state", "city",
	"postal_code", "address", "latitude", "longitude", "geo_precision", "time_zone",
	"is_delivery_available", "is_order_online_available", "is_curbside_pickup_available", "status",
	"rating_sum", "review_count", "schedule", "version", "updated_at", "created_at", "search_doc",
	"temp_closed_from", "temp_closed_until", "temp_closed_note", "permanently_closed", "services", "adult_only", "doc_format"}

var hoursColumns = []string{"store_id", "position", "week_day", "start_time", "end_time"}

var specialColumns = []string{"store_id", "position", "day", "closed", "start_time", "end_time", "note"}

// hourRows are the working_hours rows of a store with its id.
func hourRows(s *Store) [][]any {
	rows := make([][]any, 0, len(s.WorkingHours))
	for p, h := range s.WorkingHours {
		rows = append(rows, []any{s.ID, p, int(h.WeekDay), h.Start, h.End})
	}
	return rows
}

// specialRows are the special_hours rows of a store with its id.
func specialRows(s *Store) [][]any {
	rows := make([][]any, 0, len(s.SpecialHours))
	for p, h := range s.SpecialHours {
		rows = append(rows, []any{s.ID, p, h.Date, h.Closed, h.Start, h.End, h.Note})
	}
	return rows
}

// BulkInsert validates and inserts many new stores (ID 0) in one
// transaction with one search version: the same rows SaveAll writes
// (stores with their search document and schedule, working_hours), at a
// fraction of the cost, for imports of hundreds of thousands of stores and
// the benchmark. It sets each store's ID, consecutive in slice order. SQLite
// uses prepared statements; PostgreSQL uses COPY. All or nothing.
func (r *Repo) BulkInsert(ctx context.Context, ss []*Store) error {
	for _, s := range ss {
		if s.ID != 0 {
			return apperr.Invalidf("bulk insert takes new stores only (store %d has an id)", s.ID)
		}
		if err := s.Validate(); err != nil {
			return err
		}
	}
	if len(ss) == 0 {
		return nil
	}
	var countries map[string]int64
	var err error
	if r.db.Dialect() == db.Postgres {
		countries, err = r.bulkPostgres(ctx, ss)
	} else {
		countries, err = r.bulkSQLite(ctx, ss)
	}
	if err != nil {
		for _, s := range ss {
			s.ID = 0
		}
		return err
	}
	for code, id := range countries {
		r.countries.Store(code, id)
	}
	return nil
}

// prepare gives each store its id, country, timestamps and document, and
// returns its row values in bulkColumns order.
func prepareBulk(s *Store, id, countryID, v int64, now time.Time) ([]any, error) {
	s.ID, s.CountryID = id, countryID
	if s.CreatedAt.IsZero() {
		s.CreatedAt = now
	}
	s.UpdatedAt = now
	s.pruneSpecial(now)
	doc, err := RenderDoc(s)
	if err != nil {
		return nil, err
	}
	from, until, note := closureColumns(s.TemporarilyClosed)
	return []any{s.ID, s.StoreID, s.Name, s.Image, s.PhoneNumber, s.Hours, s.CountryID, s.State, s.City,
		s.PostalCode, s.Address, s.Latitude, s.Longitude, s.GeoPrecision, s.TimeZone,
		s.Delivery, s.OrderOnline, s.Curbside, string(s.Status), s.RatingSum, s.ReviewCount,
		EncodeStoreSchedule(s), v, s.UpdatedAt, s.CreatedAt, string(doc), from, until, note, s.PermanentlyClosed, servicesColumn(s), s.AdultOnly, DocFormat}, nil
}

func placeholders(n, from int) string {
	b := make([]byte, 0, n*4)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "$%d", from+i)
	}
	return string(b)
}

func joinColumns(cs []string) string {
	out := ""
	for i, c := range cs {
		if i > 0 {
			out += ", "
		}
		out += c
	}
	return out
}

func (r *Repo) bulkSQLite(ctx context.Context, ss []*Store) (map[string]int64, error) {
	countries := map[string]int64{}
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		v, err := bumpVersion(ctx, tx)
		if err != nil {
			return err
		}
		var maxID int64
		if err := tx.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM stores").Scan(&maxID); err != nil {
			return fmt.Errorf("bulk insert: next store id: %w", err)
		}
		ins, err := tx.Prepare(ctx, "INSERT INTO stores ("+joinColumns(bulkColumns)+") VALUES ("+placeholders(len(bulkColumns), 1)+")")
		if err != nil {
			return fmt.Errorf("bulk insert: prepare: %w", err)
		}
		defer ins.Close()
		// Seven hour rows a store is the common case: one statement.
		week := "INSERT INTO working_hours (" + joinColumns(hoursColumns) + ") VALUES "
		for d := 0; d < 7; d++ {
			if d > 0 {
				week += ","
			}
			week += "(" + placeholders(5, 5*d+1) + ")"
		}
		ins7, err := tx.Prepare(ctx, week)
		if err != nil {
			return fmt.Errorf("bulk insert: prepare: %w", err)
		}
		defer ins7.Close()
		ins1, err := tx.Prepare(ctx, "INSERT INTO working_hours ("+joinColumns(hoursColumns)+") VALUES ("+placeholders(5, 1)+")")
		if err != nil {
			return fmt.Errorf("bulk insert: prepare: %w", err)
		}
		defer ins1.Close()
		insSpecial, err := tx.Prepare(ctx, "INSERT INTO special_hours ("+joinColumns(specialColumns)+") VALUES ("+placeholders(len(specialColumns), 1)+")")
		if err != nil {
			return fmt.Errorf("bulk insert: prepare: %w", err)
		}
		defer insSpecial.Close()
		now := time.Now().UTC().Truncate(time.Microsecond)
		hargs := make([]any, 0, 35)
		for i, s := range ss {
			cid, ok := countries[s.CountryCode]
			if !ok {
				if cid, err = r.countryID(ctx, tx, s.CountryCode, s.CountryName); err != nil {
					return err
				}
				countries[s.CountryCode] = cid
			}
			row, err := prepareBulk(s, maxID+1+int64(i), cid, v, now)
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, row...); err != nil {
				return storeIDTaken(s, fmt.Errorf("insert store %q: %w", s.Name, err))
			}
			hargs = hargs[:0]
			for p, h := range s.WorkingHours {
				hargs = append(hargs, s.ID, p, int(h.WeekDay), h.Start, h.End)
			}
			if len(s.WorkingHours) == 7 {
				_, err = ins7.ExecContext(ctx, hargs...)
			} else {
				for p := 0; p < len(hargs) && err == nil; p += 5 {
					_, err = ins1.ExecContext(ctx, hargs[p:p+5]...)
				}
			}
			if err != nil {
				return fmt.Errorf("insert hours of store %d: %w", s.ID, err)
			}
			for _, row := range specialRows(s) {
				if _, err := insSpecial.ExecContext(ctx, row...); err != nil {
					return fmt.Errorf("insert special hours of store %d: %w", s.ID, err)
				}
			}
		}
		return nil
	})
	return countries, err
}

func (r *Repo) bulkPostgres(ctx context.Context, ss []*Store) (map[string]int64, error) {
	conn, err := r.db.SQL().Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("bulk insert: connection: %w", err)
	}
	defer conn.Close()
	countries := map[string]int64{}
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("bulk insert: not a pgx connection")
		}
		tx, err := sc.Conn().Begin(ctx)
		if err != nil {
			return fmt.Errorf("bulk insert: begin: %w", err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		// A million-row copy may take longer than the default statement limit.
		if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
			return fmt.Errorf("bulk insert: lift statement timeout: %w", err)
		}
		// Writers wait while the ids are taken and the rows copied, so the
		// id range stays ours; readers (search sync) do not wait.
		if _, err := tx.Exec(ctx, "LOCK TABLE stores IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return fmt.Errorf("bulk insert: lock stores: %w", err)
		}
		var v int64
		if err := tx.QueryRow(ctx, "UPDATE search_version SET version = version + 1 WHERE id = 1 RETURNING version").Scan(&v); err != nil {
			return fmt.Errorf("bump search version: %w", err)
		}
		var first int64
		if err := tx.QueryRow(ctx, `SELECT GREATEST(nextval(pg_get_serial_sequence('stores', 'id')),
			(SELECT COALESCE(MAX(id), 0) + 1 FROM stores))`).Scan(&first); err != nil {
			return fmt.Errorf("bulk insert: next store id: %w", err)
		}
		now := time.Now().UTC().Truncate(time.Microsecond)
		rows := make([][]any, len(ss))
		var hours, special [][]any
		for i, s := range ss {
			cid, ok := countries[s.CountryCode]
			if !ok {
				err := tx.QueryRow(ctx, `INSERT INTO countries (code, display_name) VALUES ($1, $2)
					ON CONFLICT (code) DO UPDATE SET code = excluded.code RETURNING id`, s.CountryCode, s.CountryName).Scan(&cid)
				if err != nil {
					return fmt.Errorf("country %s: %w", s.CountryCode, err)
				}
				countries[s.CountryCode] = cid
			}
			if rows[i], err = prepareBulk(s, first+int64(i), cid, v, now); err != nil {
				return err
			}
			hours = append(hours, hourRows(s)...)
			special = append(special, specialRows(s)...)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"stores"}, bulkColumns, pgx.CopyFromRows(rows)); err != nil {
			if db.UniqueViolation(err) {
				return fmt.Errorf("%w: %w", apperr.New(apperr.Conflict, "a store_id of these stores is already used by another store"), err)
			}
			return fmt.Errorf("bulk insert: copy stores: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"working_hours"}, hoursColumns, pgx.CopyFromRows(hours)); err != nil {
			return fmt.Errorf("bulk insert: copy hours: %w", err)
		}
		if len(special) > 0 {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"special_hours"}, specialColumns, pgx.CopyFromRows(special)); err != nil {
				return fmt.Errorf("bulk insert: copy special hours: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, "SELECT setval(pg_get_serial_sequence('stores', 'id'), $1)", first+int64(len(ss))-1); err != nil {
			return fmt.Errorf("bulk insert: advance store ids: %w", err)
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("bulk insert: commit: %w", err)
		}
		return nil
	})
	return countries, err
}

package insights

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"locator/internal/clock"
	"locator/internal/db"
)

// Retention is how long counts are kept: 25 months, so a month can be
// compared with the same month a year before, and then some.
const Retention = 25

// Service counts (Counter), writes the sums (Flush) and reads the reports.
type Service struct {
	*Counter
	DB  *db.DB
	Log *slog.Logger
	// PublicURL starts the links of the monthly mail.
	PublicURL string
	// SearchEvery is how often the search side (searches by cell and
	// impressions) is written, a multiple of the flush interval in effect
	// (LOCATOR_INSIGHTS_SEARCH_FLUSH); 0: at every flush. Its rows grow
	// with the stores and places searched, not with the shoppers' actions,
	// so writing them every few seconds cost a saturated replica more
	// than the 3% counting may cost (docs/performance-history.md, "Insights").
	SearchEvery time.Duration

	flushMu    sync.Mutex // one flush at a time
	prunedDay  day
	searchedAt time.Time // the last flush that wrote the search side
}

// Options are a Service's settings.
type Options struct {
	// PublicURL starts the links of the monthly mail.
	PublicURL string
	// SearchEvery: see Service.SearchEvery.
	SearchEvery time.Duration
	// Clock tells the day counts and salts belong to; nil: the system's.
	Clock clock.Clock
}

// New returns a service writing to d.
func New(d *db.DB, o Options, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{Counter: newCounter(o.Clock), DB: d, Log: log, PublicURL: o.PublicURL, SearchEvery: o.SearchEvery}
}

// rowsPerStatement keeps an upsert's placeholders under both engines'
// limits (SQLite 32766, PostgreSQL 65535): a flush is one statement per
// table unless a table has more rows than this.
const rowsPerStatement = 2000

// Flush writes every sum counted since the last flush (the search side
// only every SearchEvery), in one transaction
// (one upsert per table), so replicas' counts add up; on failure the sums
// stay in memory for the next flush. Once a day it also deletes the rows
// past retention and writes the month's owner summaries (monthly.go).
func (s *Service) Flush(ctx context.Context) error { return s.flush(ctx, false) }

// flush writes the counts; the search side too when all, or when
// SearchEvery has passed.
func (s *Service) flush(ctx context.Context, all bool) error {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	searches := all || s.SearchEvery <= 0 || time.Since(s.searchedAt) >= s.SearchEvery
	if searches {
		s.searchedAt = time.Now()
	}
	if !s.saltsLoaded() {
		if err := s.LoadSalts(ctx); err != nil {
			return err
		}
	}
	b := s.take(searches)
	if b.full {
		s.Log.Warn("insights: too many visitors today for the in-memory set; new ones not counted on this replica", "max", MaxSeen*shards)
	}
	partners := s.takePartners()
	if !b.empty() || !partners.empty() {
		if err := s.DB.InTx(ctx, func(tx *db.Tx) error {
			sums, err := settle(ctx, tx, b)
			if err != nil {
				return err
			}
			if err := write(ctx, tx, sums); err != nil {
				return err
			}
			psums, err := settlePartners(ctx, tx, partners)
			if err != nil {
				return err
			}
			return writePartners(ctx, tx, psums)
		}); err != nil {
			s.putBack(b)
			s.putBackPartners(partners)
			return fmt.Errorf("insights: flush: %w", err)
		}
	}
	now := s.now()
	if today := dayOf(now); today != s.prunedDay {
		if err := s.daily(ctx, now); err != nil {
			return err
		}
		s.prunedDay = today
	}
	return nil
}

// daily deletes the counts past retention and writes the monthly mail.
func (s *Service) daily(ctx context.Context, now time.Time) error {
	if _, err := Prune(ctx, s.DB, now); err != nil {
		return fmt.Errorf("insights: retention: %w", err)
	}
	if err := pruneSeen(ctx, s.DB, now); err != nil {
		return err
	}
	if err := s.MonthlyMail(ctx, now); err != nil {
		return fmt.Errorf("insights: monthly mail: %w", err)
	}
	return nil
}

// Prune deletes the rows older than Retention months before now.
func Prune(ctx context.Context, q db.Querier, now time.Time) (int64, error) {
	cutoff := now.UTC().AddDate(0, -Retention, 0).Format(time.DateOnly)
	var n int64
	for _, table := range []string{"insight_store_days", "insight_search_days", "insight_days", "insight_partner_days"} {
		res, err := q.Exec(ctx, "DELETE FROM "+table+" WHERE day < $1", cutoff)
		if err != nil {
			return n, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, nil
}

// Stop is the last flush of a stopping replica (SIGTERM), bounded by
// timeout, so its counts since the previous flush are not lost.
func (s *Service) Stop(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return s.flush(ctx, true)
}

// write upserts a batch: one statement per table (per rowsPerStatement
// rows). Rows go in the order of their key: two replicas flushing the same
// rows at once then lock them in the same order, where map order made
// PostgreSQL find a deadlock and refuse one flush.
func write(ctx context.Context, tx *db.Tx, b *batch) error {
	var rows [][]any
	for _, k := range sortedKeys(b.stores, func(a, b storeKey) int {
		return cmp.Or(cmp.Compare(a.store, b.store), cmp.Compare(a.day, b.day), cmp.Compare(a.kind.String(), b.kind.String()))
	}) {
		v := b.stores[k]
		rows = append(rows, []any{k.day.String(), k.store, k.kind.String(), v.events, v.uniques})
	}
	if err := upsert(ctx, tx, "insight_store_days (day, store_id, kind, events, uniques)", "store_id, day, kind",
		"events = insight_store_days.events + excluded.events, uniques = insight_store_days.uniques + excluded.uniques", rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, k := range sortedKeys(b.cells, func(a, b cellKey) int {
		return cmp.Or(cmp.Compare(a.day, b.day), cmp.Compare(a.lat, b.lat), cmp.Compare(a.lon, b.lon), cmp.Compare(a.filters, b.filters))
	}) {
		v := b.cells[k]
		rows = append(rows, []any{k.day.String(), int64(k.lat), int64(k.lon), int64(k.filters), v.searches, v.zero})
	}
	if err := upsert(ctx, tx, "insight_search_days (day, cell_lat, cell_lon, filters, searches, zero_results)", "day, cell_lat, cell_lon, filters",
		"searches = insight_search_days.searches + excluded.searches, zero_results = insight_search_days.zero_results + excluded.zero_results", rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, k := range sortedKeys(b.days, func(a, b day) int { return cmp.Compare(a, b) }) {
		rows = append(rows, []any{k.String(), b.days[k]})
	}
	return upsert(ctx, tx, "insight_days (day, visitors)", "day", "visitors = insight_days.visitors + excluded.visitors", rows)
}

// sortedKeys is m's keys in the order of compare.
func sortedKeys[K comparable, V any](m map[K]V, compare func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	return keys
}

// upsert inserts rows into target, adding to the rows that exist. The
// values are written into the statement as literals, not bound: they are
// only numbers, dates this package formats and kind names of its own
// (no text from a request), and SQLite's driver looks up each bound
// parameter by scanning all of them, which made a 2,000-row statement cost
// ~60 us a row.
func upsert(ctx context.Context, tx *db.Tx, target, conflict, set string, rows [][]any) error {
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), rowsPerStatement)]
		rows = rows[len(chunk):]
		q := make([]byte, 0, 64+len(chunk)*48)
		q = append(q, "INSERT INTO "+target+" VALUES "...)
		for i, r := range chunk {
			if i > 0 {
				q = append(q, ',')
			}
			q = append(q, '(')
			for j, v := range r {
				if j > 0 {
					q = append(q, ',')
				}
				switch v := v.(type) {
				case int64:
					q = strconv.AppendInt(q, v, 10)
				case string:
					if !literal(v) {
						return fmt.Errorf("insights: %q is not a value of ours", v)
					}
					q = append(q, '\'')
					q = append(q, v...)
					q = append(q, '\'')
				default:
					return fmt.Errorf("insights: value %T", v)
				}
			}
			q = append(q, ')')
		}
		q = append(q, " ON CONFLICT ("+conflict+") DO UPDATE SET "+set...)
		if _, err := tx.Exec(ctx, string(q)); err != nil {
			return err
		}
	}
	return nil
}

// literal reports whether s may be written into SQL as it is: a date or a
// kind name (digits, lower-case letters, '-' and '_').
func literal(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'z') && r != '-' && r != '_' {
			return false
		}
	}
	return s != ""
}

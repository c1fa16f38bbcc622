// Package db opens the database (SQLite or PostgreSQL), applies the embedded
// migrations and gives features one query API for both engines: SQL is written
// once with $1-style placeholders and rewritten for SQLite.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/metrics"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite"
)

// Dialect says which engine is behind a DB.
type Dialect int

const (
	SQLite Dialect = iota + 1
	Postgres
)

func (d Dialect) String() string {
	if d == Postgres {
		return "postgres"
	}
	return "sqlite"
}

// DB is a connection pool plus its dialect.
type DB struct {
	conn
	sql *sql.DB
}

// conn runs the statements of a pool or a transaction: each bounded by the
// call timeout (bound, boundRows) and rebound for the engine.
type conn struct {
	on interface {
		ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
		QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
		QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	}
	dialect Dialect
	full    *fullDisk // shared by a DB and its transactions
}

// Each statement counts a call that hit its deadline (expired) and notes a
// full disk. A statement outside a transaction that succeeds was written:
// the disk took it.
func (c conn) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	cctx, done := bound(ctx, c.dialect)
	defer done()
	res, err := c.on.ExecContext(cctx, rebind(c.dialect, q), args...)
	if _, inTx := c.on.(*sql.Tx); err == nil && !inTx {
		c.full.wrote()
	}
	return res, c.full.note(expired(cctx, ctx, err))
}

func (c conn) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	cctx, charge := boundRows(ctx, c.dialect)
	rows, err := c.on.QueryContext(cctx, rebind(c.dialect, q), args...)
	charge()
	return rows, c.full.note(expired(cctx, ctx, err))
}

func (c conn) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	cctx, charge := boundRows(ctx, c.dialect)
	row := c.on.QueryRowContext(cctx, rebind(c.dialect, q), args...)
	charge()
	_ = c.full.note(expired(cctx, ctx, row.Err()))
	return row
}

// DiskFullHold is how long a write refused for a full disk keeps the
// database reported full (DiskFull) when no write succeeds meanwhile.
// Nothing else tells that space came back without writing, so readiness
// says "disk full" for this long after the last refusal and then lets the
// next write tell again.
const DiskFullHold = 30 * time.Second

// fullDisk remembers when a write last failed for a full disk (unix
// nanoseconds; 0: a write succeeded since, or none failed).
type fullDisk struct{ at atomic.Int64 }

// note records err if it says the disk is full, and returns it.
func (f *fullDisk) note(err error) error {
	if f != nil && DiskFull(err) {
		f.at.Store(time.Now().UnixNano())
	}
	return err
}

func (f *fullDisk) wrote() {
	if f != nil && f.at.Load() != 0 {
		f.at.Store(0)
	}
}

// DiskFull reports whether a write failed for a full disk less than
// DiskFullHold ago with no write succeeding since (for /readyz): writes
// fail, reads go on.
func (d *DB) DiskFull() bool {
	at := d.full.at.Load()
	return at != 0 && time.Since(time.Unix(0, at)) < DiskFullHold
}

// Dialect reports the engine.
func (c conn) Dialect() Dialect { return c.dialect }

// Querier is what repositories run SQL on: a DB or a Tx.
type Querier interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Dialect() Dialect
}

// PostgreSQL limits Open sets unless the URL names them: a server that
// accepts connections but never answers costs a new connection at most
// ConnectTimeout, and a runaway statement at most StatementTimeout of the
// server's time. Requests are bounded much tighter (WithCallTimeout);
// migrations and bulk imports lift the statement limit for themselves.
const (
	ConnectTimeout   = 5 * time.Second
	StatementTimeout = time.Minute
)

// Open connects to url: "sqlite:PATH" or "postgres://...". For SQLite the
// parent folder is created; WAL, a busy timeout, foreign keys and
// BEGIN IMMEDIATE write transactions are always on.
func Open(ctx context.Context, url string) (*DB, error) {
	var d *DB
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		u, err := withPostgresLimits(url)
		if err != nil {
			return nil, err
		}
		pool, err := sql.Open("pgx", u)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		pool.SetMaxOpenConns(20)
		pool.SetMaxIdleConns(10)
		pool.SetConnMaxIdleTime(5 * time.Minute)
		d = &DB{conn: conn{on: pool, dialect: Postgres, full: &fullDisk{}}, sql: pool}
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(url, "sqlite:")
		if path != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, fmt.Errorf("create database folder: %w", err)
			}
		}
		dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
			"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite"
		pool, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		pool.SetMaxOpenConns(8)
		pool.SetMaxIdleConns(8)
		d = &DB{conn: conn{on: pool, dialect: SQLite, full: &fullDisk{}}, sql: pool}
	default:
		return nil, errors.New("database URL must start with sqlite: or postgres://")
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		err := d.sql.PingContext(pctx)
		if err == nil {
			return d, nil
		}
		// A new SQLite file that another process is setting up answers
		// "busy" to a first connection's journal_mode pragma without
		// waiting for the busy timeout: try again for a while.
		if d.dialect != SQLite || !Unavailable(err) || pctx.Err() != nil {
			d.sql.Close()
			return nil, fmt.Errorf("connect to %s database: %w", d.dialect, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// withPostgresLimits adds connect_timeout and statement_timeout to a
// PostgreSQL URL that does not set them.
func withPostgresLimits(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("parse database URL: %w", err)
	}
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", fmt.Sprint(int(ConnectTimeout.Seconds())))
	}
	if q.Get("statement_timeout") == "" && !strings.Contains(q.Get("options"), "statement_timeout") {
		q.Set("statement_timeout", fmt.Sprint(StatementTimeout.Milliseconds()))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Close closes the pool.
func (d *DB) Close() error { return d.sql.Close() }

// Ping checks the database answers (for /readyz).
func (d *DB) Ping(ctx context.Context) error { return d.sql.PingContext(ctx) }

// SQL exposes the pool for the rare caller that needs it (tests, benchmarks).
func (d *DB) SQL() *sql.DB { return d.sql }

// Tx is a transaction with the same query API.
type Tx struct {
	conn
	tx *sql.Tx
}

// Prepare prepares q inside the transaction (for bulk inserts).
func (t *Tx) Prepare(ctx context.Context, q string) (*sql.Stmt, error) {
	ctx, done := bound(ctx, t.dialect)
	defer done()
	return t.tx.PrepareContext(ctx, rebind(t.dialect, q))
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled
// back otherwise, so a failure never leaves half a change behind.
// Under WithCallTimeout, beginning, committing and each statement inside are
// one call each; what fn does between statements (a geocoder, say) is not
// bounded here.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	// Begin, commit and rollback use the transaction's context only.
	txCtx, end := context.WithCancelCause(ctx)
	defer end(nil)
	var stx *sql.Tx
	err := armed(ctx, d.dialect, end, func() (err error) {
		stx, err = d.sql.BeginTx(txCtx, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("begin transaction: %w", withCause(txCtx, err))
	}
	if err := fn(&Tx{conn: conn{on: stx, dialect: d.dialect, full: d.full}, tx: stx}); err != nil {
		_ = armed(ctx, d.dialect, end, stx.Rollback)
		return d.full.note(err) // a row's Scan may be where a full disk showed
	}
	if err := armed(ctx, d.dialect, end, stx.Commit); err != nil {
		return d.full.note(fmt.Errorf("commit: %w", withCause(txCtx, err)))
	}
	// Transactions are how the code writes (SQLite's take the write lock
	// at begin), so a commit says the disk took a write.
	d.full.wrote()
	return nil
}

// armed runs call with end set to fire after the call timeout ctx carries,
// if any.
func armed(ctx context.Context, dialect Dialect, end context.CancelCauseFunc, call func() error) error {
	d, charge, ok := callTimeout(ctx, dialect)
	if !ok {
		return call()
	}
	t := time.AfterFunc(d, func() { end(context.DeadlineExceeded) })
	defer t.Stop()
	err := call()
	charge()
	if err != nil && ctx.Err() == nil && !t.Stop() { // the timer fired: the call hit its deadline
		metrics.DBCallDeadlines.Inc()
	}
	return err
}

// expired counts err as a call past its deadline when call, the context of
// one call, ran out of time while parent, the caller's, did not (a request
// the client gave up is no database problem), and returns err.
func expired(call, parent context.Context, err error) error {
	if err != nil && parent.Err() == nil && errors.Is(context.Cause(call), context.DeadlineExceeded) {
		metrics.DBCallDeadlines.Inc()
	}
	return err
}

// withCause adds why ctx ended to err, which says only "canceled".
func withCause(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
		return fmt.Errorf("%w (%w)", err, cause)
	}
	return err
}

type callTimeoutKey struct{}

// callLimit is what a context says of its database calls: each waits at
// most d, and with a budget all of them together wait at most the budget.
type callLimit struct {
	d time.Duration
	b *budget
}

// budget is what is left of a request's time for its database, in
// nanoseconds; each call is charged what it waited.
type budget struct{ left atomic.Int64 }

// WithCallTimeout returns ctx under which every call on a PostgreSQL DB or
// Tx waits at most d for the database: a statement with its connection and
// rows, or a transaction's begin or commit. Bulk work started by a request
// (a registry upload) uses it: each of its many calls is bounded, not their
// sum. Without it (nor WithRequestBudget) a call is bounded by ctx alone:
// migrations, imports and the search index's bulk reads take as long as they
// need. SQLite, a local file that cannot hang, is bounded by its busy
// timeout instead: a call timeout there would only turn waiting for the
// write lock into errors.
func WithCallTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, callTimeoutKey{}, callLimit{d: d})
}

// WithRequestBudget returns ctx under which all the PostgreSQL calls made
// with it wait at most d in all: each call may wait what is left, and is
// charged what it waited; once d is spent a call fails at once (an error
// Unavailable recognises). The HTTP layer sets it on each API request, so a
// slow or hanging database costs a request d whatever the number of its
// calls, not d per call. Time between calls (reading an upload, a
// geocoder) is not charged: the budget bounds the wait for the database.
func WithRequestBudget(ctx context.Context, d time.Duration) context.Context {
	b := &budget{}
	b.left.Store(int64(d))
	return context.WithValue(ctx, callTimeoutKey{}, callLimit{d: d, b: b})
}

// callTimeout is how long one call of dialect under ctx may wait, if it is
// bounded, and charge, to run when the call returns.
func callTimeout(ctx context.Context, dialect Dialect) (d time.Duration, charge func(), ok bool) {
	l, ok := ctx.Value(callTimeoutKey{}).(callLimit)
	if !ok || l.d <= 0 || dialect != Postgres {
		return 0, nil, false
	}
	if l.b == nil {
		return l.d, func() {}, true
	}
	left := time.Duration(l.b.left.Load())
	if left <= 0 {
		left = time.Nanosecond // spent: the call ends at once
	}
	start := time.Now()
	return left, func() { l.b.left.Add(-int64(time.Since(start))) }, true
}

// bound gives one call the timeout ctx carries: done, run when the call
// returns, charges it and releases its context.
func bound(ctx context.Context, dialect Dialect) (context.Context, func()) {
	d, charge, ok := callTimeout(ctx, dialect)
	if !ok {
		return ctx, func() {}
	}
	cctx, cancel := context.WithTimeout(ctx, d)
	return cctx, func() { charge(); cancel() }
}

// boundRows is bound for a call whose rows are read after it returns: the
// context must outlive the call, so it is released by its own timer (or by
// the request ending) rather than by the caller; charge, run when the call
// returns, charges the wait for its answer.
func boundRows(ctx context.Context, dialect Dialect) (cctx context.Context, charge func()) {
	d, charge, ok := callTimeout(ctx, dialect)
	if !ok {
		return ctx, func() {}
	}
	// The timer (or the request's end) releases it: rows outlive this call.
	cctx, cancel := context.WithTimeout(ctx, d) //nolint:gosec // G118: released by its own timer, as said above
	_ = cancel
	return cctx, charge
}

var (
	placeholder = regexp.MustCompile(`\$(\d+)`)
	rebound     sync.Map // query -> SQLite form
)

// rebind turns $1 into ?1 for SQLite: SQLite numbers "$1"-style names by
// order of appearance, "?1" by its digits, which is what we mean.
func rebind(d Dialect, q string) string {
	if d != SQLite {
		return q
	}
	if v, ok := rebound.Load(q); ok {
		return v.(string)
	}
	r := placeholder.ReplaceAllString(q, "?$1")
	rebound.Store(q, r)
	return r
}

// Scanner is one row to read: *sql.Row or *sql.Rows.
type Scanner = interface{ Scan(dest ...any) error }

// Collect reads every row of a query (its rows and error as Query returns
// them) with scan and closes the rows; what prefixes the errors. No rows
// is an empty list (a JSON []), never nil.
func Collect[T any](rows *sql.Rows, err error, what string, scan func(Scanner) (*T, error)) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, *v)
	}
	return out, rows.Err()
}

// Found answers a read of one row: v, or notFound when there was no row,
// or err wrapped with what.
func Found[T any](v *T, err error, notFound error, what string) (*T, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

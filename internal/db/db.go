// Package db opens the database (SQLite or PostgreSQL), applies the embedded
// migrations and gives features one query API for both engines: SQL is written
// once with $1-style placeholders and rewritten for SQLite.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

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
	sql     *sql.DB
	dialect Dialect
}

// Querier is what repositories run SQL on: a DB or a Tx.
type Querier interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Dialect() Dialect
}

// Open connects to url: "sqlite:PATH" or "postgres://...". For SQLite the
// parent folder is created; WAL, a busy timeout, foreign keys and
// BEGIN IMMEDIATE write transactions are always on.
func Open(ctx context.Context, url string) (*DB, error) {
	var d *DB
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		pool, err := sql.Open("pgx", url)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		pool.SetMaxOpenConns(20)
		pool.SetMaxIdleConns(10)
		pool.SetConnMaxIdleTime(5 * time.Minute)
		d = &DB{sql: pool, dialect: Postgres}
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
		d = &DB{sql: pool, dialect: SQLite}
	default:
		return nil, errors.New("database URL must start with sqlite: or postgres://")
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := d.sql.PingContext(pctx); err != nil {
		d.sql.Close()
		return nil, fmt.Errorf("connect to %s database: %w", d.dialect, err)
	}
	return d, nil
}

// Close closes the pool.
func (d *DB) Close() error { return d.sql.Close() }

// Ping checks the database answers (for /readyz).
func (d *DB) Ping(ctx context.Context) error { return d.sql.PingContext(ctx) }

// SQL exposes the pool for the rare caller that needs it (tests, benchmarks).
func (d *DB) SQL() *sql.DB { return d.sql }

func (d *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return d.sql.ExecContext(ctx, rebind(d.dialect, q), args...)
}

func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return d.sql.QueryContext(ctx, rebind(d.dialect, q), args...)
}

func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return d.sql.QueryRowContext(ctx, rebind(d.dialect, q), args...)
}

// Dialect reports the engine.
func (d *DB) Dialect() Dialect { return d.dialect }

// Tx is a transaction with the same query API.
type Tx struct {
	tx *sql.Tx
	d  Dialect
}

func (t *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, rebind(t.d, q), args...)
}

func (t *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, rebind(t.d, q), args...)
}

func (t *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, rebind(t.d, q), args...)
}

// Dialect reports the engine.
func (t *Tx) Dialect() Dialect { return t.d }

// Prepare prepares q inside the transaction (for bulk inserts).
func (t *Tx) Prepare(ctx context.Context, q string) (*sql.Stmt, error) {
	return t.tx.PrepareContext(ctx, rebind(t.d, q))
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled
// back otherwise, so a failure never leaves half a change behind.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	stx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(&Tx{tx: stx, d: d.dialect}); err != nil {
		_ = stx.Rollback()
		return err
	}
	if err := stx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
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

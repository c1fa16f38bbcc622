// Package dbtest runs a test once per database engine: SQLite in a temporary
// file and PostgreSQL in a fresh schema of LOCATOR_TEST_POSTGRES_URL (default
// the local test database). Without PostgreSQL the PostgreSQL run is skipped,
// except under CI=true where it fails: CI must prove both engines.
//
// Every database is a test's own, so tests that use nothing else shared
// may call t.Parallel. Under go test -short (the edit loop's fast tier) the
// PostgreSQL runs are skipped; make test runs them.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"locator/internal/db"
)

// DefaultPostgresURL is the local server this machine runs.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresURL is the server the tests use.
func PostgresURL() string {
	if v := os.Getenv("LOCATOR_TEST_POSTGRES_URL"); v != "" {
		return v
	}
	return DefaultPostgresURL
}

// Each runs fn as a subtest once per engine with a migrated, empty database.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// EachPair is Each with two connection pools on the same database: two
// replicas, for tests of what replicas must agree on.
func EachPair(t *testing.T, fn func(t *testing.T, a, b *db.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		u := "sqlite:" + sqliteFile(t)
		fn(t, open(t, u), open(t, u))
	})
	t.Run("postgres", func(t *testing.T) {
		u, _ := NewSchema(t)
		fn(t, open(t, u), open(t, u))
	})
}

// SQLite opens a migrated database in a temporary folder.
func SQLite(t testing.TB) *db.DB {
	t.Helper()
	return open(t, "sqlite:"+sqliteFile(t))
}

// migratedSQLite is one migrated SQLite database file, made once per test
// binary: the migrations run in SQLite compiled from C to Go, which under
// -race costs about a second per database, and most packages open hundreds.
var migratedSQLite = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "dbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	ctx := context.Background()
	d, err := db.Open(ctx, "sqlite:"+path)
	if err != nil {
		return nil, err
	}
	_, err = d.Migrate(ctx)
	if err == nil {
		// Everything into the main file, so the file alone is the database.
		_, err = d.Exec(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("migrate the SQLite template: %w", err)
	}
	return os.ReadFile(path)
})

// sqliteFile writes a copy of the migrated database into the test's
// temporary folder and returns its path. open still runs Migrate on it,
// which finds every step applied, as a restarted server does.
func sqliteFile(t testing.TB) string {
	t.Helper()
	data, err := migratedSQLite()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatalf("copy the SQLite template: %v", err)
	}
	return path
}

// Postgres opens a migrated, empty schema that is dropped after the test.
func Postgres(t testing.TB) *db.DB {
	t.Helper()
	u, schema := NewSchema(t)
	_ = schema
	return open(t, u)
}

// NewSchema creates a fresh PostgreSQL schema and returns a URL whose
// connections use it; the schema is dropped when the test ends.
func NewSchema(t testing.TB) (string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("go test -short runs SQLite only; make test runs PostgreSQL too")
	}
	base := PostgresURL()
	ctx := context.Background()
	admin, err := db.Open(ctx, base)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required under CI=true: %v", err)
		}
		t.Skipf("PostgreSQL not available (%v); set CI=true to make this fail", err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	pu, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", base, err)
	}
	q := pu.Query()
	q.Set("search_path", schema)
	// A test's commits need not survive a crash of the server: without a
	// disk flush per commit the migrations' 20-odd commits cost nothing.
	q.Set("synchronous_commit", "off")
	pu.RawQuery = q.Encode()
	return pu.String(), schema
}

func open(t testing.TB, u string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), u)
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return d
}

// Must fails the test on err.
func Must(t testing.TB, err error, what string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(what, args...), err)
	}
}

// Texts reads every row of query as text, a row's columns joined by sep:
// what a test compares (the outbox's mails, audit entries, a history).
func Texts(t testing.TB, q db.Querier, sep, query string, args ...any) []string {
	t.Helper()
	rows, err := q.Query(context.Background(), query, args...)
	Must(t, err, "query %s", query)
	defer rows.Close()
	cols, err := rows.Columns()
	Must(t, err, "columns of %s", query)
	var out []string
	for rows.Next() {
		vals := make([]string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		Must(t, rows.Scan(ptrs...), "row of %s", query)
		out = append(out, strings.Join(vals, sep))
	}
	Must(t, rows.Err(), "rows of %s", query)
	return out
}

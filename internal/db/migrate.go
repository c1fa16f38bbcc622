package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// migrationLock is the PostgreSQL advisory lock key that keeps replicas
// starting together from applying the same migration twice.
const migrationLock = 7346_0001

// Migrate applies every embedded migration not yet applied, each in its own
// transaction, and returns the names applied.
func (d *DB) Migrate(ctx context.Context) ([]string, error) {
	dir := "migrations/" + d.dialect.String()
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)

	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if d.dialect == Postgres {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
			return nil, fmt.Errorf("migrate: take lock: %w", err)
		}
		defer conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", migrationLock) //nolint:errcheck // released with the session anyway
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`); err != nil {
		return nil, fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	var applied []string
	for _, name := range names {
		var n int
		if err := conn.QueryRowContext(ctx, rebind(d.dialect, "SELECT COUNT(*) FROM schema_migrations WHERE name = $1"), name).Scan(&n); err != nil {
			return applied, fmt.Errorf("migrate: check %s: %w", name, err)
		}
		if n > 0 {
			continue
		}
		body, err := migrations.ReadFile(dir + "/" + name)
		if err != nil {
			return applied, fmt.Errorf("migrate: read %s: %w", name, err)
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return applied, fmt.Errorf("migrate: begin %s: %w", name, err)
		}
		for _, stmt := range splitStatements(string(body)) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				_ = tx.Rollback()
				return applied, fmt.Errorf("migrate: %s: %w", name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, rebind(d.dialect, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)"), name, time.Now().UTC()); err != nil {
			_ = tx.Rollback()
			return applied, fmt.Errorf("migrate: record %s: %w", name, err)
		}
		if err := tx.Commit(); err != nil {
			return applied, fmt.Errorf("migrate: commit %s: %w", name, err)
		}
		applied = append(applied, name)
	}
	return applied, nil
}

// splitStatements splits a migration on semicolons at line ends; migrations
// keep one statement per semicolon-terminated block (no procedural bodies).
func splitStatements(body string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "--") || trimmed == "" {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

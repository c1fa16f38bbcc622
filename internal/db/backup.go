package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
)

// ErrPostgresBackup says that backup and restore are SQLite's: a
// PostgreSQL database is copied with pg_dump and pg_restore
// (docs/deploy.md, "Backups").
var ErrPostgresBackup = errors.New("locator backup and restore copy a SQLite database; for PostgreSQL use " +
	"pg_dump --format=custom --file=FILE DATABASE_URL and pg_restore --clean --if-exists --dbname=DATABASE_URL FILE " +
	"(docs/deploy.md, \"Backups\")")

// Backup writes a consistent copy of the SQLite database to path while
// others go on writing: VACUUM INTO reads one snapshot of the database (a
// read transaction, which in WAL mode blocks no writer) into a new file,
// written beside path and renamed to it once synced, so path is never half
// a database. An existing path is replaced only with replace.
func (d *DB) Backup(ctx context.Context, path string, replace bool) error {
	if d.dialect != SQLite {
		return ErrPostgresBackup
	}
	if _, err := os.Stat(path); err == nil && !replace {
		return fmt.Errorf("%s exists; choose a new name or replace it with --force", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name) // after the rename, nothing is left to remove
	// VACUUM INTO wants a file that does not exist or is empty.
	if _, err := d.sql.ExecContext(ctx, "VACUUM INTO ?1", name); err != nil {
		return fmt.Errorf("backup: VACUUM INTO: %w", err)
	}
	if err := syncFile(name); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return syncFile(filepath.Dir(path))
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// RefusedError is a restore refused because it would overwrite a database.
type RefusedError struct {
	Path string
	Live bool // another process has the database open: a server is running on it
}

func (e *RefusedError) Error() string {
	if e.Live {
		return e.Path + " is in use by a running process (locator serve?): stop every server on it first, " +
			"or use --force and restart them after the restore (a running replica's search index does not follow a database that went back)"
	}
	return e.Path + " already holds a database: use --force to replace it"
}

// Restore replaces the SQLite database of url with the backup in from,
// after checking that from is a sound locator database. It copies through
// SQLite's backup API on a connection to the database, so the database's
// own journal and any reader see either the old database or the new one.
// A database that exists, or that another process has open, is replaced
// only with force. The next start migrates a backup taken by an older
// version.
func Restore(ctx context.Context, url, from string, force bool) error {
	if !strings.HasPrefix(url, "sqlite:") {
		return ErrPostgresBackup
	}
	path := strings.TrimPrefix(url, "sqlite:")
	if err := checkBackup(ctx, from); err != nil {
		return err
	}
	st, err := os.Stat(path)
	exists, live := err == nil && st.Size() > 0, inUse(path)
	if (exists || live) && !force {
		return &RefusedError{Path: path, Live: live}
	}
	d, err := Open(ctx, url)
	if err != nil {
		return err
	}
	defer d.Close()
	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		r, ok := dc.(interface {
			NewRestore(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("restore: the SQLite driver has no backup API")
		}
		b, err := r.NewRestore(readOnlyURI(from))
		if err != nil {
			return err
		}
		_, err = b.Step(-1) // every page, under one lock
		return errors.Join(err, b.Finish())
	})
	if err != nil {
		return fmt.Errorf("restore %s from %s: %w", path, from, err)
	}
	return quickCheck(ctx, conn.QueryRowContext, path)
}

// checkBackup opens from read-only and checks it is a whole SQLite
// database that this program wrote (it has the migrations ledger).
func checkBackup(ctx context.Context, from string) error {
	if _, err := os.Stat(from); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	src, err := sql.Open("sqlite", readOnlyURI(from))
	if err != nil {
		return fmt.Errorf("restore: open %s: %w", from, err)
	}
	defer src.Close()
	if err := quickCheck(ctx, src.QueryRowContext, from); err != nil {
		return err
	}
	var n int
	if err := src.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		return fmt.Errorf("restore: %s is not a locator backup (no migrations ledger): %w", from, err)
	}
	if n == 0 {
		return fmt.Errorf("restore: %s is not a locator backup (no migrations recorded)", from)
	}
	return nil
}

// quickCheck runs SQLite's PRAGMA quick_check on the database of query.
func quickCheck(ctx context.Context, query func(context.Context, string, ...any) *sql.Row, name string) error {
	var res string
	if err := query(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("%s is not a readable SQLite database: %w", name, err)
	}
	if res != "ok" {
		return fmt.Errorf("%s is damaged: %s", name, res)
	}
	return nil
}

func readOnlyURI(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro"
}

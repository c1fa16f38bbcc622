package db_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// A database written before store_id was unique, with duplicates: the
// migration refuses, changes nothing, and its instructions fix it.
func TestUniqueStoreIDMigrationExplainsDuplicates(t *testing.T) {
	t.Parallel()
	eachEmpty(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// A database migrated up to the step before 0006.
		names, err := db.StepNames()
		dbtest.Must(t, err, "steps")
		before := ""
		for _, n := range names {
			if n < "0006" {
				before = n
			}
		}
		_, err = db.MigrateUpTo(ctx, d, before)
		dbtest.Must(t, err, "migrate up to %s", before)
		now := time.Now().UTC()
		for _, sid := range []string{"st_1", "st_1", "st_1", "st_2", "st_2", "st_3", "", ""} {
			_, err := d.Exec(ctx, `INSERT INTO stores (store_id, name, latitude, longitude, created_at, updated_at)
				VALUES ($1, 'Store', 40.7, -74, $2, $2)`, sid, now)
			dbtest.Must(t, err, "insert %s", sid)
		}

		_, err = d.Migrate(ctx)
		if err == nil {
			t.Fatal("migrated with duplicate store_id values")
		}
		msg := err.Error()
		for _, want := range []string{"0006_unique_store_id", "2 store_id values are used by more than one store",
			`"st_1" on 3 stores`, `"st_2" on 2 stores`, "Nothing was changed", "SELECT store_id, COUNT(*)",
			"UPDATE stores SET store_id", "DELETE FROM search_snapshots"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the message lacks %q:\n%s", want, msg)
			}
		}
		var applied int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE name = '0006_unique_store_id.sql'").Scan(&applied), "count")
		if applied != 0 {
			t.Fatal("0006 recorded as applied")
		}

		// The statements the message gives, run as given, list and fix them.
		var list, fix string
		for _, line := range strings.Split(msg, "\n") {
			line = strings.TrimSuffix(strings.TrimSpace(line), ";")
			switch {
			case strings.HasPrefix(line, "SELECT"):
				list = line
			case strings.HasPrefix(line, "DELETE FROM stores"):
				fix = line
			}
		}
		rows, err := d.Query(ctx, list)
		dbtest.Must(t, err, "the listing query %q", list)
		var listed []string
		for rows.Next() {
			var sid string
			var n, first int64
			dbtest.Must(t, rows.Scan(&sid, &n, &first), "scan")
			listed = append(listed, sid)
		}
		rows.Close()
		if strings.Join(listed, ",") != "st_1,st_2" {
			t.Fatalf("the listing query gave %v", listed)
		}
		_, err = d.Exec(ctx, fix)
		dbtest.Must(t, err, "the fix %q", fix)
		applied2, err := d.Migrate(ctx)
		dbtest.Must(t, err, "migrate after the fix")
		// Later steps follow once 0006 goes through.
		if len(applied2) == 0 || applied2[0] != "0006_unique_store_id.sql" {
			t.Fatalf("applied %v", applied2)
		}
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM stores").Scan(&n), "count")
		if n != 5 { // st_1, st_2, st_3 and the two without a store_id
			t.Fatalf("%d stores after the fix, want 5", n)
		}
		_, err = d.Exec(ctx, `INSERT INTO stores (store_id, name, latitude, longitude, created_at, updated_at)
			VALUES ('st_3', 'Again', 40.7, -74, $1, $1)`, now)
		if !db.UniqueViolation(err) {
			t.Fatalf("a second st_3: %v, want a unique violation", err)
		}
	})
}

type engineURL struct{ name, url string }

// emptyDatabases are a new SQLite file and a new PostgreSQL schema, with no
// migrations applied.
func emptyDatabases(t *testing.T) []engineURL {
	pgURL, _ := dbtest.NewSchema(t)
	return []engineURL{{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "new.db")}, {"postgres", pgURL}}
}

// eachEmpty runs fn once per engine on a database with no migrations.
func eachEmpty(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	for _, e := range emptyDatabases(t) {
		t.Run(e.name, func(t *testing.T) {
			d, err := db.Open(context.Background(), e.url)
			dbtest.Must(t, err, "open")
			defer d.Close()
			fn(t, d)
		})
	}
}

// Replicas starting together on a new database migrate it once between
// them, on SQLite (one file, no advisory lock) as on PostgreSQL.
func TestConcurrentMigrations(t *testing.T) {
	t.Parallel()
	for _, c := range emptyDatabases(t) {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			var wg sync.WaitGroup
			applied := make([][]string, 4)
			errs := make([]error, 4)
			for i := range applied {
				wg.Add(1)
				go func() {
					defer wg.Done()
					d, err := db.Open(ctx, c.url)
					if err != nil {
						errs[i] = err
						return
					}
					defer d.Close()
					applied[i], errs[i] = d.Migrate(ctx)
				}()
			}
			wg.Wait()
			total := 0
			for i := range applied {
				dbtest.Must(t, errs[i], "replica %d", i)
				total += len(applied[i])
			}
			d, err := db.Open(ctx, c.url)
			dbtest.Must(t, err, "open")
			defer d.Close()
			var recorded int
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&recorded), "count")
			if total != recorded || recorded == 0 {
				t.Fatalf("replicas applied %d migrations in all, %d recorded", total, recorded)
			}
		})
	}
}

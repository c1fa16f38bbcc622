package db_test

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

func TestMigrateTwiceAndRebind(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		applied, err := d.Migrate(ctx)
		if err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		if len(applied) != 0 {
			t.Fatalf("second migrate applied %v, want nothing", applied)
		}
		var v int64
		if err := d.QueryRow(ctx, "SELECT version FROM search_version WHERE id = $1", 1).Scan(&v); err != nil {
			t.Fatalf("read search_version: %v", err)
		}
		if v != 0 {
			t.Fatalf("version = %d, want 0", v)
		}
		// Placeholders out of order must bind by number on both engines.
		var a, b string
		if err := d.QueryRow(ctx, "SELECT CAST($2 AS TEXT), CAST($1 AS TEXT)", "one", "two").Scan(&a, &b); err != nil {
			t.Fatalf("query: %v", err)
		}
		if a != "two" || b != "one" {
			t.Fatalf("got %q %q, want two one", a, b)
		}
	})
}

func TestInTxRollsBack(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		err := d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO countries (code, display_name) VALUES ($1, $2)", "US", "United States"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO countries (code, display_name) VALUES ($1, $2)", "US", "dup")
			return err
		})
		if err == nil {
			t.Fatal("duplicate insert succeeded")
		}
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM countries").Scan(&n), "count")
		if n != 0 {
			t.Fatalf("%d countries after rollback, want 0", n)
		}
	})
}

package db_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// A full disk is told apart from an outage on both engines: SQLite's
// SQLITE_FULL (played with max_page_count, on every pooled connection)
// and PostgreSQL's disk_full (53100, which a test cannot cause on a shared
// server, so its error is made here). DB.DiskFull says so until a write
// commits.
func TestDiskFull(t *testing.T) {
	if err := (&pgconn.PgError{Code: "53100"}); !db.DiskFull(fmt.Errorf("insert: %w", err)) || db.Unavailable(err) {
		t.Fatal("PostgreSQL's disk_full is not told as a full disk")
	}
	if db.DiskFull(&pgconn.PgError{Code: "23505"}) || db.DiskFull(nil) {
		t.Fatal("another error told as a full disk")
	}

	d := dbtest.SQLite(t)
	ctx := context.Background()
	setMax := func(n int) {
		t.Helper()
		for range 8 { // the pool's connections: the pragma is per connection
			c, err := d.SQL().Conn(ctx)
			dbtest.Must(t, err, "conn")
			defer c.Close()
			var got int
			dbtest.Must(t, c.QueryRowContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)).Scan(&got), "pragma")
		}
	}
	var pages int
	dbtest.Must(t, d.QueryRow(ctx, "PRAGMA page_count").Scan(&pages), "page count")
	setMax(pages)
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = d.InTx(ctx, func(tx *db.Tx) error {
			_, err := tx.Exec(ctx, "INSERT INTO rate_counters (rkey, n, window_start) VALUES ($1, 1, 0)", fmt.Sprintf("fill-%04d-%0200d", i, 0))
			return err
		})
	}
	if !db.DiskFull(err) || db.Unavailable(err) || !d.DiskFull() {
		t.Fatalf("write on a full SQLite: %v (full %v)", err, d.DiskFull())
	}
	var n int
	dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM rate_counters").Scan(&n), "a read on a full disk")
	setMax(1 << 30)
	dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM rate_counters WHERE rkey LIKE 'fill-%'")
		return err
	}), "a write once there is space")
	if d.DiskFull() {
		t.Fatal("still full after a write committed")
	}
}

// Package insightstest checks what the database holds after counting.
package insightstest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locator/internal/db"
)

// AssertNoneHolds reads every row of every table and fails t where a value
// contains one of needles (an address, a user agent).
func AssertNoneHolds(t testing.TB, d *db.DB, needles ...string) {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if d.Dialect() == db.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := d.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found only %d tables: %v", len(tables), tables)
	}
	cells := 0
	for _, table := range tables {
		rs, err := d.Query(ctx, `SELECT * FROM "`+table+`"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rs.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rs.Next() {
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatalf("scan %s: %v", table, err)
			}
			for i, v := range vals {
				cells++
				s := fmt.Sprint(v)
				if b, ok := v.([]byte); ok {
					s = string(b)
				}
				for _, n := range needles {
					if n != "" && strings.Contains(s, n) {
						t.Errorf("%s.%s holds %q: %q", table, cols[i], n, s)
					}
				}
			}
		}
		rs.Close()
	}
	if cells == 0 {
		t.Fatal("no values read")
	}
}

package insights

import (
	"context"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// An owner's stores appear in the monthly mail by name (then id), whatever
// the order they were created or linked in.
func TestMonthlyMailListsStoresByName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var owner int64
		must(t, d.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at, email_verified_at)
			VALUES ('owner@example.com', 'x', '', 'x', $1, $1) RETURNING id`, day0).Scan(&owner))
		march := newAt(d, day0)
		for _, name := range []string{"Zeta Smoke", "Alpha Vapes", "Mid Town Tobacco"} {
			var store int64
			must(t, d.QueryRow(ctx, `INSERT INTO stores (name, latitude, longitude, created_at, updated_at) VALUES ($1, 1, 2, $2, $2) RETURNING id`,
				name, day0).Scan(&store))
			_, err := d.Exec(ctx, `INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')`, owner, store, day0)
			must(t, err)
			march.Count(0, store, Call)
		}
		must(t, march.Flush(ctx))
		must(t, newAt(d, day0.AddDate(0, 1, -10)).Flush(ctx))
		var text string
		must(t, d.QueryRow(ctx, `SELECT text_body FROM outbox WHERE to_addr = 'owner@example.com'`).Scan(&text))
		a, m, z := strings.Index(text, "Alpha Vapes"), strings.Index(text, "Mid Town Tobacco"), strings.Index(text, "Zeta Smoke")
		if a < 0 || a >= m || m >= z {
			t.Errorf("stores not by name:\n%s", text)
		}
	})
}

package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"locator/internal/apperr"
	"locator/internal/db"
)

// Put writes stock rows made in code (the demo stock), each with its own
// reported time, in one transaction of batches of batchRows rows; a row
// for a store and product that has one replaces it. Put stamps the stores
// it wrote (see Set). The rows are checked
// against the feed's rules first (check): one that breaks them writes
// nothing. Rows belong to no feed import (import_id NULL), so a full feed
// for their store later removes the ones it does not name.
func (r *Repo) Put(ctx context.Context, rows []Row) error {
	for i := range rows {
		if err := check(&rows[i]); err != nil {
			return apperr.Invalidf("stock row %d (store %d, product %d): %s", i+1, rows[i].StoreID, rows[i].ProductID, err)
		}
	}
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		sqlite := tx.Dialect() == db.SQLite
		var full *sql.Stmt // prepared once: parsing a statement of 10,000 parameters costs more than running it
		if len(rows) >= batchRows {
			var err error
			if full, err = tx.Prepare(ctx, putSQL(sqlite, batchRows)); err != nil {
				return fmt.Errorf("prepare stock insert: %w", err)
			}
			defer full.Close()
		}
		args := make([]any, 0, 10*batchRows)
		for rest := rows; len(rest) > 0; {
			n := min(len(rest), batchRows)
			args = args[:0]
			for i := range rest[:n] {
				args = putArgs(args, &rest[i])
			}
			var err error
			if n == batchRows {
				_, err = full.ExecContext(ctx, args...)
			} else {
				_, err = tx.Exec(ctx, putSQL(sqlite, n), args...)
			}
			if err != nil {
				return fmt.Errorf("write stock (store %d, product %d and on): %w", rest[0].StoreID, rest[0].ProductID, err)
			}
			rest = rest[n:]
		}
		stores := make([]int64, len(rows))
		for i := range rows {
			stores[i] = rows[i].StoreID
		}
		return stamp(ctx, tx, stores)
	})
}

// putArgs appends the ten values of putSQL for one row.
func putArgs(args []any, w *Row) []any {
	var qty, price, sale any
	cur := ""
	if w.Quantity != nil {
		qty = *w.Quantity
	}
	if w.Price != nil {
		price, cur = w.Price.Amount, w.Price.Currency
	}
	if w.SalePrice != nil {
		sale, cur = w.SalePrice.Amount, w.SalePrice.Currency
	}
	return append(args, w.StoreID, w.ProductID, string(w.Availability), qty, price, sale, cur,
		w.PickupMethod, w.PickupSLA, w.ReportedAt.UTC())
}

// check holds a row made in code to the feed's rules (values in
// docs/products.md, "Stock per store").
func check(w *Row) error {
	if !slices.Contains(Availabilities, w.Availability) {
		return fmt.Errorf("availability %q is not one of in_stock, limited_availability, on_display_to_order, out_of_stock", w.Availability)
	}
	if q := w.Quantity; q != nil && (*q < 0 || *q > 1_000_000_000) {
		return fmt.Errorf("quantity %d is not from 0 to a billion", *q)
	}
	for _, p := range []*Price{w.Price, w.SalePrice} {
		if p != nil && (p.Amount < 0 || p.Amount > MaxAmount || len(p.Currency) != 3 || strings.ToUpper(p.Currency) != p.Currency) {
			return fmt.Errorf("price %v is not an amount from 0 to %d with a currency code", *p, MaxAmount/100)
		}
	}
	if w.Price != nil && w.SalePrice != nil {
		if w.Price.Currency != w.SalePrice.Currency {
			return fmt.Errorf("sale_price is in %s, price in %s", w.SalePrice.Currency, w.Price.Currency)
		}
		if w.SalePrice.Amount > w.Price.Amount {
			return fmt.Errorf("sale_price %v is more than price %v", *w.SalePrice, *w.Price)
		}
	}
	if w.PickupMethod != "" && !slices.Contains(PickupMethods, w.PickupMethod) {
		return fmt.Errorf("pickup_method %q is not one of %s", w.PickupMethod, strings.Join(PickupMethods, ", "))
	}
	if w.PickupSLA != "" && !slices.Contains(PickupSLAs, w.PickupSLA) {
		return fmt.Errorf("pickup_sla %q is not one of %s", w.PickupSLA, strings.Join(PickupSLAs, ", "))
	}
	if w.ReportedAt.IsZero() {
		return fmt.Errorf("reported_at is not set")
	}
	return nil
}

// putSQL writes n rows of ten values each: numbered parameters on
// PostgreSQL, anonymous "?" on SQLite (see upsertSQL for why).
func putSQL(sqlite bool, n int) string { return stockSQL(sqlite, n, false) }

// stockSQL writes n stock rows, replacing those of the same store and
// product. Each row holds the ten columns of a stock row; withImport adds
// import_id, and then the report time and import are $1 and $2 of every
// row on PostgreSQL (the row's own nine values numbered after them), while
// without it the row's ten values are its own and a replaced row's
// import_id is cleared. SQLite takes anonymous "?" throughout.
func stockSQL(sqlite bool, n int, withImport bool) string {
	own, width, importID := 10, 10, "NULL"
	cols := ""
	if withImport {
		own, width, importID, cols = 9, 11, "excluded.import_id", ", import_id"
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO stock (store_id, product_id, availability, quantity, price, sale_price, currency,
	pickup_method, pickup_sla, reported_at` + cols + `) VALUES `)
	sqliteRow := "(" + strings.TrimSuffix(strings.Repeat("?,", width), ",") + ")"
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if sqlite {
			b.WriteString(sqliteRow)
			continue
		}
		p := 1 + width - own + own*i
		b.WriteByte('(')
		for j := range own {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(p + j))
		}
		if withImport {
			b.WriteString(",$1,$2")
		}
		b.WriteByte(')')
	}
	b.WriteString(` ON CONFLICT (store_id, product_id) DO UPDATE SET availability = excluded.availability,
	quantity = excluded.quantity, price = excluded.price, sale_price = excluded.sale_price, currency = excluded.currency,
	pickup_method = excluded.pickup_method, pickup_sla = excluded.pickup_sla, reported_at = excluded.reported_at,
	import_id = ` + importID)
	return b.String()
}

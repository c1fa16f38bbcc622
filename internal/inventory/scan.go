package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"locator/internal/db"
)

// Entry is a stock row as the search index keeps it: flat values, no
// pointers, so that a start-up reading millions of them allocates little.
// Quantity, Price and SalePrice are -1 when not given.
type Entry struct {
	StoreID, ProductID int64
	Availability       Availability
	Quantity           int64
	Price, SalePrice   int64 // hundredths of Currency
	Currency           string
	ReportedAt         time.Time
}

const entryColumns = `store_id, product_id, availability, quantity, price, sale_price, currency, reported_at`

// Scan calls fn with every stock row in batches of at most batch, in
// (store, product) order, by keyset pages on the primary key. The batch is
// only valid during fn.
func (r *Repo) Scan(ctx context.Context, batch int, fn func([]Entry) error) error {
	buf := make([]Entry, 0, batch)
	lastStore, lastProduct := int64(-1), int64(-1)
	for {
		rows, err := r.db.Query(ctx, `SELECT `+entryColumns+` FROM stock
			WHERE (store_id, product_id) > ($1, $2) ORDER BY store_id, product_id LIMIT $3`,
			lastStore, lastProduct, batch)
		if buf, err = collectEntries(buf[:0], rows, err); err != nil {
			return err
		}
		if len(buf) == 0 {
			return nil
		}
		if err := fn(buf); err != nil {
			return err
		}
		if len(buf) < batch {
			return nil
		}
		lastStore, lastProduct = buf[len(buf)-1].StoreID, buf[len(buf)-1].ProductID
	}
}

// OfStores returns the stock rows of the stores, in (store, product)
// order: what a search replica re-reads for the stores ChangedStores names.
func (r *Repo) OfStores(ctx context.Context, stores []int64) ([]Entry, error) {
	if len(stores) == 0 {
		return nil, nil
	}
	rows, err := r.db.Query(ctx, `SELECT `+entryColumns+` FROM stock WHERE store_id IN (`+db.IDList(r.db, 1)+`)
		ORDER BY store_id, product_id`, db.IDs(stores))
	return collectEntries(nil, rows, err)
}

func collectEntries(dst []Entry, rows *sql.Rows, err error) ([]Entry, error) {
	if err != nil {
		return nil, fmt.Errorf("read stock: %w", err)
	}
	defer rows.Close()
	var qty, price, sale sql.NullInt64
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.StoreID, &e.ProductID, &e.Availability, &qty, &price, &sale, &e.Currency, &e.ReportedAt); err != nil {
			return nil, fmt.Errorf("read stock: %w", err)
		}
		e.Quantity, e.Price, e.SalePrice = orMinus(qty), orMinus(price), orMinus(sale)
		dst = append(dst, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stock: %w", err)
	}
	return dst, nil
}

func orMinus(v sql.NullInt64) int64 {
	if v.Valid {
		return v.Int64
	}
	return -1
}

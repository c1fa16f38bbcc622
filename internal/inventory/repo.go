package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"locator/internal/db"
)

// ForStore returns a store's stock, by product id (the catalogue names
// the products: it owns their table).
func (r *Repo) ForStore(ctx context.Context, storeID int64) ([]Row, error) {
	rows, err := r.db.Query(ctx, `SELECT `+rowColumns+` FROM stock WHERE store_id = $1`, storeID)
	out, err := db.Collect(rows, err, "read stock", scanRow)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(out))
	for i, w := range out {
		ids[i] = w.ProductID
	}
	names, err := r.catalog.ProductIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Product = names[out[i].ProductID]
	}
	slices.SortFunc(out, func(a, b Row) int { return strings.Compare(a.Product, b.Product) })
	return out, nil
}

// rowColumns are the columns scanRow reads.
const rowColumns = `store_id, product_id, availability, quantity, price, sale_price,
	currency, pickup_method, pickup_sla, reported_at`

func scanRow(sc db.Scanner) (*Row, error) {
	w := &Row{}
	var qty, price, sale sql.NullInt64
	var cur string
	if err := sc.Scan(&w.StoreID, &w.ProductID, &w.Availability, &qty, &price, &sale, &cur,
		&w.PickupMethod, &w.PickupSLA, &w.ReportedAt); err != nil {
		return nil, err
	}
	if qty.Valid {
		w.Quantity = &qty.Int64
	}
	if price.Valid {
		w.Price = &Price{Amount: price.Int64, Currency: cur}
	}
	if sale.Valid {
		w.SalePrice = &Price{Amount: sale.Int64, Currency: cur}
	}
	return w, nil
}

// Count returns how many stock rows there are.
func (r *Repo) Count(ctx context.Context) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stock").Scan(&n); err != nil {
		return 0, fmt.Errorf("count stock: %w", err)
	}
	return n, nil
}

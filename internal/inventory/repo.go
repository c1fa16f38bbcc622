package inventory

import (
	"context"
	"database/sql"
	"fmt"

	"locator/internal/db"
)

// ForStore returns a store's stock, by product id.
func (r *Repo) ForStore(ctx context.Context, storeID int64) ([]Row, error) {
	rows, err := r.db.Query(ctx, `SELECT s.store_id, s.product_id, p.product_id, s.availability, s.quantity, s.price, s.sale_price,
		s.currency, s.pickup_method, s.pickup_sla, s.reported_at
		FROM stock s JOIN products p ON p.id = s.product_id WHERE s.store_id = $1 ORDER BY p.product_id`, storeID)
	return db.Collect(rows, err, "read stock", scanRow)
}

func scanRow(sc db.Scanner) (*Row, error) {
	w := &Row{}
	var qty, price, sale sql.NullInt64
	var cur string
	if err := sc.Scan(&w.StoreID, &w.ProductID, &w.Product, &w.Availability, &qty, &price, &sale, &cur,
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

package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// IDByCode returns the id of the store a feed's store_code names: the
// store whose marketplace store_id it is, else, when it is a number, the
// store with that id; 0 when neither is (docs/products.md, "Stock feeds").
// A store_id wins over an id, so a code means the same store whatever
// numbers the database gives out.
func (r *Repo) IDByCode(ctx context.Context, code string) (int64, error) {
	if code == "" {
		return 0, nil
	}
	id, err := r.IDByStoreID(ctx, code)
	if err != nil || id != 0 {
		return id, err
	}
	n, err := strconv.ParseInt(code, 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != code {
		return 0, nil
	}
	err = r.db.QueryRow(ctx, "SELECT id FROM stores WHERE id = $1", n).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("find store %d: %w", n, err)
	}
	return id, nil
}

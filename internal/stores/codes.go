package stores

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"locator/internal/db"
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

// codeBatch is how many codes one statement of IDsByCodes looks up.
const codeBatch = 5000

// IDsByCodes is IDByCode for many codes at once (the codes a feed names):
// the id of each, 0 for none, in a statement per codeBatch codes (and one
// more per batch for the codes that are only numbers).
func (r *Repo) IDsByCodes(ctx context.Context, codes []string) ([]int64, error) {
	out := make([]int64, len(codes))
	at := make(map[string]int, len(codes))
	for i, c := range codes {
		if c != "" {
			at[c] = i
		}
	}
	list := `SELECT value FROM json_each($1)`
	if r.db.Dialect() == db.Postgres {
		list = `SELECT jsonb_array_elements_text(CAST($1 AS jsonb))`
	}
	for lo := 0; lo < len(codes); lo += codeBatch {
		batch := codes[lo:min(lo+codeBatch, len(codes))]
		b, err := json.Marshal(batch)
		if err != nil {
			return nil, fmt.Errorf("find stores: %w", err)
		}
		rows, err := r.db.Query(ctx, `SELECT store_id, MIN(id) FROM stores WHERE store_id <> '' AND store_id IN (`+list+`) GROUP BY store_id`, string(b))
		type hit struct {
			code string
			id   int64
		}
		found, err := db.Collect(rows, err, "find stores", func(sc db.Scanner) (*hit, error) {
			var h hit
			return &h, sc.Scan(&h.code, &h.id)
		})
		if err != nil {
			return nil, err
		}
		for _, h := range found {
			if i, ok := at[h.code]; ok {
				out[i] = h.id
			}
		}
		// The codes that named no store_id and are a store's number.
		var nums []int64
		for i, c := range batch {
			if out[lo+i] != 0 {
				continue
			}
			if n, err := strconv.ParseInt(c, 10, 64); err == nil && n > 0 && strconv.FormatInt(n, 10) == c {
				nums = append(nums, n)
			}
		}
		if len(nums) == 0 {
			continue
		}
		rows, err = r.db.Query(ctx, `SELECT id FROM stores WHERE id IN (`+db.IDList(r.db, 1)+`)`, db.IDs(nums))
		ids, err := db.Collect(rows, err, "find stores", func(sc db.Scanner) (*int64, error) {
			var id int64
			return &id, sc.Scan(&id)
		})
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if i, ok := at[strconv.FormatInt(id, 10)]; ok && out[i] == 0 {
				out[i] = id
			}
		}
	}
	return out, nil
}

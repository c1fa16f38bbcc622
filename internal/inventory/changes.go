package inventory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/stores/events"
)

// Change stamps. Every write of this package (Put, Import, Set, Remove)
// ends its own transaction by bumping the stock version and stamping each
// store whose rows it wrote or removed with the new version (migration
// 0028_stock_changes). Callers therefore never stamp anything themselves,
// and a search replica catches up from version v by re-reading the stock
// of the stores ChangedStores names: a few index entries per poll, however
// large the table. The version is bumped last, so its row lock (which makes
// versions commit in order, as the stores' search version does) is held
// only for the moment before the commit, not through a long import.

// Set writes one store's stock of one product: an insert, or a
// replacement of the row the store has for it (upsert). row's StoreID and
// ProductID are taken from the arguments; a zero ReportedAt means now
// (Repo.Now). The row is held to the feed's rules (docs/products.md,
// "Stock per store"): a value that breaks them is an apperr.Invalid and
// writes nothing; an unknown store or product is an apperr.NotFound. Like
// Put, the row belongs to no feed import, so a later full feed for the
// store removes it unless the feed names the product. This is the call the
// owners' pages (/business) make; the change reaches every replica's
// search at its next poll.
func (r *Repo) Set(ctx context.Context, storeID, productID int64, row Row) error {
	return r.SetThen(ctx, storeID, productID, row, nil)
}

// Then runs inside the transaction of a change (SetThen, RemoveThen) with
// the row the store had before it (nil: none), so what it writes (an audit
// entry, say) commits or rolls back with the change; its error undoes the
// change.
type Then func(ctx context.Context, tx *db.Tx, before *Row) error

// SetThen is Set, running then (when not nil) in its transaction.
func (r *Repo) SetThen(ctx context.Context, storeID, productID int64, row Row, then Then) error {
	row.StoreID, row.ProductID = storeID, productID
	if row.ReportedAt.IsZero() {
		row.ReportedAt = r.Now()
	}
	if err := check(&row); err != nil {
		return apperr.Invalidf("stock of product %d in store %d: %s", productID, storeID, err)
	}
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		var before *Row
		if then != nil {
			var err error
			if before, err = rowOf(ctx, tx, storeID, productID); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, putSQL(tx.Dialect() == db.SQLite, 1), putArgs(nil, &row)...); err != nil {
			return err
		}
		if then != nil {
			if err := then(ctx, tx, before); err != nil {
				return err
			}
		}
		return stamp(ctx, tx, []int64{storeID})
	})
	if db.ForeignKeyViolation(err) {
		return apperr.New(apperr.NotFound, "store %d or product %d does not exist", storeID, productID)
	}
	if err != nil {
		return fmt.Errorf("write stock of product %d in store %d: %w", productID, storeID, err)
	}
	return nil
}

// rowOf reads one store's row of one product inside tx (nil: none).
func rowOf(ctx context.Context, tx *db.Tx, storeID, productID int64) (*Row, error) {
	w, err := scanRow(tx.QueryRow(ctx, `SELECT `+rowColumns+` FROM stock WHERE store_id = $1 AND product_id = $2`, storeID, productID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read stock of product %d in store %d: %w", productID, storeID, err)
	}
	return w, nil
}

// Remove deletes one store's row of one product (the store no longer
// carries it). Removing a row that does not exist is no error and stamps
// nothing, so a repeated request does the same as one.
func (r *Repo) Remove(ctx context.Context, storeID, productID int64) error {
	return r.RemoveThen(ctx, storeID, productID, nil)
}

// RemoveThen is Remove, running then (when not nil) in its transaction
// with the removed row; when there was no row, then does not run.
func (r *Repo) RemoveThen(ctx context.Context, storeID, productID int64, then Then) error {
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		var before *Row
		if then != nil {
			var err error
			if before, err = rowOf(ctx, tx, storeID, productID); err != nil || before == nil {
				return err
			}
		}
		res, err := tx.Exec(ctx, "DELETE FROM stock WHERE store_id = $1 AND product_id = $2", storeID, productID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		if then != nil {
			if err := then(ctx, tx, before); err != nil {
				return err
			}
		}
		return stamp(ctx, tx, []int64{storeID})
	})
	if err != nil {
		return fmt.Errorf("remove stock of product %d in store %d: %w", productID, storeID, err)
	}
	return nil
}

// RemoveImported deletes the rows that a batch of one of sources (the
// names ImportRows was given) wrote or kept last: of store storeID (0:
// every store) and of product productID (0: every product). A row an owner
// or a feed wrote since belongs to no such batch and stays. It stamps the
// stores whose rows it removed and returns how many it removed.
func (r *Repo) RemoveImported(ctx context.Context, sources []string, storeID, productID int64) (int, error) {
	if len(sources) == 0 {
		return 0, nil
	}
	args := make([]any, 0, len(sources)+2)
	marks := make([]string, len(sources))
	for i, s := range sources {
		args = append(args, s)
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	where := "import_id IN (SELECT id FROM stock_imports WHERE source IN (" + strings.Join(marks, ", ") + "))"
	if storeID != 0 {
		args = append(args, storeID)
		where += fmt.Sprintf(" AND store_id = $%d", len(args))
	}
	if productID != 0 {
		args = append(args, productID)
		where += fmt.Sprintf(" AND product_id = $%d", len(args))
	}
	removed := 0
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, "SELECT DISTINCT store_id FROM stock WHERE "+where, args...)
		stores, err := db.Collect(rows, err, "read stock", func(sc db.Scanner) (*int64, error) {
			var id int64
			return &id, sc.Scan(&id)
		})
		if err != nil || len(stores) == 0 {
			return err
		}
		res, err := tx.Exec(ctx, "DELETE FROM stock WHERE "+where, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		removed = int(n)
		return stamp(ctx, tx, stores)
	})
	if err != nil {
		return 0, fmt.Errorf("remove stock of %s: %w", strings.Join(sources, ", "), err)
	}
	return removed, nil
}

// IfUnstocked runs fn in one transaction when no store's stock names
// product productID (the catalogue's key), and reports whether fn ran:
// how the catalogue removes a product only nothing stocks (removing it
// would remove the rows that name it). On SQLite the transaction holds
// the write lock from its start; on PostgreSQL a row written for the
// product in the instant between the check and fn's commit would go with
// it.
func (r *Repo) IfUnstocked(ctx context.Context, productID int64, fn func(tx *db.Tx) error) (bool, error) {
	ran := false
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM stock WHERE product_id = $1 LIMIT 1) s", productID).Scan(&n); err != nil {
			return fmt.Errorf("read stock of product %d: %w", productID, err)
		}
		if n > 0 {
			return nil
		}
		ran = true
		return fn(tx)
	})
	return ran && err == nil, err
}

// stampBatch is how many stores one statement stamps.
const stampBatch = 500

// stamp bumps the stock version inside tx and stamps the stores with it.
// Call it last in the transaction (see the comment at the top).
func stamp(ctx context.Context, tx *db.Tx, stores []int64) error {
	return stampBy(ctx, tx, stores, stampBatch)
}

// stampBy is stamp with batch stores a statement.
func stampBy(ctx context.Context, tx *db.Tx, stores []int64, batch int) error {
	if len(stores) == 0 {
		return nil
	}
	var v int64
	if err := tx.QueryRow(ctx, "UPDATE stock_version SET version = version + 1 WHERE id = 1 RETURNING version").Scan(&v); err != nil {
		return fmt.Errorf("bump stock version: %w", err)
	}
	stores = slices.Clone(stores)
	slices.Sort(stores)
	stores = slices.Compact(stores)
	args := make([]any, 0, 1+min(len(stores), batch))
	for rest := stores; len(rest) > 0; {
		n := min(len(rest), batch)
		var b strings.Builder
		b.WriteString("INSERT INTO stock_changes (store_id, version) VALUES ")
		args = append(args[:0], v)
		for i, s := range rest[:n] {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "($%d, $1)", i+2)
			args = append(args, s)
		}
		b.WriteString(" ON CONFLICT (store_id) DO UPDATE SET version = excluded.version")
		if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("stamp stock changes: %w", err)
		}
		rest = rest[n:]
	}
	// The partners' webhook events, in the change's transaction
	// (docs/webhooks.md): one per store whose stock changed.
	return events.WriteEach(ctx, tx, events.StockChanged, stores, func(id int64) any {
		return map[string]any{"store_id": id, "stock_version": v}
	})
}

// Version returns the current stock version: it grows with every stock
// write (see Set).
func (r *Repo) Version(ctx context.Context) (int64, error) {
	var v int64
	if err := r.db.QueryRow(ctx, "SELECT version FROM stock_version WHERE id = 1").Scan(&v); err != nil {
		return 0, fmt.Errorf("read stock version: %w", err)
	}
	return v, nil
}

// ChangedStores returns the stores whose stock was written after version
// since, in (version, store) order, and the highest version among them
// (since when there are none). Read the version first (Version), then
// this: every store changed up to that version is in the answer.
func (r *Repo) ChangedStores(ctx context.Context, since int64) ([]int64, int64, error) {
	rows, err := r.db.Query(ctx, "SELECT store_id, version FROM stock_changes WHERE version > $1 ORDER BY version, store_id", since)
	if err != nil {
		return nil, 0, fmt.Errorf("read stock changes: %w", err)
	}
	defer rows.Close()
	var out []int64
	top := since
	for rows.Next() {
		var s, v int64
		if err := rows.Scan(&s, &v); err != nil {
			return nil, 0, fmt.Errorf("read stock changes: %w", err)
		}
		out = append(out, s)
		top = max(top, v)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read stock changes: %w", err)
	}
	return out, top, nil
}

// ChangedSince counts the stores whose stock was written after version
// since: what a search snapshot's stock side lacks.
func (r *Repo) ChangedSince(ctx context.Context, since int64) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stock_changes WHERE version > $1", since).Scan(&n); err != nil {
		return 0, fmt.Errorf("count stock changes: %w", err)
	}
	return n, nil
}

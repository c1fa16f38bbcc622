package medusa

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
)

// Deletions in Medusa mirrored (docs/products.md, "From the marketplace
// (Medusa)"). Medusa soft-deletes: a deleted product or variant keeps its
// record with a deleted_at, which its admin lists show when asked
// with_deleted. A variant deleted (or whose product is) is withdrawn: the
// stock rows the sync wrote for it are removed from every store, and its
// catalogue product too when no store's stock names it any more; rows that
// owners or feeds wrote are never touched. A stock location no longer in
// Medusa's list is gone: its mapping stays, flagged, and the stock rows it
// gave its store are removed.

// deleted returns the variants Medusa deleted after after, each with when
// (variants of deleted products included), and moves next past them.
func (s *Syncer) deleted(ctx context.Context, after string, next *string) (map[string]string, error) {
	vs, err := s.client.DeletedVariants(ctx, after)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, v := range vs {
		*next = later(*next, v.DeletedAt)
		out[v.ID] = v.DeletedAt
	}
	ps, err := s.client.DeletedProducts(ctx, after)
	if err != nil {
		return nil, err
	}
	when := map[string]string{}
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		*next = later(*next, p.DeletedAt)
		when[p.ID] = p.DeletedAt
		ids = append(ids, p.ID)
	}
	// Deleting a product deletes its variants with it; the product's
	// variants as last read stand in for a server that does not list them.
	for len(ids) > 0 {
		n := min(len(ids), 500)
		marks := make([]string, n)
		args := make([]any, n)
		for i, id := range ids[:n] {
			marks[i], args[i] = fmt.Sprintf("$%d", i+1), id
		}
		rows, err := s.db.Query(ctx, `SELECT variant_id, medusa_product_id FROM medusa_variants
			WHERE deleted_at = '' AND medusa_product_id IN (`+strings.Join(marks, ", ")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("read variants: %w", err)
		}
		for rows.Next() {
			var v, p string
			if err := rows.Scan(&v, &p); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read variants: %w", err)
			}
			if _, ok := out[v]; !ok {
				out[v] = when[p]
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("read variants: %w", err)
		}
		ids = ids[n:]
	}
	return out, nil
}

// withdraw withdraws the variants gone (id: Medusa's deleted_at) that the
// catalogue holds from Medusa. Each step can be done again: the variant is
// marked last, so a run that stops halfway does the rest the next time
// (its cursor has not moved).
func (s *Syncer) withdraw(ctx context.Context, gone map[string]string, rep *Report) error {
	if len(gone) == 0 {
		return nil
	}
	rows, err := s.db.Query(ctx, `SELECT variant_id, product_id FROM medusa_variants WHERE deleted_at = ''`)
	if err != nil {
		return fmt.Errorf("read variants: %w", err)
	}
	live := map[string]string{} // variant -> catalogue product
	sellers := map[string]int{} // catalogue product -> live variants
	for rows.Next() {
		var v, p string
		if err := rows.Scan(&v, &p); err != nil {
			rows.Close()
			return fmt.Errorf("read variants: %w", err)
		}
		live[v] = p
		sellers[p]++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read variants: %w", err)
	}
	sources, err := s.stockSources(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(gone))
	for id := range gone {
		if _, ok := live[id]; ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		pid := live[id]
		sellers[pid]--
		// Another variant of the marketplace still sells the same
		// catalogue product (a SKU moved to a new variant): it stays.
		if sellers[pid] == 0 {
			if err := s.removeProduct(ctx, pid, sources, rep); err != nil {
				return fmt.Errorf("withdraw variant %s (product %s): %w", id, pid, err)
			}
		}
		at := gone[id]
		if at == "" {
			at = s.Now().UTC().Format(time.RFC3339Nano)
		}
		if _, err := s.db.Exec(ctx, `UPDATE medusa_variants SET deleted_at = $1, digest = '' WHERE variant_id = $2`, at, id); err != nil {
			return fmt.Errorf("withdraw variant %s: %w", id, err)
		}
		rep.Withdrawn++
	}
	return nil
}

// removeProduct removes the sync's stock rows of catalogue product pid from
// every store, then the product itself when no stock names it any more.
func (s *Syncer) removeProduct(ctx context.Context, pid string, sources []string, rep *Report) error {
	p, err := s.cat.Get(ctx, pid)
	if catalog.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	n, err := s.stock.RemoveImported(ctx, sources, 0, p.ID)
	if err != nil {
		return err
	}
	rep.StockRemoved += n
	removed := false
	if _, err := s.stock.IfUnstocked(ctx, p.ID, func(tx *db.Tx) error {
		removed, err = catalog.DeleteIn(ctx, tx, pid)
		return err
	}); err != nil {
		return err
	}
	if removed {
		rep.ProductsRemoved++
	}
	return nil
}

// stockSources are the stock batch names of every location a sync read.
func (s *Syncer) stockSources(ctx context.Context) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT location_id FROM medusa_locations ORDER BY location_id`)
	if err != nil {
		return nil, fmt.Errorf("read stock locations: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read stock locations: %w", err)
		}
		out = append(out, s.stockSource(id))
	}
	return out, rows.Err()
}

// locationsGone flags the locations a sync read before that Medusa's list
// (seen) no longer holds, and removes the stock rows a gone location gave
// its store; a location back in the list is read whole again.
func (s *Syncer) locationsGone(ctx context.Context, seen map[string]bool, rep *Report) error {
	type known struct {
		id    string
		store *int64
		gone  bool
	}
	rows, err := s.db.Query(ctx, `SELECT location_id, store_id, gone_at IS NOT NULL FROM medusa_locations ORDER BY location_id`)
	if err != nil {
		return fmt.Errorf("read stock locations: %w", err)
	}
	var all []known
	for rows.Next() {
		var k known
		if err := rows.Scan(&k.id, &k.store, &k.gone); err != nil {
			rows.Close()
			return fmt.Errorf("read stock locations: %w", err)
		}
		all = append(all, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read stock locations: %w", err)
	}
	now := s.Now().UTC()
	for _, k := range all {
		switch {
		case seen[k.id] && k.gone:
			if _, err := s.db.Exec(ctx, `UPDATE medusa_locations SET gone_at = NULL, stock_after = '', full_at = NULL
				WHERE location_id = $1`, k.id); err != nil {
				return fmt.Errorf("location %s back: %w", k.id, err)
			}
		case !seen[k.id] && !k.gone:
			if k.store != nil {
				n, err := s.stock.RemoveImported(ctx, []string{s.stockSource(k.id)}, *k.store, 0)
				if err != nil {
					return fmt.Errorf("location %s gone: %w", k.id, err)
				}
				rep.StockRemoved += n
			}
			if _, err := s.db.Exec(ctx, `UPDATE medusa_locations SET gone_at = $1 WHERE location_id = $2`, now, k.id); err != nil {
				return fmt.Errorf("location %s gone: %w", k.id, err)
			}
			rep.LocationsGone++
		}
	}
	return nil
}

package medusa

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/inventory"
)

// Overlap is how far before its cursor each incremental read starts: a
// Medusa write stamped before the cursor but committed after the last read
// (a long workflow) is read the next time. What is read again and has not
// changed is not written again (the variants' digests); stock levels read
// again are reported again.
const Overlap = time.Minute

// FullEvery is how often a mapped location's stock is read whole rather
// than from its cursor: every row is then reported again, so stock that
// did not move in Medusa does not turn stale here (7 days, docs/products.md).
const FullEvery = 24 * time.Hour

// The availability rule: a level's available_quantity (stocked less
// reserved) above LimitedAtMost is in stock, from 1 to LimitedAtMost
// limited, 0 or less out of stock.
const LimitedAtMost = 5

// Availability is the feed's availability of an available quantity.
func Availability(available int64) inventory.Availability {
	switch {
	case available > LimitedAtMost:
		return inventory.InStock
	case available > 0:
		return inventory.LimitedAvailability
	default:
		return inventory.OutOfStock
	}
}

// Syncer copies one Medusa server's catalogue and mapped stock into the
// locator's database.
type Syncer struct {
	client *Client
	db     *db.DB
	cat    *catalog.Repo
	stock  *inventory.Repo
	Now    func() time.Time
}

// NewSyncer returns the syncer of c into the catalogue and stock of d.
func NewSyncer(c *Client, d *db.DB, cat *catalog.Repo, stock *inventory.Repo) *Syncer {
	return &Syncer{client: c, db: d, cat: cat, stock: stock, Now: time.Now}
}

// RowError is a variant or a stock level that was not written, and why.
type RowError struct {
	What    string `json:"what"` // "variant ID (product ID)" or "location ID, item ID"
	Message string `json:"message"`
}

// Report is what one run did.
type Report struct {
	Source    string `json:"source"`
	Locations int    `json:"locations"` // stock locations read
	Mapped    int    `json:"mapped"`    // of which mapped to a store
	Variants  int    `json:"variants"`  // variants read (changed since the cursor, or all)
	Written   int    `json:"written"`   // of which written to the catalogue (new or changed)
	Skipped   int    `json:"skipped"`   // of products not published
	Stock     int    `json:"stock"`     // stock rows written
	Failed    int    `json:"failed"`    // variants and levels refused
	// Deletions in Medusa mirrored (docs/products.md): variants withdrawn
	// (deleted, or their product deleted), their catalogue products
	// removed (no store's stock named them any more), the sync's stock
	// rows removed (of withdrawn variants and of locations gone), and the
	// stock locations no longer in Medusa.
	Withdrawn       int        `json:"withdrawn"`
	ProductsRemoved int        `json:"products_removed"`
	StockRemoved    int        `json:"stock_removed"`
	LocationsGone   int        `json:"locations_gone"`
	Errors          []RowError `json:"errors"` // the first MaxErrors
	Cursor          string     `json:"cursor"` // the catalogue's cursor after the run
}

// MaxErrors is how many refused records a report lists (all are counted).
const MaxErrors = 1000

func (r *Report) fail(what, msg string) {
	r.Failed++
	if len(r.Errors) < MaxErrors {
		r.Errors = append(r.Errors, RowError{What: what, Message: msg})
	}
}

// Run reads the stock locations, the catalogue changed since the cursor
// and the stock of every mapped location, and writes them. Each part
// that succeeds is kept (the catalogue's cursor moves once its products
// are written), so a failure halfway costs only the rest; the error names
// the part.
func (s *Syncer) Run(ctx context.Context) (*Report, error) {
	src := s.client.Source()
	rep := &Report{Source: src, Errors: []RowError{}}
	if err := s.ensureSource(ctx, src); err != nil {
		return rep, err
	}
	err := s.run(ctx, src, rep)
	// What the run withdrew, failed or not, for --status and /admin.
	if _, e := s.db.Exec(context.WithoutCancel(ctx), `UPDATE medusa_sync SET last_withdrawn = $1, last_products_removed = $2,
		last_stock_removed = $3, last_locations_gone = $4 WHERE source = $5`,
		rep.Withdrawn, rep.ProductsRemoved, rep.StockRemoved, rep.LocationsGone, src); e != nil {
		err = errors.Join(err, fmt.Errorf("record the deletions: %w", e))
	}
	return rep, err
}

func (s *Syncer) run(ctx context.Context, src string, rep *Report) error {
	if err := s.syncLocations(ctx, rep); err != nil {
		return fmt.Errorf("stock locations: %w", err)
	}
	if err := s.syncCatalogue(ctx, src, rep); err != nil {
		return fmt.Errorf("catalogue: %w", err)
	}
	if err := s.syncStock(ctx, rep); err != nil {
		return fmt.Errorf("stock: %w", err)
	}
	return nil
}

// stockSource names the stock batches of location loc (inventory's
// import source): the rows they wrote are the sync's to remove.
func (s *Syncer) stockSource(loc string) string {
	return "medusa " + s.client.Source() + " location " + loc
}

func (s *Syncer) ensureSource(ctx context.Context, src string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO medusa_sync (source) VALUES ($1) ON CONFLICT (source) DO NOTHING`, src)
	if err != nil {
		return fmt.Errorf("medusa sync state: %w", err)
	}
	return nil
}

// since is the cursor less the overlap, as Medusa's filters take it.
func since(cursor string) string {
	if cursor == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, cursor)
	if err != nil {
		return ""
	}
	return t.Add(-Overlap).UTC().Format("2006-01-02T15:04:05.000Z")
}

// later returns the later of two Medusa times (RFC 3339), a if b does not
// parse.
func later(a, b string) string {
	tb, err := time.Parse(time.RFC3339Nano, b)
	if err != nil {
		return a
	}
	if ta, err := time.Parse(time.RFC3339Nano, a); err == nil && !tb.After(ta) {
		return a
	}
	return b
}

func (s *Syncer) syncCatalogue(ctx context.Context, src string, rep *Report) error {
	var cursor string
	if err := s.db.QueryRow(ctx, `SELECT catalogue_after FROM medusa_sync WHERE source = $1`, src).Scan(&cursor); err != nil {
		return fmt.Errorf("read the cursor: %w", err)
	}
	after := since(cursor)
	products, err := s.client.Products(ctx, after)
	if err != nil {
		return err
	}
	next := cursor
	seen := map[string]bool{}
	for _, p := range products {
		seen[p.ID] = true
		next = later(next, p.UpdatedAt)
	}
	// A variant's change does not move its product's updated_at: the
	// products of changed variants are read too.
	variants, err := s.client.ChangedVariants(ctx, after)
	if err != nil {
		return err
	}
	var more []string
	for _, v := range variants {
		next = later(next, v.UpdatedAt)
		if v.ProductID != "" && !seen[v.ProductID] {
			seen[v.ProductID] = true
			more = append(more, v.ProductID)
		}
	}
	if len(more) > 0 {
		ps, err := s.client.ProductsByID(ctx, more)
		if err != nil {
			return err
		}
		products = append(products, ps...)
	}
	if err := s.writeCatalogue(ctx, products, rep); err != nil {
		return err
	}
	gone, err := s.deleted(ctx, after, &next)
	if err != nil {
		return err
	}
	if err := s.withdraw(ctx, gone, rep); err != nil {
		return err
	}
	if next != cursor {
		if _, err := s.db.Exec(ctx, `UPDATE medusa_sync SET catalogue_after = $1 WHERE source = $2`, next, src); err != nil {
			return fmt.Errorf("save the cursor: %w", err)
		}
	}
	rep.Cursor = next
	return nil
}

// variantRow is what a variant leaves in medusa_variants.
type variantRow struct {
	variantID, productID, itemID, price, digest, medusaProduct string
}

func (s *Syncer) writeCatalogue(ctx context.Context, products []Product, rep *Report) error {
	known, err := s.digests(ctx)
	if err != nil {
		return err
	}
	var recs []catalog.Record
	var rows []variantRow
	for i := range products {
		p := &products[i]
		if p.Status != "" && p.Status != "published" {
			rep.Skipped += len(p.Variants)
			continue
		}
		for j := range p.Variants {
			v := &p.Variants[j]
			rep.Variants++
			rec := record(p, v)
			item := ""
			if len(v.InventoryItems) > 0 {
				item = v.InventoryItems[0].InventoryItemID
			}
			price := priceOf(v)
			d := digest(rec, item, price)
			if known[v.ID] == d {
				continue
			}
			recs = append(recs, rec)
			rows = append(rows, variantRow{variantID: v.ID, productID: rec["id"], itemID: item, price: price, digest: d, medusaProduct: p.ID})
		}
	}
	if len(recs) == 0 {
		return nil
	}
	cr, err := s.cat.ImportRecords(ctx, recs)
	if err != nil {
		return err
	}
	refused := map[int]bool{}
	for _, e := range cr.Errors {
		refused[e.Line] = true
		w := rows[e.Line-1]
		rep.fail(fmt.Sprintf("variant %s (product %s)", w.variantID, w.productID), e.Message)
	}
	if extra := cr.Failed - len(cr.Errors); extra > 0 {
		rep.Failed += extra
	}
	rep.Written += cr.Created + cr.Updated
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for i, w := range rows {
			if refused[i+1] {
				continue
			}
			if _, err := tx.Exec(ctx, `INSERT INTO medusa_variants (variant_id, product_id, inventory_item_id, price, digest,
				medusa_product_id, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, '') ON CONFLICT (variant_id) DO UPDATE SET
				product_id = excluded.product_id, inventory_item_id = excluded.inventory_item_id, price = excluded.price,
				digest = excluded.digest, medusa_product_id = excluded.medusa_product_id, deleted_at = ''`,
				w.variantID, w.productID, w.itemID, w.price, w.digest, w.medusaProduct); err != nil {
				return fmt.Errorf("record variant %s: %w", w.variantID, err)
			}
		}
		return nil
	})
}

func (s *Syncer) digests(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.Query(ctx, `SELECT variant_id, digest FROM medusa_variants`)
	if err != nil {
		return nil, fmt.Errorf("read variants: %w", err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var id, d string
		if err := rows.Scan(&id, &d); err != nil {
			return nil, fmt.Errorf("read variants: %w", err)
		}
		m[id] = d
	}
	return m, rows.Err()
}

// mapped is a location mapped to a store, with its stock cursor.
type mapped struct {
	locationID string
	storeID    int64
	after      string
	fullAt     sql.NullTime
}

func (s *Syncer) syncStock(ctx context.Context, rep *Report) error {
	rows, err := s.db.Query(ctx, `SELECT location_id, store_id, stock_after, full_at FROM medusa_locations
		WHERE store_id IS NOT NULL AND gone_at IS NULL ORDER BY location_id`)
	if err != nil {
		return fmt.Errorf("read the mapping: %w", err)
	}
	var locs []mapped
	for rows.Next() {
		var m mapped
		if err := rows.Scan(&m.locationID, &m.storeID, &m.after, &m.fullAt); err != nil {
			rows.Close()
			return fmt.Errorf("read the mapping: %w", err)
		}
		locs = append(locs, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the mapping: %w", err)
	}
	rep.Mapped = len(locs)
	if len(locs) == 0 {
		return nil
	}
	byItem, err := s.itemProducts(ctx)
	if err != nil {
		return err
	}
	for _, m := range locs {
		if err := s.syncLocation(ctx, m, byItem, rep); err != nil {
			return fmt.Errorf("location %s: %w", m.locationID, err)
		}
	}
	return nil
}

// itemProducts maps each inventory item to the catalogue products (and
// their prices) of the variants that use it.
func (s *Syncer) itemProducts(ctx context.Context) (map[string][][2]string, error) {
	rows, err := s.db.Query(ctx, `SELECT inventory_item_id, product_id, price FROM medusa_variants
		WHERE inventory_item_id <> '' AND deleted_at = '' ORDER BY inventory_item_id, product_id`)
	if err != nil {
		return nil, fmt.Errorf("read variants: %w", err)
	}
	defer rows.Close()
	m := map[string][][2]string{}
	for rows.Next() {
		var item, pid, price string
		if err := rows.Scan(&item, &pid, &price); err != nil {
			return nil, fmt.Errorf("read variants: %w", err)
		}
		m[item] = append(m[item], [2]string{pid, price})
	}
	return m, rows.Err()
}

func (s *Syncer) syncLocation(ctx context.Context, m mapped, byItem map[string][][2]string, rep *Report) error {
	now := s.Now().UTC()
	full := !m.fullAt.Valid || now.Sub(m.fullAt.Time) >= FullEvery
	levels, err := s.client.Levels(ctx, m.locationID)
	if err != nil {
		return err
	}
	// Medusa's admin API has no filter on a level's updated_at: the
	// location's levels are read whole, and only those that differ from
	// the store's rows are written (all of them on a full read).
	have, err := s.stock.ForStore(ctx, m.storeID)
	if err != nil {
		return err
	}
	current := make(map[string]inventory.Row, len(have))
	for _, r := range have {
		current[r.Product] = r
	}
	next := m.after
	var feed []inventory.FeedRow
	var what []string
	for _, l := range levels {
		next = later(next, l.UpdatedAt)
		products, ok := byItem[l.InventoryItemID]
		if !ok {
			continue // an item of no variant the catalogue holds
		}
		avail, err := quantity(l.AvailableQuantity)
		if err != nil {
			rep.fail(fmt.Sprintf("location %s, item %s", m.locationID, l.InventoryItemID), err.Error())
			continue
		}
		avail = max(avail, 0)
		for _, p := range products {
			row := inventory.FeedRow{Store: m.storeID, ID: p[0], Availability: string(Availability(avail)),
				Quantity: strconv.FormatInt(avail, 10), Price: p[1]}
			if !full && same(current[p[0]], row, avail) {
				continue
			}
			feed = append(feed, row)
			what = append(what, fmt.Sprintf("location %s, item %s (product %s)", m.locationID, l.InventoryItemID, p[0]))
		}
	}
	if len(feed) > 0 {
		ir, err := s.stock.ImportRows(ctx, feed, s.stockSource(m.locationID), nil)
		if err != nil {
			return err
		}
		rep.Stock += ir.Rows
		for _, e := range ir.Errors {
			rep.fail(what[e.Line-1], e.Message)
		}
		if extra := ir.Failed - len(ir.Errors); extra > 0 {
			rep.Failed += extra
		}
	}
	q := `UPDATE medusa_locations SET stock_after = $1 WHERE location_id = $2 AND store_id = $3`
	args := []any{next, m.locationID, m.storeID}
	if full {
		q = `UPDATE medusa_locations SET stock_after = $1, full_at = $4 WHERE location_id = $2 AND store_id = $3`
		args = append(args, now)
	}
	if _, err := s.db.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("save the stock cursor: %w", err)
	}
	return nil
}

// same reports whether the store's row already says what the level says.
func same(have inventory.Row, want inventory.FeedRow, avail int64) bool {
	if have.Product == "" || string(have.Availability) != want.Availability || have.Quantity == nil || *have.Quantity != avail {
		return false
	}
	if have.Price == nil {
		return want.Price == ""
	}
	return have.Price.String() == want.Price
}

// quantity reads a level's quantity: a whole number (Medusa keeps them as
// numerics, and a JSON number may be written 3.0).
func quantity(n json.Number) (int64, error) {
	if n == "" {
		return 0, errors.New("the level has no available_quantity")
	}
	f, err := n.Float64()
	if err != nil || f != float64(int64(f)) || f > 1e9 || f < -1e9 {
		return 0, fmt.Errorf("available_quantity %s is not a whole number", clip(n.String()))
	}
	return int64(f), nil
}

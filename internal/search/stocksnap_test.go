package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// stockFixture is a database of varied stores carrying the catalogue
// fixture's products: rows with and without quantity (some too large for
// a row's 16 bits), price and sale price, every availability, reported at
// different times, and rows of a hidden store (outside the index).
type stockFixture struct {
	repo   *stores.Repo
	stock  *inventory.Repo
	cat    *catalog.Repo
	law    *productlaw.Repo
	ss     []*stores.Store
	prods  []int64
	hidden int64
}

func newStockFixture(t *testing.T, ctx context.Context, repo *stores.Repo) *stockFixture {
	t.Helper()
	pf := newProductFixture(t, ctx, repo)
	f := &stockFixture{repo: repo, stock: pf.stock, cat: pf.cat, law: pf.law}
	f.ss = snapshotStores(t, ctx, repo, 300, 3)
	all, err := f.cat.All(ctx)
	dbtest.Must(t, err, "catalogue")
	for _, p := range all {
		f.prods = append(f.prods, p.ID)
	}
	rng := rand.New(rand.NewPCG(4, 2))
	now := time.Now().UTC().Truncate(time.Second)
	var rows []inventory.Row
	for i, s := range f.ss {
		for _, p := range f.prods {
			if rng.IntN(3) != 0 {
				continue
			}
			r := inventory.Row{StoreID: s.ID, ProductID: p, Availability: inventory.Availabilities[rng.IntN(len(inventory.Availabilities))],
				ReportedAt: now.Add(-time.Duration(rng.IntN(20*24)) * time.Hour)}
			switch rng.IntN(4) {
			case 0:
				q := int64(rng.IntN(100))
				r.Quantity = &q
			case 1:
				q := int64(70_000 + i) // more than a row's 16 bits hold
				r.Quantity = &q
			}
			if rng.IntN(2) == 0 {
				r.Price = &inventory.Price{Amount: int64(999 + rng.IntN(4)*500), Currency: "USD"}
				if rng.IntN(3) == 0 {
					r.SalePrice = &inventory.Price{Amount: 899, Currency: "USD"}
				}
			}
			rows = append(rows, r)
		}
	}
	dbtest.Must(t, f.stock.Put(ctx, rows), "put stock")
	f.hidden = f.ss[5].ID
	dbtest.Must(t, repo.SetStatus(ctx, f.hidden, stores.Hidden), "hide")
	return f
}

// replica loads a replica's index with products, checking what it read the
// stores and the stock from ("rows" or "snapshot").
func (f *stockFixture) replica(t *testing.T, ctx context.Context, mode SnapshotMode, from, stockFrom string) (*Syncer, *Index) {
	t.Helper()
	ix := NewIndex()
	sy := NewSyncer(f.repo, ix, mode, quiet).WithProducts(f.stock, f.cat, f.law)
	dbtest.Must(t, sy.Load(ctx), "load")
	if sy.from != from || sy.prod.from != stockFrom {
		t.Fatalf("loaded the stores from %s and the stock from %s, want %s and %s", sy.from, sy.prod.from, from, stockFrom)
	}
	return sy, ix
}

// dumpStock lists the product side: per product its rows in the order the
// index keeps them, with every value.
func dumpStock(ix *Index) []string {
	p := ix.prod
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p.mu.RLock()
	keys := make([]int64, 0, len(p.stock))
	for k := range p.stock {
		keys = append(keys, k)
	}
	rows := p.rows
	p.mu.RUnlock()
	slices.Sort(keys)
	out := []string{fmt.Sprintf("%d rows", rows)}
	for _, k := range keys {
		c := p.carriersOf(k)
		out = append(out, fmt.Sprintf("product %d: %d rows, %d placed, %d boxes", k, len(c.ids), c.placed, len(c.boxes)))
		for i, id := range c.ids {
			out = append(out, fmt.Sprintf("  %d %d %+v", k, id, p.row(k, c, i)))
		}
	}
	return out
}

func checkSameStock(t *testing.T, got, want *Index) {
	t.Helper()
	g, w := dumpStock(got), dumpStock(want)
	if len(g) < 100 {
		t.Fatalf("only %d lines of stock: the fixture carries too little", len(g))
	}
	if !slices.Equal(g, w) {
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("stock differs first at:\n got  %s\n want %s", g[i], w[i])
			}
		}
		t.Fatalf("stock differs: %d vs %d lines", len(g), len(w))
	}
}

// A snapshot carries the stock side: a replica starting from it reads no
// stock row but those of the stores stamped since, and holds what a
// replica reading every row holds, on both engines; it keeps following
// the stock; a new snapshot is due when the stock changed.
func TestStockSnapshotStartsAReplicaLikeTheRows(t *testing.T) {
	defer func(n int) { partStockRows = n }(partStockRows)
	partStockRows = 50 // many parts
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		f := newStockFixture(t, ctx, repo)
		first, _ := f.replica(t, ctx, SnapshotAlways, "rows", "rows")
		wrote, err := first.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write snapshot")
		if !wrote {
			t.Fatal("no snapshot written")
		}
		var parts, stockParts, stockRows int
		var stockVersion int64
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshot_stock").Scan(&parts), "count parts")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT stock_version, stock_parts, stock_rows FROM search_snapshots").
			Scan(&stockVersion, &stockParts, &stockRows), "header")
		if parts < 5 || parts != stockParts || stockRows != first.index.prod.Rows() || stockVersion != first.StockVersion() {
			t.Fatalf("%d stock parts (header: %d, %d rows at version %d), want several, %d rows at version %d",
				parts, stockParts, stockRows, stockVersion, first.index.prod.Rows(), first.StockVersion())
		}
		if wrote, err := first.WriteSnapshot(ctx); err != nil || wrote {
			t.Fatalf("nothing changed, yet wrote %v (%v)", wrote, err)
		}

		// A start right after: the same stock, read from the snapshot.
		_, want := f.replica(t, ctx, SnapshotOff, "rows", "rows")
		_, got := f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)

		// Stock changes after the snapshot: an owner's set and removal, a
		// feed's rows, a store that moved (its rows change places).
		q := int64(123_456)
		dbtest.Must(t, f.stock.Set(ctx, f.ss[0].ID, f.prods[0], inventory.Row{Availability: inventory.LimitedAvailability, Quantity: &q}), "set")
		dbtest.Must(t, f.stock.Remove(ctx, f.ss[1].ID, f.prods[1]), "remove")
		dbtest.Must(t, f.stock.Remove(ctx, f.ss[2].ID, f.prods[1]), "remove")
		dbtest.Must(t, f.stock.Put(ctx, []inventory.Row{
			{StoreID: f.ss[3].ID, ProductID: f.prods[2], Availability: inventory.OutOfStock, ReportedAt: time.Now().UTC()},
			{StoreID: f.hidden, ProductID: f.prods[3], Availability: inventory.InStock, ReportedAt: time.Now().UTC()},
		}), "put")
		f.ss[4].Latitude, f.ss[4].Longitude = 47.6, -122.3
		dbtest.Must(t, repo.Update(ctx, f.ss[4]), "move")
		// Stores that left the index or entered it: their rows change
		// sides (placed or not), the products they carry are arranged again.
		dbtest.Must(t, repo.SetStatus(ctx, f.ss[8].ID, stores.Hidden), "hide")
		dbtest.Must(t, repo.SetStatus(ctx, f.hidden, stores.Published), "publish the hidden store")

		fresh, want := f.replica(t, ctx, SnapshotOff, "rows", "rows")
		second, got := f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)
		checkSame(t, got, want)
		checkArranged(t, got, got.prod)
		if second.StockVersion() != fresh.StockVersion() {
			t.Fatalf("stock versions %d and %d", second.StockVersion(), fresh.StockVersion())
		}

		// It follows later changes as any replica does.
		dbtest.Must(t, f.stock.Set(ctx, f.ss[6].ID, f.prods[4], inventory.Row{Availability: inventory.InStock}), "set again")
		dbtest.Must(t, second.Poll(ctx), "poll")
		_, want = f.replica(t, ctx, SnapshotOff, "rows", "rows")
		checkSameStock(t, got, want)

		// Stock changed since the snapshot (the stores did too, but a
		// stock change alone is enough): a new one, the old one gone.
		wrote, err = second.WriteSnapshot(ctx)
		dbtest.Must(t, err, "rewrite")
		if !wrote {
			t.Fatal("stock changed since the snapshot, yet none written")
		}
		dbtest.Must(t, f.stock.Set(ctx, f.ss[7].ID, f.prods[4], inventory.Row{Availability: inventory.InStock}), "set once more")
		dbtest.Must(t, second.Poll(ctx), "poll")
		wrote, err = second.WriteSnapshot(ctx)
		dbtest.Must(t, err, "rewrite after a stock change")
		if !wrote {
			t.Fatal("only the stock changed since the snapshot, yet none written")
		}
		var snaps, orphans int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshots").Scan(&snaps), "count")
		dbtest.Must(t, d.QueryRow(ctx, `SELECT COUNT(*) FROM search_snapshot_stock
			WHERE snapshot_id NOT IN (SELECT id FROM search_snapshots)`).Scan(&orphans), "orphans")
		if snaps != 1 || orphans != 0 {
			t.Fatalf("%d snapshots and %d orphan stock parts after a rewrite", snaps, orphans)
		}
		_, want = f.replica(t, ctx, SnapshotOff, "rows", "rows")
		_, got = f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)
	})
}

// A stock side that is damaged, incomplete, of another format, newer than
// the database's stock, or missing (a snapshot written before stock sides
// existed) is not used: the replica reads every stock row and holds the
// same stock, while its stores still come from the snapshot.
func TestStockSnapshotUnusableFallsBackToRows(t *testing.T) {
	defer func(n int) { partStockRows = n }(partStockRows)
	partStockRows = 50
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		f := newStockFixture(t, ctx, repo)
		sy, _ := f.replica(t, ctx, SnapshotAlways, "rows", "rows")
		wrote, err := sy.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write snapshot")
		if !wrote {
			t.Fatal("no snapshot written")
		}
		_, want := f.replica(t, ctx, SnapshotOff, "rows", "rows")
		var id int64
		dbtest.Must(t, d.QueryRow(ctx, "SELECT id FROM search_snapshots").Scan(&id), "id")
		saved := savedStockParts(t, ctx, d)
		if len(saved) < 3 {
			t.Fatalf("%d stock parts, want several", len(saved))
		}
		var header [4]int64
		dbtest.Must(t, d.QueryRow(ctx, "SELECT stock_version, stock_format, stock_parts, stock_rows FROM search_snapshots").
			Scan(&header[0], &header[1], &header[2], &header[3]), "header")
		// A part that decodes but holds rows the others hold too.
		dup := saved[0]
		for _, c := range []struct {
			name, sql string
			args      []any
		}{
			{"damaged part", "UPDATE search_snapshot_stock SET data = $1 WHERE part = 1", []any{[]byte("not a snapshot at all")}},
			{"a part twice", "UPDATE search_snapshot_stock SET data = $1 WHERE part = 2", []any{dup}},
			{"missing part", "DELETE FROM search_snapshot_stock WHERE part = 2", nil},
			{"rows do not add up", "UPDATE search_snapshots SET stock_rows = stock_rows + 1", nil},
			{"newer than the database", "UPDATE search_snapshots SET stock_version = stock_version + 1000", nil},
			{"another format", "UPDATE search_snapshots SET stock_format = stock_format + 1", nil},
			{"no stock side", "UPDATE search_snapshots SET stock_version = NULL, stock_format = 0, stock_parts = 0, stock_rows = 0", nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := d.Exec(ctx, c.sql, c.args...)
				dbtest.Must(t, err, "damage")
				_, got := f.replica(t, ctx, SnapshotAlways, "snapshot", "rows")
				checkSameStock(t, got, want)
				// Restore the intact snapshot for the next case.
				_, err = d.Exec(ctx, "DELETE FROM search_snapshot_stock")
				dbtest.Must(t, err, "clear")
				for p, b := range saved {
					dbtest.Must(t, snapRepo{d}.putStockPart(ctx, id, p, b), "restore part")
				}
				_, err = d.Exec(ctx, "UPDATE search_snapshots SET stock_version = $1, stock_format = $2, stock_parts = $3, stock_rows = $4",
					header[0], header[1], header[2], header[3])
				dbtest.Must(t, err, "restore header")
			})
		}
		_, got := f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)

		// A snapshot without a stock side is due for one.
		_, err = d.Exec(ctx, "UPDATE search_snapshots SET stock_version = NULL")
		dbtest.Must(t, err, "drop the stock side")
		wrote, err = sy.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write again")
		if !wrote {
			t.Fatal("the snapshot has no stock side, yet none written")
		}
		_, got = f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)
	})
}

func savedStockParts(t *testing.T, ctx context.Context, d *db.DB) [][]byte {
	t.Helper()
	var saved [][]byte
	rows, err := d.Query(ctx, "SELECT data FROM search_snapshot_stock ORDER BY part")
	dbtest.Must(t, err, "save parts")
	defer rows.Close()
	for rows.Next() {
		var b []byte
		dbtest.Must(t, rows.Scan(&b), "scan")
		saved = append(saved, b)
	}
	dbtest.Must(t, rows.Err(), "rows")
	return saved
}

// A stock part cut short anywhere, or with a byte changed, is refused
// (or, for a changed value that is still in range, read as some rows), never
// a panic or a huge allocation.
func TestDecodeStockPartRejectsDamage(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	ix, _ := stockIndex(t, rng, 500, 0)
	v := ix.prod.view(1)
	keys := []int64{1, 2, 3, 4}
	raw := v.appendPart(nil, keys)
	enc, _ := zstd.NewWriter(nil)
	defer enc.Close()
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	whole, err := ix.prod.decodeStockPart(dec, enc.EncodeAll(raw, nil))
	dbtest.Must(t, err, "decode the whole part")
	if whole.rows != v.rows {
		t.Fatalf("%d rows read back, want %d", whole.rows, v.rows)
	}
	for n := 0; n < len(raw); n += 1 + n/50 {
		if _, err := ix.prod.decodeStockPart(dec, enc.EncodeAll(raw[:n], nil)); err == nil {
			t.Fatalf("a part cut at %d of %d bytes was read", n, len(raw))
		}
	}
	for range 300 {
		bad := slices.Clone(raw)
		bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		_, _ = ix.prod.decodeStockPart(dec, enc.EncodeAll(bad, nil))
	}
	if _, err := ix.prod.decodeStockPart(dec, []byte("not zstd")); err == nil {
		t.Fatal("a part that is not zstd was read")
	}
}

// stockIndex is an index of n random stores (randomEntries) and, hidden
// (outside the index), hidden more, carrying 4 products about two in
// three, every store's stock loaded; it returns the entries, hidden last.
func stockIndex(t *testing.T, rng *rand.Rand, n, hidden int) (*Index, []stores.Entry) {
	t.Helper()
	es := randomEntries(rng, n+hidden)
	ix := NewIndex()
	ix.PutAll(es[:n])
	now := time.Now().UTC().Truncate(time.Second)
	err := ix.prod.Load(func(add func([]inventory.Entry)) error {
		var batch []inventory.Entry
		for _, e := range es {
			for p := int64(1); p <= 4; p++ {
				if (e.ID+p)%3 != 0 {
					batch = append(batch, inventory.Entry{StoreID: e.ID, ProductID: p, Availability: inventory.Availabilities[e.ID%4],
						Quantity: e.ID * 300 % 100_000, Price: 1000 + p, SalePrice: -1, Currency: "USD", ReportedAt: now})
				}
			}
		}
		add(batch)
		return nil
	})
	dbtest.Must(t, err, "load")
	return ix, es
}

// A part whose box table or arrangement cannot be the index's is refused:
// a box with NaN, upside down or off the globe, boxes cut short, more
// placed rows than rows, the rows outside the index out of id order.
func TestDecodeStockPartRejectsDamagedBoxes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	ix, _ := stockIndex(t, rng, 400, 40)
	v := ix.prod.view(1)
	c := v.stock[1]
	_, levels := c.boxLevels()
	if levels < 2 || c.placed == len(c.ids) {
		t.Fatalf("product 1: %d levels of boxes, %d of %d rows placed: want several levels and rows outside", levels, c.placed, len(c.ids))
	}
	enc, _ := zstd.NewWriter(nil)
	defer enc.Close()
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	decode := func(c *carriers) error {
		w := stockView{version: 1, stock: map[int64]*carriers{1: c}, prices: v.prices, bigQty: v.bigQty, rows: len(c.ids)}
		_, err := ix.prod.decodeStockPart(dec, enc.EncodeAll(w.appendPart(nil, []int64{1}), nil))
		return err
	}
	got, err := ix.prod.decodeStockPart(dec, enc.EncodeAll(stockView{stock: map[int64]*carriers{1: c}, prices: v.prices, bigQty: v.bigQty}.appendPart(nil, []int64{1}), nil))
	dbtest.Must(t, err, "decode the intact product")
	if d := got.stock[1]; !slices.Equal(d.ids, c.ids) || d.placed != c.placed || !slices.Equal(d.boxes, c.boxes) {
		t.Fatal("the product read back differs from the one written (rows, placed rows or boxes)")
	}
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name   string
		damage func(c *carriers)
	}{
		{"NaN", func(c *carriers) { c.boxes[3].minLat = nan }},
		{"upside down", func(c *carriers) { c.boxes[1].minLon, c.boxes[1].maxLon = c.boxes[1].maxLon, c.boxes[1].minLon-1 }},
		{"off the globe", func(c *carriers) { c.boxes[0].maxLat = 91 }},
		{"more placed rows than rows", func(c *carriers) { c.placed = len(c.ids) + 1 }},
		{"rows outside out of order", func(c *carriers) {
			c.ids[len(c.ids)-1], c.ids[len(c.ids)-2] = c.ids[len(c.ids)-2], c.ids[len(c.ids)-1]
		}},
	} {
		bad := *c
		bad.ids, bad.boxes = slices.Clone(c.ids), slices.Clone(c.boxes)
		tc.damage(&bad)
		if err := decode(&bad); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: read, %v", tc.name, err)
		}
	}
	// The product's leaf boxes end the part: a box short.
	raw := stockView{stock: map[int64]*carriers{1: c}, prices: v.prices, bigQty: v.bigQty}.appendPart(nil, []int64{1})
	if _, err := ix.prod.decodeStockPart(dec, enc.EncodeAll(raw[:len(raw)-16], nil)); !errors.Is(err, errCorrupt) {
		t.Errorf("boxes cut short: read, %v", err)
	}
}

// checkArranged fails unless every product of p is arranged exactly as
// Index.arrange arranges it now, and its boxes hold its placed rows' points.
func checkArranged(t *testing.T, ix *Index, p *Products) {
	t.Helper()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for k, c := range p.stock {
		want := ix.arrange(c)
		if !slices.Equal(c.ids, want.ids) || c.placed != want.placed || len(c.boxes) != len(want.boxes) {
			i := 0
			for i < min(len(c.ids), len(want.ids)) && c.ids[i] == want.ids[i] {
				i++
			}
			t.Fatalf("product %d: %d rows, %d placed, want %d placed; first out of place at row %d", k, len(c.ids), c.placed, want.placed, i)
		}
		start, levels := c.boxLevels()
		for i, id := range c.ids[:c.placed] {
			lat, lon, _, _ := ix.pointOf(id)
			b := i / leafRows
			for l := range levels {
				x := c.boxes[start[l]+b]
				if lat < x.minLat || lat > x.maxLat || lon < x.minLon || lon > x.maxLon {
					t.Fatalf("product %d: store %d at %v,%v outside its box %+v of level %d", k, id, lat, lon, x, l)
				}
				b /= fan
			}
		}
	}
}

// A stock side is loaded as written when no store changed since; the
// products carried by stores that moved, left the index or entered it
// since are arranged again, and only those: a store changed in place (its
// hours) keeps its products as written. Without the list of changed
// stores (the stores were read from the rows) every product is arranged
// again.
func TestStockSnapshotRearrangesMovedStores(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	ix, es := stockIndex(t, rng, 3000, 50)
	var parts [][]byte
	v := ix.prod.view(1)
	n, err := v.encode(func(_ int, data []byte) error {
		parts = append(parts, slices.Clone(data))
		return nil
	})
	dbtest.Must(t, err, "encode")
	h := snapHeader{StockVersion: 1, StockFormat: stockSnapFormat, StockParts: n, StockRows: v.rows}
	read := func(_ context.Context, buf func(int) []byte, fn func(int, []byte) error) error {
		for i, p := range parts {
			if err := fn(i, append(buf(len(p)), p...)); err != nil {
				return err
			}
		}
		return nil
	}
	load := func(changed *idSet) *Products {
		t.Helper()
		p := newProducts(ix)
		dbtest.Must(t, p.loadSnapshot(t.Context(), h, read, changed), "load the stock side")
		if p.rows != v.rows {
			t.Fatalf("%d rows loaded, want %d", p.rows, v.rows)
		}
		return p
	}
	none := newIDSet(nil)
	checkArranged(t, ix, load(&none))
	checkArranged(t, ix, load(nil))

	// Changes since the snapshot: stores far away, a store nudged, one
	// hidden, one of the hidden ones published, and stores changed where
	// they stand.
	var changed []stores.Change
	var inPlace []int64
	for i := range 40 {
		e := es[rng.IntN(3000)]
		switch i % 4 {
		case 0:
			e.Latitude, e.Longitude = 25+rng.Float64()*24, -124+rng.Float64()*57
		case 1:
			e.Latitude += 1e-4
		case 2:
			inPlace = append(inPlace, e.ID)
		}
		changed = append(changed, stores.Change{Entry: e, Published: i%4 != 3})
	}
	changed = append(changed, stores.Change{Entry: es[3010], Published: true})
	ids := make([]int64, len(changed))
	for i, c := range changed {
		ids[i] = c.ID
	}
	ix.Apply(changed)
	set := newIDSet(ids)
	p := load(&set)
	checkArranged(t, ix, p)

	// Not told which stores changed, the stock side as written is out of
	// place: the check above would catch a load that skipped them.
	stale := load(&none)
	ix.mu.RLock()
	out := 0
	for _, c := range stale.stock {
		if !slices.Equal(c.ids, ix.arrange(c).ids) {
			out++
		}
	}
	// Stores changed in place do not make their products arranged again.
	kept := newIDSet(inPlace)
	for k, c := range stale.stock {
		if len(inPlace) == 0 || !ix.stillArranged(c, kept) {
			t.Errorf("product %d: out of place for stores that did not move (%d of them)", k, len(inPlace))
		}
	}
	// A changed store outside its leaf's box is out of place, even where
	// its neighbours by key would have it.
	c := p.stock[1]
	shrunk := *c
	shrunk.boxes = slices.Clone(c.boxes)
	lat, _, _, _ := ix.pointOf(c.ids[0])
	shrunk.boxes[0].minLat = math.Nextafter32(lat, 90)
	shrunk.boxes[0].maxLat = max(shrunk.boxes[0].maxLat, shrunk.boxes[0].minLat)
	if first := newIDSet([]int64{int64(c.ids[0])}); !ix.stillArranged(c, first) || ix.stillArranged(&shrunk, first) {
		t.Error("a store outside its leaf's box is taken for in place (or one inside for out of it)")
	}
	ix.mu.RUnlock()
	if out == 0 {
		t.Fatal("no product is out of place after the changes: the test moves nothing")
	}
}

package search

import (
	"context"
	"fmt"
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

		fresh, want := f.replica(t, ctx, SnapshotOff, "rows", "rows")
		second, got := f.replica(t, ctx, SnapshotAlways, "snapshot", "snapshot")
		checkSameStock(t, got, want)
		checkSame(t, got, want)
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
	es := randomEntries(rng, 500)
	ix := NewIndex()
	ix.PutAll(es)
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

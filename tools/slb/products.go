package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"locator/internal/bench"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/stores"
)

// feedStores is how many stores one feed file of the product series
// covers: 100,000 stores of bench.StockPerStore rows, a feed of 1M rows.
const feedStores = 100_000

// loadProducts writes the product series into a database that holds the
// data set's stores: the catalogue, then the stock of every store
// (bench.StockOf) as local inventory feed files of feedStores stores, each
// imported as `locator inventory import FILE` does (inventory.Repo.Import:
// read, checked, written in one transaction) and timed. maxRows > 0 stops
// after the feed that reaches it (the first stores' stock only).
func loadProducts(ctx context.Context, conn *db.DB, sr *stores.Repo, d *bench.Dataset, maxRows int) error {
	cat := catalog.NewRepo(conn)
	start := time.Now()
	if err := cat.Put(ctx, bench.Catalogue()); err != nil {
		return fmt.Errorf("catalogue: %w", err)
	}
	all, err := cat.All(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("catalogue: %d products in %s\n", len(all), time.Since(start).Round(time.Millisecond))
	dir, err := os.MkdirTemp("", "slb-feed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	stock := inventory.NewRepo(sr, cat)
	now := time.Now()
	total := 0
	for lo := 0; lo < d.N && (maxRows <= 0 || total < maxRows); lo += feedStores {
		hi := min(lo+feedStores, d.N)
		path := filepath.Join(dir, fmt.Sprintf("feed-%d.csv", lo/feedStores))
		rows, err := writeFeed(path, d, lo, hi, now)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		start := time.Now()
		rep, err := stock.Import(ctx, f, filepath.Base(path), false)
		f.Close()
		if err != nil {
			return fmt.Errorf("import %s: %w", path, err)
		}
		if rep.Rows != rows || rep.Failed != 0 {
			return fmt.Errorf("import %s: %d rows written, %d refused, want %d (first error: %v)", path, rep.Rows, rep.Failed, rows, rep.Errors)
		}
		total += rows
		fmt.Printf("feed of %d rows (stores %d-%d) imported into %s in %s\n", rows, lo+1, hi, conn.Dialect(), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// writeFeed writes the stock of stores lo..hi-1 (0-based) as a feed in the
// local inventory layout and returns its rows.
func writeFeed(path string, d *bench.Dataset, lo, hi int, now time.Time) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "store_code,id,availability,quantity,price,sale_price,pickup_method,pickup_sla")
	rows := 0
	for i := lo; i < hi; i++ {
		code := d.Store(i).StoreID
		for _, e := range bench.StockOf(int64(i+1), now) {
			fmt.Fprintf(w, "%s,%s,%s,%d,%d.%02d USD,,buy,same_day\n", code, bench.ProductIDOf(e.ProductID), e.Availability, e.Quantity, e.Price/100, e.Price%100)
			rows++
		}
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return rows, f.Close()
}

// cmdFeed writes the product series' stock of the data set's stores as
// one local inventory feed file, what `slb load -products` imports (for
// timing `locator inventory import` on a loaded database).
func cmdFeed(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("feed", flag.ContinueOnError)
	data := addDataFlags(fs, "S", "S, M, L or a number of stores")
	out := fs.String("out", "feed.csv", "the file to write")
	from := fs.Int("from", 1, "the first store (1-based)")
	stores := fs.Int("stores", feedStores, "how many stores")
	d, err := data.parse(args)
	if err != nil {
		return err
	}
	lo, hi := *from-1, min(*from-1+*stores, d.N)
	if lo < 0 || lo >= hi {
		return fmt.Errorf("-from %d -stores %d: no stores of the %d", *from, *stores, d.N)
	}
	rows, err := writeFeed(*out, d, lo, hi, time.Now())
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d rows of stores %d-%d\n", *out, rows, lo+1, hi)
	return ctx.Err()
}

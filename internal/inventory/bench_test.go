package inventory

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// BenchmarkImportFeed imports a full feed of 1,000,000 rows (200 stores
// with 5,000 products each, store by store as exports write them) into an
// empty stock table, reading and checking the file included;
// docs/performance.md ("Products and stock") has the figure:
//
//	go test -run '^$' -bench ImportFeed -benchtime 1x -timeout 60m ./internal/inventory/
func BenchmarkImportFeed(b *testing.B) {
	for _, engine := range []struct {
		name string
		open func(testing.TB) *db.DB
	}{{"sqlite", dbtest.SQLite}, {"postgres", dbtest.Postgres}} {
		b.Run(engine.name, func(b *testing.B) {
			const nStores, nProducts = 200, 5000
			ctx := context.Background()
			d := engine.open(b)
			sr := stores.NewRepo(d)
			for i := range nStores {
				s := &stores.Store{Name: fmt.Sprintf("Store %d", i), StoreID: fmt.Sprintf("sto_%04d", i), Latitude: 40, Longitude: -74, TimeZone: "America/New_York"}
				dbtest.Must(b, sr.Create(ctx, s), "create store")
			}
			var cat strings.Builder
			cat.WriteString("id,brand,name,kind,flavour\n")
			for i := range nProducts {
				fmt.Fprintf(&cat, "p-%05d,Brand %d,Product %d,disposable,fruit\n", i, i%40, i)
			}
			cr := catalog.NewRepo(d)
			if _, err := cr.Import(ctx, strings.NewReader(cat.String()), catalog.CSV); err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), "feed.csv")
			f, err := os.Create(path)
			dbtest.Must(b, err, "create feed")
			w := bufio.NewWriter(f)
			fmt.Fprintln(w, "store_code,id,availability,quantity,price,sale_price,pickup_method,pickup_sla")
			avail := []string{"in_stock", "in_stock", "limited_availability", "out_of_stock"}
			for s := range nStores {
				for p := range nProducts {
					fmt.Fprintf(w, "sto_%04d,p-%05d,%s,%d,%d.99 USD,,buy,same_day\n", s, p, avail[(s+p)%4], (s*p)%50, 5+p%30)
				}
			}
			dbtest.Must(b, w.Flush(), "write feed")
			dbtest.Must(b, f.Close(), "close feed")
			r := NewRepo(sr, cr)
			load := func() {
				f, err := os.Open(path)
				dbtest.Must(b, err, "open feed")
				defer f.Close()
				rep, err := r.Import(ctx, f, "feed.csv", true)
				dbtest.Must(b, err, "import")
				if rep.Rows != nStores*nProducts || rep.Failed != 0 {
					b.Fatalf("report: %+v", rep)
				}
			}
			for b.Loop() {
				load()
				b.StopTimer()
				_, err := d.Exec(ctx, "DELETE FROM stock")
				dbtest.Must(b, err, "empty stock")
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/import")
		})
	}
}

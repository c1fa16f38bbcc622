//go:build unix

package inventory

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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
			// PostgreSQL on one connection, so its server process's CPU
			// is the import's (serverCPU).
			backend := 0
			if d.Dialect() == db.Postgres {
				d.SQL().SetMaxOpenConns(1)
				dbtest.Must(b, d.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend), "backend pid")
			}
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
			var cpu, server time.Duration
			for b.Loop() {
				c0, s0 := cpuTime(), serverCPU(backend)
				load()
				cpu += cpuTime() - c0
				server += serverCPU(backend) - s0
				b.StopTimer()
				_, err := d.Exec(ctx, "DELETE FROM stock")
				dbtest.Must(b, err, "empty stock")
				b.StartTimer()
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/import")
			// This process's CPU (the file, the checks, the driver; not the
			// PostgreSQL server's): a figure a loaded machine changes less.
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/import")
			if backend != 0 {
				b.ReportMetric(server.Seconds()/float64(b.N), "server-cpu-s/import")
			}
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// serverCPU is the CPU time a PostgreSQL server process has used (Linux:
// /proc/PID/stat, in clock ticks of 1/100 s), 0 when it cannot be read.
func serverCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command (in parentheses): utime and stime are
	// the 12th and 13th of them.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, _ := strconv.ParseInt(s, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// BenchmarkImportRowsBatch writes one point-of-sale batch of 1,000 rows
// (the API's bound: 5 stores, 200 products each) with a store scope, as
// POST /api/pos/v1/stock does; docs/products.md ("Point-of-sale API") has
// the figure:
//
//	go test -run '^$' -bench ImportRowsBatch ./internal/inventory/
func BenchmarkImportRowsBatch(b *testing.B) {
	for _, engine := range []struct {
		name string
		open func(testing.TB) *db.DB
	}{{"sqlite", dbtest.SQLite}, {"postgres", dbtest.Postgres}} {
		b.Run(engine.name, func(b *testing.B) {
			ctx := context.Background()
			d := engine.open(b)
			sr := stores.NewRepo(d)
			for i := range 5 {
				s := &stores.Store{Name: fmt.Sprintf("Store %d", i), StoreID: fmt.Sprintf("sto_%04d", i), Latitude: 40, Longitude: -74, TimeZone: "America/New_York"}
				dbtest.Must(b, sr.Create(ctx, s), "create store")
			}
			var cat strings.Builder
			cat.WriteString("id,brand,name,kind,flavour\n")
			for i := range 200 {
				fmt.Fprintf(&cat, "p-%05d,Brand %d,Product %d,disposable,fruit\n", i, i%40, i)
			}
			cr := catalog.NewRepo(d)
			if _, err := cr.Import(ctx, strings.NewReader(cat.String()), catalog.CSV); err != nil {
				b.Fatal(err)
			}
			rows := make([]FeedRow, 0, 1000)
			for s := range 5 {
				for p := range 200 {
					rows = append(rows, FeedRow{StoreCode: fmt.Sprintf("sto_%04d", s), ID: fmt.Sprintf("p-%05d", p), Availability: "in_stock",
						Quantity: strconv.Itoa(p % 50), Price: fmt.Sprintf("%d.99 USD", 5+p%30)})
				}
			}
			r := NewRepo(sr, cr)
			all := func(context.Context, int64) (bool, error) { return true, nil }
			for b.Loop() {
				rep, err := r.ImportRows(ctx, rows, "bench", all)
				if err != nil || rep.Rows != 1000 {
					b.Fatalf("%+v, %v", rep, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/batch")
		})
	}
}

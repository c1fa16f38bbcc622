package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/search"
	"locator/internal/stores"
)

// cmdLoadProf loads the search index with its product side from a loaded
// database as `locator serve` does at start (search.Syncer.Load, from the
// newest snapshot when there is one), without the place index and basemap
// that build beside it, and reports its wall and CPU time; -cpuprofile
// writes a CPU profile of it.
func cmdLoadProf(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("loadprof", flag.ContinueOnError)
	url := fs.String("database-url", "", "sqlite:PATH or postgres://... (loaded with slb load)")
	prof := fs.String("cpuprofile", "", "write a CPU profile of the load to this file")
	runs := fs.Int("runs", 1, "loads, one after the other (the profile covers all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	conn, err := db.Open(ctx, *url)
	if err != nil {
		return err
	}
	defer conn.Close()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for r := range *runs {
		sr := stores.NewRepo(conn)
		cat := catalog.NewRepo(conn)
		ix := search.NewIndex()
		sy := search.NewSyncer(sr, ix, search.SnapshotAuto, log).WithProducts(inventory.NewRepo(sr, cat), cat, productlaw.NewRepo(conn))
		start, cpu0 := time.Now(), processCPU()
		if err := sy.Load(ctx); err != nil {
			return err
		}
		took, cpu := time.Since(start), processCPU()-cpu0
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, err := rssBytes(os.Getpid())
		if err != nil {
			return err
		}
		fmt.Printf("load %d: %d stores, %d stock rows in %s, CPU %s; heap in use %.0f MiB, RSS %.0f MiB, stock %.1f B/row (Products.Bytes)\n",
			r+1, ix.Len(), ix.Products().Rows(), took.Round(time.Millisecond), cpu.Round(time.Millisecond),
			float64(ms.HeapInuse)/(1<<20), float64(rss)/(1<<20), float64(ix.Products().Bytes())/float64(max(1, ix.Products().Rows())))
		runtime.GC() // the next load starts from an empty heap, as a process would
		debug.FreeOSMemory()
	}
	return nil
}

// processCPU is the user and system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

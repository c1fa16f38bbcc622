// Command slb runs the store search benchmark SLB-1 (see
// internal/bench/README.md and docs/performance.md). Run from the repository
// root:
//
//	go run ./tools/slb inproc  -size M                      # in-process search, memory, sizes, gate
//	go run ./tools/slb load    -size M -database-url URL    # bulk-load a fresh database
//	go run ./tools/slb startup -database-url URL            # start-up time and RSS of bin/locator
//	go run ./tools/slb loadprof -database-url URL           # the search index's load alone: CPU, heap, RSS, -cpuprofile
//	go run ./tools/slb http    -database-url URL -size M    # wrk against bin/locator
//	go run ./tools/slb series  -database-url URL -size S    # floor, plain and browser-shaped search side by side
//	go run ./tools/slb replicas -database-url URL           # a stock change's time to every replica's search
//	go run ./tools/slb feed    -size S -out feed.csv        # the product series' stock as one feed file
//	go run ./tools/slb floor                                # one-connection floor: bare net/http under wrk
//	go run ./tools/slb ceiling                              # what an answer's bytes alone cost against "ok"
//	go run ./tools/slb postgis-setup -database-url URL      # PostGIS table from the loaded stores
//	go run ./tools/slb http    -postgis -database-url URL -size M   # wrk against the PostGIS server
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: slb inproc|load|startup|loadprof|http|series|replicas|feed|floor|ceiling|postgis-setup|postgis-serve|lua [flags]")
		os.Exit(2)
	}
	cmds := map[string]func(context.Context, []string) error{
		"inproc":        cmdInproc,
		"load":          cmdLoad,
		"startup":       cmdStartup,
		"http":          cmdHTTP,
		"floor":         cmdFloor,
		"ceiling":       cmdCeiling,
		"postgis-setup": cmdPostGISSetup,
		"postgis-serve": cmdPostGISServe,
		"lua":           cmdLua,
		"series":        cmdSeries,
		"replicas":      cmdReplicas,
		"feed":          cmdFeed,
		"loadprof":      cmdLoadProf,
	}
	fn, ok := cmds[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "slb: unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
	if err := fn(ctx, os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "slb:", err)
		os.Exit(1)
	}
}

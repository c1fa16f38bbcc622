package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// cmdFloor measures the machine's floor for the one-connection HTTP points:
// a bare net/http handler that answers "ok", under the same wrk settings
// (one connection, --latency). Whatever it takes, no search can take less;
// on a VM whose idle vCPUs wake slowly it is most of the latency.
func cmdFloor(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("floor", flag.ContinueOnError)
	d := fs.Duration("duration", 10*time.Second, "each timed run")
	runs := fs.Int("runs", 3, "timed runs; the median is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok"))
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	script := filepath.Join(os.TempDir(), "slb-floor.lua")
	if err := os.WriteFile(script, []byte("-- wrk's default: GET /\n"), 0o644); err != nil {
		return err
	}
	var rs []wrkResult
	for i := range *runs {
		r, _, err := runWrk(ctx, "http://"+ln.Addr().String()+"/", script, 1, *d)
		if err != nil {
			return err
		}
		fmt.Printf("run %d: p50 %s p99 %s, %.0f req/s\n", i+1, r.P50, r.P99, r.RPS)
		rs = append(rs, r)
	}
	m := median(rs, func(r wrkResult) float64 { return r.RPS })
	fmt.Printf("floor, bare net/http on one connection (median of %d by req/s): p50 %s p99 %s, %.0f req/s\n", len(rs), m.P50, m.P99, m.RPS)
	return nil
}

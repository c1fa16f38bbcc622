package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"locator/internal/httpconn"
)

// cmdCeiling measures what sending an answer's bytes costs on this machine,
// apart from any search: a bare net/http server in this process (with
// internal/httpconn's one write, as the product sends) answers "ok" or a
// fixed body of each size asked, under the same wrk settings as `slb series`,
// rounds interleaved. Its ratio of a size to "ok" is the most that any
// server sending answers of that size can reach against its own floor, so it
// says whether a target ratio is reachable at all.
func cmdCeiling(ctx context.Context, args []string) error {
	return ceiling(ctx, "ceiling", args)
}

// cmdFloor measures the machine's floor for the one-connection HTTP points:
// the bare server's "ok" alone at one connection (p50 and p99 under wrk
// --latency). Whatever it takes, no search can take less; on a VM whose
// idle vCPUs wake slowly it is most of the latency.
func cmdFloor(ctx context.Context, args []string) error {
	return ceiling(ctx, "floor", append([]string{"-c", "1", "-bytes", ""}, args...))
}

func ceiling(ctx context.Context, name string, args []string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	sizes := fs.String("bytes", "1024,8192,16384,32768,57000", "body sizes, comma-separated (57000: a limit-50 plain answer at M)")
	conns := fs.Int("c", 64, "wrk connections")
	runs := fs.Int("runs", 3, "rounds; medians are reported")
	dur := fs.Duration("duration", 10*time.Second, "each timed run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bodies := map[string][]byte{"ok": []byte("ok")}
	order := []string{"ok"}
	for _, s := range strings.Split(*sizes, ",") {
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 64<<20 {
			return fmt.Errorf("-bytes: %q is not a size from 1 to 64 MB", s)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = "{\"name\":\"Store\",\"x\":1.5}"[i%24]
		}
		bodies[s] = b
		order = append(order, s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{
		ConnContext: httpconn.ConnContext,
		ConnState:   httpconn.Settle,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b := bodies[strings.TrimPrefix(r.URL.Path, "/")]
			w.Header()["Content-Type"] = []string{"application/json"}
			w.Header()["Content-Length"] = []string{strconv.Itoa(len(b))}
			w.WriteHeader(http.StatusOK)
			httpconn.Join(r, http.StatusOK, len(b))
			_, _ = w.Write(b)
		}),
	}
	go func() { _ = srv.Serve(httpconn.Listener{Listener: ln}) }()
	defer srv.Close()
	script := filepath.Join(os.TempDir(), "slb-ceiling.lua")
	if err := os.WriteFile(script, []byte("-- GET the URL given\n"), 0o644); err != nil {
		return err
	}
	base := "http://" + ln.Addr().String() + "/"
	for _, name := range order {
		if _, out, err := runWrk(ctx, base+name, script, *conns, 2*time.Second); err != nil {
			return fmt.Errorf("warm-up: %w: %s", err, out)
		}
	}
	points := map[string]*point{}
	for _, name := range order {
		points[name] = &point{}
	}
	self := os.Getpid()
	for r := range *runs {
		for j := range order {
			name := order[(j+r)%len(order)]
			c0, _ := cpuTime(self)
			w, out, err := runWrk(ctx, base+name, script, *conns, *dur)
			if err != nil {
				return err
			}
			c1, _ := cpuTime(self)
			points[name].add(w, out, c1-c0)
			fmt.Printf("round %d  %-8s %9.0f req/s  p50 %7.1f us  CPU %6.1f us/req\n",
				r+1, name, w.RPS, us(w.P50), us(c1-c0)/float64(max(w.Requests, 1)))
		}
	}
	floor := points["ok"]
	fmt.Printf("\nbare net/http, medians of %d rounds, %d connections, %s runs (wrk -t2 shares the cores):\n", *runs, *conns, *dur)
	fmt.Printf("%-8s %9s %8s %9s %9s %9s %11s %10s\n", "body", "req/s", "x ok", "p50 us", "p50 x ok", "p99 us", "CPU us/req", "bytes/ans")
	for _, name := range order {
		p := points[name]
		fmt.Printf("%-8s %9.0f %8.2f %9.1f %9.2f %9.1f %11.1f %10.0f\n", name, med(p.rps), med(p.rps)/med(floor.rps),
			med(p.p50), med(p.p50)/med(floor.p50), med(p.p99), med(p.cpu), med(p.bytes))
	}
	return nil
}

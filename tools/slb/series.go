package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"locator/internal/bench"
)

// browserHeaders is what Chrome sends with the app's list fetch (besides
// Host, Connection and a cookie the shopper may not have): wrk's default
// request sends none of them, so it never asks for compression.
var browserHeaders = [][2]string{
	{"sec-ch-ua", `"Chromium";v="131", "Not_A Brand";v="24"`},
	{"sec-ch-ua-mobile", "?0"},
	{"sec-ch-ua-platform", `"Linux"`},
	{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	{"Accept", "*/*"},
	{"Sec-Fetch-Site", "same-origin"},
	{"Sec-Fetch-Mode", "cors"},
	{"Sec-Fetch-Dest", "empty"},
	{"Referer", "http://127.0.0.1/"},
	{"Accept-Encoding", "gzip, deflate, br, zstd"},
	{"Accept-Language", "en-US,en;q=0.9"},
}

// writeBrowserLua is writeLua with a browser's headers on every request.
func writeBrowserLua(path string, rs []bench.Request) error {
	if err := writeLua(path, rs); err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var h bytes.Buffer
	h.WriteString("local headers = {\n")
	for _, kv := range browserHeaders {
		fmt.Fprintf(&h, "  [%q] = %q,\n", kv[0], kv[1])
	}
	h.WriteString("}\n")
	s := strings.Replace(string(b), `return wrk.format("GET", paths[i])`, `return wrk.format("GET", paths[i], headers)`, 1)
	s = strings.Replace(s, "local counter = 0\n", h.String()+"local counter = 0\n", 1)
	return os.WriteFile(path, []byte(s), 0o644)
}

var reTransfer = regexp.MustCompile(`Transfer/sec:\s+([\d.]+)(B|KB|MB|GB)`)

// point is one measured series of one build: its runs.
type point struct {
	rps, p50, p99, cpu, bytes []float64 // per run: req/s, us, us, CPU us per request, bytes per answer
}

func (p *point) add(w wrkResult, out string, cpu time.Duration) {
	p.rps = append(p.rps, w.RPS)
	p.p50 = append(p.p50, us(w.P50))
	p.p99 = append(p.p99, us(w.P99))
	p.cpu = append(p.cpu, us(cpu)/float64(max(w.Requests, 1)))
	if m := reTransfer.FindStringSubmatch(out); m != nil && w.RPS > 0 {
		v, _ := strconv.ParseFloat(m[1], 64)
		v *= map[string]float64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[m[2]]
		p.bytes = append(p.bytes, v/w.RPS)
	}
}

func med(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return median(xs, func(x float64) float64 { return x })
}

// cmdSeries runs the floor (/healthz on the same server), the plain search
// (the limit-50 queries as wrk sends them) and the browser-shaped search
// (the same queries with a browser's headers) side by side, interleaved
// round by round, for one build or several (each its own server on the
// same database, all up at once), and prints medians and the ratios to the
// floor: the figures of SLB-1's plain and browser series.
func cmdSeries(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("series", flag.ContinueOnError)
	bins := fs.String("bin", "bin/locator", "the locator binaries to compare, comma-separated (e.g. old/bin/locator,bin/locator)")
	url := fs.String("database-url", "", "the loaded database (slb load)")
	data := addDataFlags(fs, "S", "the data set loaded (for the query mix)")
	conns := fs.Int("c", 64, "wrk connections")
	runs := fs.Int("runs", 3, "rounds; each runs every series of every build once; medians are reported")
	dur := fs.Duration("duration", 10*time.Second, "each timed run")
	warm := fs.Duration("warmup", 3*time.Second, "warm-up of each series of each build before the first round")
	dir := fs.String("dir", filepath.Join(os.TempDir(), "slb"), "folder for the wrk scripts")
	vs, err := data.parseScripts(args, dir)
	if err != nil {
		return err
	}
	if *url == "" {
		return fmt.Errorf("-database-url: the database slb load filled")
	}
	n, err := storeCount(ctx, *url)
	if err != nil {
		return err
	}
	scripts := map[string]string{
		"floor":   filepath.Join(*dir, "slb-floor-healthz.lua"),
		"plain":   filepath.Join(*dir, "slb-l50.lua"),
		"browser": filepath.Join(*dir, "slb-l50-browser.lua"),
	}
	if err := os.WriteFile(scripts["floor"], []byte("-- GET the URL given (the same server's /healthz)\n"), 0o644); err != nil {
		return err
	}
	if err := writeLua(scripts["plain"], vs["l50"]); err != nil {
		return err
	}
	if err := writeBrowserLua(scripts["browser"], vs["l50"]); err != nil {
		return err
	}

	type build struct {
		bin    string
		srv    *server
		points map[string]*point
	}
	var builds []*build
	for _, b := range strings.Split(*bins, ",") {
		s, err := startServer(ctx, b, *url, os.Stderr)
		if err != nil {
			return err
		}
		defer s.stop()
		builds = append(builds, &build{bin: b, srv: s, points: map[string]*point{"floor": {}, "plain": {}, "browser": {}}})
		bad, err := verify(s.url, vs["mix"])
		if err != nil {
			return fmt.Errorf("%s: verification: %w", b, err)
		}
		if bad > 0 {
			return fmt.Errorf("%s: verification: %d wrong answers", b, bad)
		}
		enc, err := codingOf(s.url + vs["l50"][0].RawURL)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d stores, ready in %s; verification of the mix passed; a browser's list answer comes with Content-Encoding %q\n",
			b, n, s.took.Round(time.Millisecond), enc)
	}
	order := []string{"floor", "plain", "browser"}
	target := func(b *build, name string) string {
		if name == "floor" {
			return b.srv.url + "/healthz"
		}
		return b.srv.url + bench.Path
	}
	for _, b := range builds {
		for _, name := range order {
			if _, out, err := runWrk(ctx, target(b, name), scripts[name], *conns, *warm); err != nil {
				return fmt.Errorf("warm-up: %w: %s", err, out)
			}
		}
	}
	for r := 0; r < *runs; r++ {
		// Rotate the builds and the series from round to round, so no one
		// of them always runs first or last.
		for k := range builds {
			b := builds[(k+r)%len(builds)]
			for j := range order {
				name := order[(j+r)%len(order)]
				pid := b.srv.cmd.Process.Pid
				c0, _ := cpuTime(pid)
				w, out, err := runWrk(ctx, target(b, name), scripts[name], *conns, *dur)
				if err != nil {
					return err
				}
				c1, _ := cpuTime(pid)
				if w.SocketErrs > 0 || w.Non2xx > 0 {
					fmt.Fprintf(os.Stderr, "errors in run:\n%s\n", out)
				}
				b.points[name].add(w, out, c1-c0)
				fmt.Printf("round %d  %-22s %-7s %9.0f req/s  p50 %7.1f us  p99 %8.1f us  CPU %6.1f us/req\n",
					r+1, b.bin, name, w.RPS, us(w.P50), us(w.P99), us(c1-c0)/float64(max(w.Requests, 1)))
			}
		}
	}
	fmt.Printf("\nmedians of %d rounds, %d connections, %s runs, %d stores (wrk -t2 shares the cores):\n", *runs, *conns, *dur, n)
	fmt.Printf("%-22s %-7s %9s %8s %9s %9s %11s %10s\n", "build", "series", "req/s", "x floor", "p50 us", "p99 us", "CPU us/req", "bytes/ans")
	for _, b := range builds {
		floor := med(b.points["floor"].rps)
		for _, name := range order {
			p := b.points[name]
			fmt.Printf("%-22s %-7s %9.0f %8.2f %9.1f %9.1f %11.1f %10.0f\n", b.bin, name, med(p.rps), med(p.rps)/floor,
				med(p.p50), med(p.p99), med(p.cpu), med(p.bytes))
		}
		fmt.Printf("%-22s browser / plain: req/s %.2f, CPU per request %.2f\n", b.bin,
			med(b.points["browser"].rps)/med(b.points["plain"].rps), med(b.points["browser"].cpu)/med(b.points["plain"].cpu))
	}
	return nil
}

// codingOf asks for url as a browser does and returns the answer's coding.
func codingOf(url string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	for _, kv := range browserHeaders {
		req.Header.Set(kv[0], kv[1])
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Header.Get("Content-Encoding"), nil
}

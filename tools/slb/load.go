package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"locator/internal/db"
	"locator/internal/stores"
)

// cmdLoad writes a data set into an empty database with Repo.BulkInsert.
func cmdLoad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	data := addDataFlags(fs, "M", "S, M, L or a number of stores")
	url := fs.String("database-url", "", "sqlite:PATH or postgres://... (an empty database)")
	batch := fs.Int("batch", 100_000, "stores per transaction")
	products := fs.Bool("products", false, "also the product series: its catalogue, and its stock as feed files of 100,000 stores (1M rows) through inventory import, each timed")
	stockRows := fs.Int("stock-rows", 0, "with -products, stop after the feed that reaches this many stock rows (0: the stock of every store); a part of M's 10M rows loads in a fraction of the hour")
	d, err := data.parse(args)
	if err != nil {
		return err
	}
	n, sp := d.N, d.Spread
	conn, err := db.Open(ctx, *url)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	repo := stores.NewRepo(conn)
	if c, err := repo.Count(ctx); err != nil {
		return err
	} else if c > 0 {
		return fmt.Errorf("the database already has %d stores; load into an empty one", c)
	}
	start := time.Now()
	for lo := 0; lo < n; lo += *batch {
		hi := min(lo+*batch, n)
		ss := make([]*stores.Store, hi-lo)
		for i := range ss {
			ss[i] = d.Store(lo + i)
			ss[i].ID, ss[i].CountryID = 0, 0 // BulkInsert numbers them, in order
		}
		if err := repo.BulkInsert(ctx, ss); err != nil {
			return fmt.Errorf("stores %d-%d: %w", lo+1, hi, err)
		}
		if ss[0].ID != int64(lo+1) {
			return fmt.Errorf("store %d got id %d: load into an empty database", lo+1, ss[0].ID)
		}
		fmt.Fprintf(os.Stderr, "\r%d/%d stores", hi, n)
	}
	fmt.Fprintln(os.Stderr)
	fmt.Printf("loaded %d %s stores into %s in %s\n", n, sp, conn.Dialect(), time.Since(start).Round(time.Millisecond))
	if *products {
		if err := loadProducts(ctx, conn, repo, d, *stockRows); err != nil {
			return err
		}
	}
	if conn.Dialect() == db.Postgres {
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE stock"); err != nil && *products {
			return fmt.Errorf("vacuum: %w", err)
		}
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE stores"); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE working_hours"); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
	} else if _, err := conn.Exec(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// server is a running bin/locator.
type server struct {
	cmd  *exec.Cmd
	url  string
	took time.Duration // launch to first answer
	cpu  time.Duration // CPU time the process used until then
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startServer launches bin and waits until /healthz answers.
func startServer(ctx context.Context, bin, dbURL string, logTo io.Writer, env ...string) (*server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--database-url", dbURL, "--no-seed", "--log-level", "warn")
	cmd.Stdout, cmd.Stderr = logTo, logTo
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cmd: cmd, url: "http://" + addr}
	c := &http.Client{Timeout: time.Second}
	for {
		if time.Since(start) > 5*time.Minute {
			s.stop()
			return nil, fmt.Errorf("%s did not answer within 5 minutes", bin)
		}
		resp, err := c.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.took = time.Since(start)
				s.cpu, _ = cpuTime(cmd.Process.Pid)
				return s, nil
			}
		}
		if cmd.ProcessState != nil {
			return nil, fmt.Errorf("%s exited", bin)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// cpuTime reads the user+system CPU time of a process: on a shared
// machine it tells the work done apart from the time spent waiting for a
// core.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read process stat: %w", err)
	}
	// Fields after the command name (which may hold spaces) start at ')'.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short stat for process %d", pid)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("parse stat of process %d", pid)
	}
	return time.Duration(u+st) * (time.Second / 100), nil // USER_HZ is 100 on Linux
}

// rssBytes reads VmRSS of a process.
func rssBytes(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("parse VmRSS %q: %w", line, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS for process %d", pid)
}

// cmdStartup launches bin/locator on a loaded database several times and
// reports the time to its first answer and its RSS once loaded.
func cmdStartup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("startup", flag.ContinueOnError)
	bin := fs.String("bin", "bin/locator", "the locator binary")
	url := fs.String("database-url", "", "sqlite:PATH or postgres://... (loaded with slb load)")
	runs := fs.Int("runs", 3, "launches; the median is reported")
	snapshots := fs.String("snapshots", "on", "on: start from a search snapshot (written first with `locator snapshot` if none is current); off: read every store (LOCATOR_SEARCH_SNAPSHOTS=off)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	n, err := storeCount(ctx, *url)
	if err != nil {
		return err
	}
	var env []string
	switch *snapshots {
	case "on":
		// Not timed: what every later start of any replica finds.
		out, err := exec.CommandContext(ctx, *bin, "snapshot", "--database-url", *url, "--log-level", "warn").CombinedOutput()
		if err != nil {
			return fmt.Errorf("locator snapshot: %w: %s", err, out)
		}
		fmt.Printf("%s", out)
	case "off":
		env = append(env, "LOCATOR_SEARCH_SNAPSHOTS=off")
	default:
		return fmt.Errorf("-snapshots: want on or off")
	}
	var took, cpu []time.Duration
	var rss []uint64
	for r := 0; r < *runs; r++ {
		s, err := startServer(ctx, *bin, *url, os.Stderr, env...)
		if err != nil {
			return err
		}
		time.Sleep(time.Second) // let the scavenger return load-time garbage, as FreeOSMemory asked
		b, err := rssBytes(s.cmd.Process.Pid)
		s.stop()
		if err != nil {
			return err
		}
		took, cpu, rss = append(took, s.took), append(cpu, s.cpu), append(rss, b)
		fmt.Printf("run %d: ready in %s (CPU %s), RSS %.0f MiB (%.0f B/store)\n", r+1, s.took.Round(time.Millisecond),
			s.cpu, float64(b)/(1<<20), float64(b)/float64(n))
	}
	slices.Sort(took)
	slices.Sort(cpu)
	slices.Sort(rss)
	m := took[len(took)/2]
	fmt.Printf("start-up (median of %d): %s for %d stores = %.2f s per 1M (CPU %s); RSS after load %.0f MiB = %.0f B/store\n",
		*runs, m.Round(time.Millisecond), n, m.Seconds()*1e6/float64(n), cpu[len(cpu)/2], float64(rss[len(rss)/2])/(1<<20), float64(rss[len(rss)/2])/float64(n))
	return nil
}

func storeCount(ctx context.Context, url string) (int, error) {
	conn, err := db.Open(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	n, err := stores.NewRepo(conn).Count(ctx)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("no stores in %s: run slb load first", url)
	}
	return n, nil
}

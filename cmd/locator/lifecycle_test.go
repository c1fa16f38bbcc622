package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

const storeList = "/api/store/physical-store/list-physical-store/?latitude=40.71&longitude=-74.0&radius=30"

// keepAliveClient sends requests one after another on one connection, as
// a load balancer's upstream connection does, with no retries: a request
// written and not answered in full is lost.
type keepAliveClient struct {
	addr string
	conn net.Conn
	br   *bufio.Reader
}

// get sends one GET; written says whether the request left.
func (c *keepAliveClient) get(path string) (status int, written bool, err error) {
	if c.conn == nil {
		if c.conn, err = net.Dial("tcp", c.addr); err != nil {
			return 0, false, err
		}
		c.br = bufio.NewReader(c.conn)
	}
	_ = c.conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(c.conn, "GET %s HTTP/1.1\r\nHost: locator.test\r\nAccept-Encoding: identity\r\n\r\n", path); err != nil {
		c.close()
		return 0, false, err
	}
	res, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.close()
		return 0, true, err
	}
	_, err = io.Copy(io.Discard, res.Body) // fails on a short body
	res.Body.Close()
	if err != nil || res.Close {
		c.close()
	}
	return res.StatusCode, true, err
}

func (c *keepAliveClient) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// SIGTERM under load: 32 keep-alive clients behave like a load balancer's
// upstream connections, polling /readyz and sending no new request once it
// says 503. Every request sent gets a complete 200; /readyz says 503 while
// the listener still accepts; a request in its handler when the listener
// closes, and one on a connection accepted before, still get their answer.
//
// The drain period is the production default (5 s): the steps that must
// happen while draining (a request, a new connection) then have seconds,
// not one, on a machine busy with other test packages.
func TestSIGTERMUnderLoadLosesNoRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: drains a loaded server for seconds; make test runs it")
	}
	e := env(map[string]string{"LOCATOR_DATABASE_URL": sqliteURL(t),
		"LOCATOR_MAIL_DIR": t.TempDir(), "LOCATOR_DRAIN_PERIOD": "5s", "LOCATOR_SHUTDOWN_TIMEOUT": "20s"})
	srv := startServe(t, e, "--demo-stores", "500")
	addr := strings.TrimPrefix(srv.base, "http://")
	probe := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	if res, err := probe.Get(srv.base + "/readyz"); err != nil || res.StatusCode != 200 {
		t.Fatalf("readyz before the stop: %v %v", err, res)
	}

	// The load balancer: a health check every 20 ms.
	var out atomic.Bool // /readyz said 503: send nothing new
	var saw503, refused time.Time
	checks := make(chan struct{})
	go func() {
		defer close(checks)
		for {
			res, err := probe.Get(srv.base + "/readyz")
			if err != nil {
				if saw503.IsZero() || strings.Contains(err.Error(), "refused") {
					refused = time.Now()
					return
				}
				continue
			}
			res.Body.Close()
			if res.StatusCode == http.StatusServiceUnavailable && saw503.IsZero() {
				saw503 = time.Now()
				out.Store(true)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()

	var sent, ok atomic.Int64
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &keepAliveClient{addr: addr}
			defer c.close()
			for !out.Load() {
				status, written, err := c.get(storeList)
				if written {
					sent.Add(1)
				}
				if err == nil && status == 200 {
					ok.Add(1)
					continue
				}
				mu.Lock()
				failures = append(failures, fmt.Sprintf("status %d, written %v: %v", status, written, err))
				mu.Unlock()
			}
		}()
	}
	for deadline := time.Now().Add(settle * 4); ok.Load() < 200 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if ok.Load() < 200 {
		t.Fatalf("load did not get going: %d answers, failures %v", ok.Load(), failures)
	}

	// A request in its handler when the listener closes: a claim whose
	// body's first half arrives now, the rest once new connections are
	// refused.
	slow, err := net.Dial("tcp", addr)
	dbtest.Must(t, err, "dial")
	defer slow.Close()
	half := len(claimJSON) / 2
	_, err = fmt.Fprintf(slow, "POST /api/store/claim HTTP/1.1\r\nHost: locator.test\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\n\r\n%s", len(claimJSON), claimJSON[:half])
	dbtest.Must(t, err, "write half the claim")

	served := make(chan error, 1)
	stopped := time.Now()
	go func() { served <- srv.shutdown(t) }() // what SIGTERM does

	for deadline := time.Now().Add(10 * time.Second); !out.Load() && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if !out.Load() {
		t.Fatal("/readyz never answered 503 after the stop began")
	}
	// Still served while draining, and asked to close the connection.
	res, err := probe.Get(srv.base + storeList)
	if err != nil || res.StatusCode != 200 || !res.Close {
		t.Fatalf("a request while draining: %v %+v", err, res)
	}
	res.Body.Close()

	// A connection made while draining whose request leaves only once the
	// listener is closed, as from a client that ignores /readyz. A new
	// connection must send its request's headers within ReadHeaderTimeout
	// (5 s, httpapi.NewHTTPServer) of being accepted, and the listener
	// closes 5 s after the stop began: made at once, its request raced that
	// timeout (and lost when the answers above came quickly). Made 2 s into
	// the drain, it has 3 s.
	time.Sleep(time.Until(stopped.Add(2 * time.Second)))
	late, err := net.Dial("tcp", addr)
	dbtest.Must(t, err, "dial while draining")
	defer late.Close()

	<-checks
	if refused.IsZero() || !saw503.Before(refused) {
		t.Fatalf("/readyz said 503 at %v, the listener closed at %v", saw503, refused)
	}
	lateClient := &keepAliveClient{addr: addr, conn: late, br: bufio.NewReader(late)}
	if status, _, err := lateClient.get(storeList); err != nil || status != 200 {
		t.Fatalf("a request on a connection accepted before the listener closed: %d %v", status, err)
	}
	_, err = io.WriteString(slow, claimJSON[half:])
	dbtest.Must(t, err, "finish the in-flight request")
	_ = slow.SetDeadline(time.Now().Add(30 * time.Second))
	slowRes, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil || slowRes.StatusCode != http.StatusCreated {
		t.Fatalf("the request in flight when the listener closed: %v %+v", err, slowRes)
	}
	if _, err := io.Copy(io.Discard, slowRes.Body); err != nil {
		t.Fatalf("the request in flight when the listener closed: short body: %v", err)
	}

	wg.Wait()
	if err := <-served; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if len(failures) > 0 || sent.Load() != ok.Load() {
		t.Fatalf("%d requests sent, %d answered 200; failures: %v", sent.Load(), ok.Load(), failures)
	}
	t.Logf("%d requests sent by 32 clients, all answered 200; /readyz 503 %v before the listener closed",
		sent.Load(), refused.Sub(saw503).Round(time.Millisecond))
	for _, want := range []string{"draining", "listener closed", "stopped"} {
		if !strings.Contains(srv.logs.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, srv.logs.String())
		}
	}
}

// Replicas first started together on an empty database: exactly one
// writes the demo data, on both engines.
func TestReplicasStartedTogetherSeedOnce(t *testing.T) {
	pgURL, _ := dbtest.NewSchema(t)
	for _, c := range []struct{ name, url string }{
		{"sqlite", sqliteURL(t)},
		{"postgres", pgURL},
	} {
		t.Run(c.name, func(t *testing.T) {
			const demo = 300
			e := env(map[string]string{"LOCATOR_DATABASE_URL": c.url, "LOCATOR_MAIL_DIR": t.TempDir(), "LOCATOR_DRAIN_PERIOD": "0"})
			var wg sync.WaitGroup
			replicas := make([]*server, 2)
			errs := make([]error, len(replicas))
			for i := range replicas {
				wg.Add(1)
				go func() { defer wg.Done(); replicas[i], errs[i] = launchServe(e, "--demo-stores", fmt.Sprint(demo)) }()
			}
			wg.Wait()
			for i, r := range replicas {
				t.Cleanup(r.stop)
				dbtest.Must(t, errs[i], "replica %d", i)
			}
			for i, r := range replicas {
				dbtest.Must(t, r.shutdown(t), "stop replica %d", i)
			}
			d, err := db.Open(context.Background(), c.url)
			dbtest.Must(t, err, "open")
			defer d.Close()
			var n, distinct int
			dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*), COUNT(DISTINCT store_id) FROM stores").Scan(&n, &distinct), "count")
			if n != demo || distinct != demo {
				t.Fatalf("%d stores, %d store ids after 2 replicas started together, want %d", n, distinct, demo)
			}
			written := 0
			for _, r := range replicas {
				written += strings.Count(r.logs.String(), "demo data written")
			}
			if written != 1 {
				t.Fatalf("%d replicas wrote the demo data:\n%s\n%s", written, replicas[0].logs, replicas[1].logs)
			}

			// Adding the demo data again is refused, with the reason.
			var out, errOut syncBuffer
			err = run(context.Background(), []string{"seed", "--demo", "--force", "--stores", "10"}, &out, &errOut, e)
			if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "already in the database") {
				t.Fatalf("seed --force over the demo data: %v", err)
			}
		})
	}
}

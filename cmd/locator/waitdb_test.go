package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
)

// TestReplicaWaitsForItsDatabase: a replica started while PostgreSQL
// refuses connections keeps trying with backoff (it logs each wait) instead
// of exiting, and starts serving once the database answers.
func TestReplicaWaitsForItsDatabase(t *testing.T) {
	u, _ := dbtest.NewSchema(t)
	pu, err := url.Parse(u)
	dbtest.Must(t, err, "parse")
	proxy := dbtest.NewProxy(t, pu.Host)
	pu.Host = proxy.Addr()
	proxy.Set(dbtest.Refuse)

	e := env(map[string]string{"LOCATOR_DATABASE_URL": pu.String(), "LOCATOR_MAIL_DIR": t.TempDir(), "LOCATOR_DRAIN_PERIOD": "0"})
	type launched struct {
		srv *server
		err error
	}
	started := make(chan launched, 1)
	logs := make(chan *syncBuffer, 1)
	go func() {
		srv, err := launchServeLogs(e, logs, "--no-seed")
		started <- launched{srv, err}
	}()
	buf := <-logs
	// Three waits logged: it is retrying, not exiting (and not started).
	for deadline := time.Now().Add(2 * time.Minute); strings.Count(buf.String(), "waiting for the database") < 3; time.Sleep(20 * time.Millisecond) {
		select {
		case l := <-started:
			t.Fatalf("serve returned while the database refused: %v\n%s", l.err, buf.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no retries logged:\n%s", buf.String())
		}
	}
	proxy.Set(dbtest.Pass)
	back := time.Now()
	l := <-started
	if l.srv != nil {
		t.Cleanup(l.srv.stop)
	}
	dbtest.Must(t, l.err, "start once the database answers")
	if !strings.Contains(buf.String(), "database reached") {
		t.Errorf("no log of the database reached:\n%s", buf.String())
	}
	var code int
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(l.srv.base + "/readyz")
		if err == nil {
			code = res.StatusCode
			res.Body.Close()
			if code == 200 {
				break
			}
		}
	}
	if code != 200 {
		t.Fatalf("readyz after the database came: %d", code)
	}
	t.Logf("%d waits logged; /readyz 200 %v after the database came back", strings.Count(buf.String(), "waiting for the database"), time.Since(back).Round(time.Millisecond))
	dbtest.Must(t, l.srv.shutdown(t), "stop")
}

// launchServeLogs is launchServe that hands over the server's log buffer
// (when logs is not nil) as soon as it runs, so a test can read the start's
// logs while it waits.
func launchServeLogs(e func(string) string, logs chan<- *syncBuffer, args ...string) (*server, error) {
	ctx, stop := context.WithCancel(context.Background())
	srv := &server{stop: stop, done: make(chan error, 1), logs: &syncBuffer{}}
	if logs != nil {
		logs <- srv.logs
	}
	var out syncBuffer
	go func() {
		srv.done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), &out, srv.logs, e)
	}()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, after, ok := strings.Cut(out.String(), "running at "); ok {
			srv.base = strings.TrimSpace(after)
			return srv, nil
		}
		select {
		case err := <-srv.done:
			return srv, fmt.Errorf("serve stopped: %w\n%s", err, srv.logs.String())
		default:
		}
	}
	return srv, fmt.Errorf("server did not start:\n%s", srv.logs.String())
}

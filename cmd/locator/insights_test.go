package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/insights"
)

// A replica stopped as SIGTERM stops it writes its counts (the flush
// interval here is an hour, so only the last flush can), and
// `locator insights` prints them.
func TestSIGTERMFlushesInsightsAndTheCLIPrintsThem(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a server's whole life per engine; make test runs it")
	}
	eachEngine(t, insightsScenario)
}

func insightsScenario(t *testing.T, dbURL string) {
	ctx := context.Background()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": dbURL, "LOCATOR_MAIL_DIR": t.TempDir(), "LOCATOR_DRAIN_PERIOD": "0"})
	var out, errOut syncBuffer
	if err := run(ctx, []string{"seed", "--demo", "--stores", "50"}, &out, &errOut, e); err != nil {
		t.Fatalf("seed: %v\n%s", err, errOut.String())
	}
	d, err := db.Open(ctx, dbURL)
	dbtest.Must(t, err, "open")
	defer d.Close()
	var id int64
	var lat, lon float64
	dbtest.Must(t, d.QueryRow(ctx, `SELECT id, latitude, longitude FROM stores WHERE status = 'published' ORDER BY id LIMIT 1`).Scan(&id, &lat, &lon), "a store")

	srv := startServe(t, e, "--insights-flush", "1h", "--log-level", "debug")
	const ua = "CanaryBrowser/7.0 (cmd insights test)"
	do := func(method, target, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.base+target, strings.NewReader(body))
		dbtest.Must(t, err, "request")
		req.Header.Set("User-Agent", ua)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		dbtest.Must(t, err, "%s %s", method, target)
		res.Body.Close()
		return res
	}
	do("GET", fmt.Sprintf("/api/store/physical-store/list-physical-store/?latitude=%f&longitude=%f&radius=1&limit=1", lat, lon), "")
	do("GET", "/api/store/physical-store/list-physical-store/?latitude=0.5&longitude=-30&radius=1", "")
	res := do("POST", "/api/events", fmt.Sprintf(`{"kind":"call","store_id":%d}`, id))
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("event: %d", res.StatusCode)
	}
	rep, err := insights.ReadStoreReport(ctx, d, id, 7, time.Now())
	dbtest.Must(t, err, "report")
	if rep.Current.Call != 0 {
		t.Fatalf("counts written before the stop (flush interval 1h): %+v", rep.Current)
	}
	if err := srv.shutdown(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if !strings.Contains(srv.logs.String(), "insights flushed") {
		t.Errorf("no last flush logged:\n%s", srv.logs.String())
	}
	if strings.Contains(srv.logs.String(), "CanaryBrowser") {
		t.Errorf("the log holds the user agent:\n%s", srv.logs.String())
	}
	rep, err = insights.ReadStoreReport(ctx, d, id, 7, time.Now())
	dbtest.Must(t, err, "report")
	if rep.Current.Call != 1 || rep.Current.Impression != 1 {
		t.Fatalf("after SIGTERM: %+v, want 1 call and 1 impression", rep.Current)
	}

	var cli syncBuffer
	dbtest.Must(t, run(ctx, []string{"insights", "--days", "2"}, &cli, &errOut, e), "insights")
	for _, want := range []string{"searches: 2\n", "with zero results: 1\n", "top places by zero-result searches:"} {
		if !strings.Contains(cli.String(), want) {
			t.Errorf("locator insights prints no %q:\n%s", want, cli.String())
		}
	}
	if err := run(ctx, []string{"insights", "--days", "0"}, &cli, &errOut, e); exitCode(err) != 2 {
		t.Errorf("--days 0: %v", err)
	}
}

package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/mail"
	"locator/internal/search"
	"locator/internal/stores"
)

const metricsToken = "test-token-0123456789abcdef"

// withMetricsToken is the fixture's server with /metrics opened by
// metricsToken.
func withMetricsToken(f *fixture) *httpapi.Server {
	deps := f.srv.Deps
	deps.MetricsToken = metricsToken
	return httpapi.New(deps)
}

// scrape reads h's /metrics with the token and parses it with the
// Prometheus text parser.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", rec.Code, truncate(rec.Body.String()))
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("/metrics Content-Type %q, want the text format", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value is the value of the sample of family name whose labels include
// labels (a histogram's count); ok is false when there is none.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	mf := fams[name]
	if mf == nil {
		return 0, false
	}
next:
	for _, m := range mf.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, lp := range m.GetLabel() {
				if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// must is value for a sample that has to be there.
func must(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	v, ok := value(fams, name, labels...)
	if !ok {
		t.Fatalf("/metrics has no %s %v", name, labels)
	}
	return v
}

func TestMetricsNeedTheirToken(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	// No token set: /metrics is not on the main listener at all.
	if rec := serve(t, f.srv, httptest.NewRequest(http.MethodGet, "/metrics", nil)); rec.Code != http.StatusNotFound {
		t.Fatalf("/metrics without LOCATOR_METRICS_TOKEN: %d, want 404", rec.Code)
	}
	srv := withMetricsToken(f)
	for _, auth := range []string{"", "Bearer", "Bearer wrong-token-0123456789", metricsToken, "Basic " + metricsToken, "Bearer " + metricsToken + "x"} {
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := serve(t, srv, req)
		if rec.Code != http.StatusUnauthorized || !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") ||
			!strings.Contains(rec.Body.String(), `"message"`) || strings.Contains(rec.Body.String(), "locator_") {
			t.Errorf("Authorization %q: %d %q %s, want 401 asking for a bearer token", auth, rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body)
		}
	}
	scrape(t, srv)
	// The listener of its own (LOCATOR_METRICS_ADDR) serves /metrics only.
	m := f.srv.Metrics()
	if rec := serve(t, m, httptest.NewRequest(http.MethodGet, "/metrics", nil)); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "locator_search_index_stores") {
		t.Errorf("metrics listener: %d", rec.Code)
	}
	if rec := serve(t, m, httptest.NewRequest(http.MethodGet, "/", nil)); rec.Code != http.StatusNotFound {
		t.Errorf("metrics listener /: %d, want 404", rec.Code)
	}
}

// A scrape parses, holds every family docs/deploy.md promises, and moves
// as the server works: a search counts under its route pattern, a store
// change shows as lag until the replica polls, queued mail as outbox
// depth, a lockout as refusals.
func TestMetricsFollowTheServer(t *testing.T) {
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		srv := withMetricsToken(f)
		fams := scrape(t, srv)
		for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes",
			"go_sql_open_connections", "locator_photo_decode_waiting", "locator_photo_decode_memory_bytes",
			"locator_db_call_deadline_exceeded_total", "locator_mail_send_failures_total"} {
			if fams[name] == nil {
				t.Errorf("/metrics has no %s", name)
			}
		}
		if _, ok := value(fams, "locator_search_snapshot_age_seconds"); ok {
			t.Error("a snapshot age without any snapshot (a database this small has none)")
		}
		if got := must(t, fams, "locator_search_index_stores"); int(got) != f.ix.Len() {
			t.Errorf("index stores %v, want %d", got, f.ix.Len())
		}
		applied := must(t, fams, "locator_search_version_applied")
		if must(t, fams, "locator_search_version_database") != applied || must(t, fams, "locator_search_lag_versions") != 0 ||
			must(t, fams, "locator_search_lag_seconds") != 0 {
			t.Errorf("a fresh index lags: %v", fams["locator_search_lag_versions"])
		}
		for _, src := range []string{"search_version", "search_snapshot", "outbox"} {
			if must(t, fams, "locator_metrics_source_up", "source", src) != 1 {
				t.Errorf("source %s down", src)
			}
		}

		// A search counts once under its route pattern, a bad one as 4xx.
		const route = "GET /api/store/physical-store/list-physical-store/{$}"
		before, _ := value(fams, "locator_http_request_duration_seconds", "route", route, "code", "2xx")
		do(t, srv, http.MethodGet, list+"?"+nyc, nil, true)
		do(t, srv, http.MethodGet, list+"?latitude=91&longitude=0", nil, false)
		fams = scrape(t, srv)
		if got := must(t, fams, "locator_http_request_duration_seconds", "route", route, "code", "2xx"); got != before+1 {
			t.Errorf("searches counted %v, want %v", got, before+1)
		}
		if got := must(t, fams, "locator_http_request_duration_seconds", "route", route, "code", "4xx"); got != 1 {
			t.Errorf("bad searches counted %v, want 1", got)
		}
		// The scrape itself counted under its own pattern; no series is
		// labelled with a path.
		must(t, fams, "locator_http_request_duration_seconds", "route", "GET /metrics", "code", "2xx")
		for _, m := range fams["locator_http_request_duration_seconds"].GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "route" && strings.Contains(lp.GetValue(), "?") {
					t.Errorf("route label %q", lp.GetValue())
				}
			}
		}

		// A store change: the database is one version ahead until the
		// replica polls.
		dbtest.Must(t, f.srv.Stores.SetStatus(ctx, f.nearID, stores.Hidden), "hide a store")
		fams = scrape(t, srv)
		if got := must(t, fams, "locator_search_version_database"); got != applied+1 {
			t.Errorf("database version %v, want %v", got, applied+1)
		}
		if must(t, fams, "locator_search_lag_versions") != 1 || must(t, fams, "locator_search_lag_seconds") <= 0 {
			t.Errorf("after a change: lag %v versions, %v s; want 1 and some time",
				must(t, fams, "locator_search_lag_versions"), must(t, fams, "locator_search_lag_seconds"))
		}
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		fams = scrape(t, srv)
		if must(t, fams, "locator_search_version_applied") != applied+1 || must(t, fams, "locator_search_lag_versions") != 0 ||
			must(t, fams, "locator_search_lag_seconds") != 0 || int(must(t, fams, "locator_search_index_stores")) != f.ix.Len() {
			t.Errorf("after the poll: %v", fams["locator_search_lag_versions"])
		}

		// Mail queued and not yet sent.
		if must(t, fams, "locator_mail_outbox_pending") != 0 || must(t, fams, "locator_mail_outbox_oldest_age_seconds") != 0 {
			t.Error("an empty outbox has pending mail")
		}
		dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
			return mail.Enqueue(ctx, tx, mail.Message{To: "ann@example.com", Subject: "Hello", Text: "Hi"})
		}), "queue mail")
		fams = scrape(t, srv)
		if must(t, fams, "locator_mail_outbox_pending") != 1 || must(t, fams, "locator_mail_outbox_oldest_age_seconds") < 0 {
			t.Errorf("outbox after queueing one: %v", fams["locator_mail_outbox_pending"])
		}

		// The sign-in lockout: the 11th wrong password of an account is
		// refused by it.
		lockouts, _ := value(fams, "locator_signin_lockout_refusals_total", "accounts", "member")
		limited, _ := value(fams, "locator_ratelimit_refusals_total", "limit", "member-signin")
		c := &client{t: t, h: srv}
		c.call("POST", "/api/store/customers", map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "ann@example.com", "password": "tulip-lamp-7"})
		for range 11 {
			c.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "wrong-password-1"})
		}
		fams = scrape(t, srv)
		if got := must(t, fams, "locator_signin_lockout_refusals_total", "accounts", "member"); got != lockouts+1 {
			t.Errorf("lockout refusals %v, want %v", got, lockouts+1)
		}
		if got := must(t, fams, "locator_ratelimit_refusals_total", "limit", "member-signin"); got != limited+1 {
			t.Errorf("member-signin refusals %v, want %v", got, limited+1)
		}
	})
}

// Two replicas on one database, each with its own index: after a change,
// the one that polled reports no lag and the other one version and some
// seconds behind, until it polls too. A database that went back (a
// restore under running replicas) shows as a negative lag, and the
// replica's poll says to restart it.
func TestReplicasReportTheirLag(t *testing.T) {
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		ctx := context.Background()
		f := newFixture(t, da)
		a := withMetricsToken(f)
		ixB := search.NewIndex()
		syB := search.NewSyncer(stores.NewRepo(dbb), ixB, search.SnapshotAuto, slog.New(slog.NewTextHandler(io.Discard, nil)))
		dbtest.Must(t, syB.Load(ctx), "load replica b")
		b := httpapi.New(httpapi.Deps{DB: dbb, Index: ixB, Syncer: syB, Stores: stores.NewRepo(dbb), Network: httpapi.Network{MetricsToken: metricsToken},
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		lag := func(h http.Handler) (versions, seconds, applied, database float64) {
			fams := scrape(t, h)
			return must(t, fams, "locator_search_lag_versions"), must(t, fams, "locator_search_lag_seconds"),
				must(t, fams, "locator_search_version_applied"), must(t, fams, "locator_search_version_database")
		}
		if v, s, _, _ := lag(b); v != 0 || s != 0 {
			t.Fatalf("replica b after its load: lag %v versions, %v s", v, s)
		}
		dbtest.Must(t, f.srv.Stores.SetStatus(ctx, f.farID, stores.Hidden), "hide a store through replica a")
		dbtest.Must(t, f.sy.Poll(ctx), "replica a polls")
		time.Sleep(10 * time.Millisecond) // some time behind, measurable
		va, sa, appliedA, dbA := lag(a)
		vb, sb, appliedB, dbB := lag(b)
		if va != 0 || sa != 0 || appliedA != dbA {
			t.Errorf("replica a, polled: lag %v versions, %v s (applied %v of %v)", va, sa, appliedA, dbA)
		}
		if vb != 1 || sb < 0.01 || dbB != dbA || appliedB != dbA-1 {
			t.Errorf("replica b, not polled: lag %v versions, %v s (applied %v of %v), want 1 version and at least 10 ms", vb, sb, appliedB, dbB)
		}
		dbtest.Must(t, syB.Poll(ctx), "replica b polls")
		if v, s, applied, database := lag(b); v != 0 || s != 0 || applied != database || applied != appliedA {
			t.Errorf("replica b, polled: lag %v versions, %v s (applied %v of %v)", v, s, applied, database)
		}

		// An older copy restored under the running replicas.
		_, err := da.Exec(ctx, "UPDATE search_version SET version = version - 3 WHERE id = 1")
		dbtest.Must(t, err, "move the version back")
		if err := syB.Poll(ctx); err == nil || !strings.Contains(err.Error(), "restart this replica") {
			t.Errorf("poll after the version went back: %v", err)
		}
		if v, _, _, _ := lag(b); v != -3 {
			t.Errorf("replica b after the version went back: lag %v versions, want -3", v)
		}
	})
}

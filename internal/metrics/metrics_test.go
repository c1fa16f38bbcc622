package metrics

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// names gathers a registry with every source given and returns the names
// a query can use (a histogram's _bucket, _count and _sum).
func names(t *testing.T) map[string]bool {
	t.Helper()
	r := New(Sources{
		Search: func(context.Context) Search {
			return Search{Stores: 3, Applied: 7, Database: 9, Synced: time.Now().Add(-time.Second), Snapshot: time.Now()}
		},
		Outbox:  func(context.Context) (Outbox, error) { return Outbox{Pending: 1, Oldest: time.Now()}, nil },
		Photos:  func() PhotoQueue { return PhotoQueue{BudgetBytes: 1} },
		Tiles:   func() TileCache { return TileCache{Hits: 1} },
		Answers: func() AnswerCache { return AnswerCache{Misses: 1} },
	})
	r.ObserveHTTP("GET /api/config", 200, time.Millisecond)
	RateLimited("signup:someone@example.com")
	LockedOut("member")
	fams, err := r.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, mf := range fams {
		out[mf.GetName()] = true
		if mf.GetType() == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_count", "_sum"} {
				out[mf.GetName()+s] = true
			}
		}
	}
	return out
}

// Every locator_ metric the alerts, the dashboard and docs/deploy.md name
// is one the server exposes: a renamed metric fails here, not on call.
func TestDeployFilesNameRealMetrics(t *testing.T) {
	have := names(t)
	metric := regexp.MustCompile(`\blocator_[a-z_]+[a-z]\b`)
	for _, file := range []string{"../../deploy/alerts.yml", "../../deploy/alerts_test.yml", "../../deploy/grafana-dashboard.json", "../../docs/deploy.md"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range metric.FindAllString(string(b), -1) {
			if strings.HasPrefix(name, "locator_test") {
				continue
			}
			n++
			if !have[name] {
				t.Errorf("%s names %s, which the server does not expose", file, name)
			}
		}
		if n == 0 {
			t.Errorf("%s names no metric", file)
		}
	}
}

// The lag is read from the sources; a source that fails is reported by
// locator_metrics_source_up and its gauges are left out.
func TestSearchLagAndFailingSources(t *testing.T) {
	synced := time.Now().Add(-30 * time.Second)
	search := Search{Stores: 5, Applied: 10, Database: 12, Synced: synced}
	r := New(Sources{
		Search: func(context.Context) Search { return search },
		Outbox: func(context.Context) (Outbox, error) { return Outbox{}, errors.New("database unreachable") },
	})
	get := func() map[string]*dto.MetricFamily {
		fams, err := r.Gatherer().Gather()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*dto.MetricFamily{}
		for _, mf := range fams {
			m[mf.GetName()] = mf
		}
		return m
	}
	gaugeOf := func(m map[string]*dto.MetricFamily, name string) float64 {
		t.Helper()
		mf := m[name]
		if mf == nil {
			t.Fatalf("no %s", name)
		}
		return mf.GetMetric()[0].GetGauge().GetValue()
	}
	m := get()
	if gaugeOf(m, "locator_search_lag_versions") != 2 {
		t.Errorf("lag versions %v, want 2", gaugeOf(m, "locator_search_lag_versions"))
	}
	if s := gaugeOf(m, "locator_search_lag_seconds"); s < 30 || s > 60 {
		t.Errorf("lag seconds %v, want the 30 s since the index last matched", s)
	}
	if m["locator_mail_outbox_pending"] != nil {
		t.Error("outbox gauges from a failed read")
	}
	for _, s := range m["locator_metrics_source_up"].GetMetric() {
		src := s.GetLabel()[0].GetValue()
		if want := map[string]float64{"outbox": 0, "search_version": 1, "search_snapshot": 1}[src]; s.GetGauge().GetValue() != want {
			t.Errorf("source %s up %v, want %v", src, s.GetGauge().GetValue(), want)
		}
	}
	// Caught up: no lag, however long ago the last change was.
	search.Applied = 12
	if m := get(); gaugeOf(m, "locator_search_lag_versions") != 0 || gaugeOf(m, "locator_search_lag_seconds") != 0 {
		t.Error("a caught-up index lags")
	}
	search.DatabaseErr = errors.New("database unreachable")
	if m := get(); m["locator_search_lag_versions"] != nil || m["locator_search_index_stores"] == nil {
		t.Error("without the database's version: want the index size and no lag")
	}
}

// Rate-limit labels are the key's prefix, never what a caller sent.
func TestRateLimitLabelsAreBounded(t *testing.T) {
	for key, want := range map[string]string{"signup:ann@example.com": "signup", "member-signin:bo@example.com": "member-signin",
		"no-colon-at-all": "other", ":empty": "other", strings.Repeat("x", 50) + ":y": "other"} {
		before := counterValue(t, want)
		RateLimited(key)
		if got := counterValue(t, want); got != before+1 {
			t.Errorf("%q: limit %q went from %v to %v", key, want, before, got)
		}
	}
}

func counterValue(t *testing.T, limit string) float64 {
	t.Helper()
	var m dto.Metric
	if err := rateLimitRefusals.WithLabelValues(limit).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// What the metrics add to every request: the histogram of its route and
// status class (docs/performance.md, "Metrics"):
//
//	go test -run '^$' -bench ObserveHTTP -cpu 1,2 ./internal/metrics/
func BenchmarkObserveHTTP(b *testing.B) {
	r := New(Sources{})
	routes := []string{"GET /api/store/physical-store/list-physical-store/{$}", "GET /api/store/physical-store/{id}", "/", "GET /map/tiles/{z}/{x}/{y}"}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r.ObserveHTTP(routes[i&3], 200, 37*time.Microsecond)
			i++
		}
	})
}

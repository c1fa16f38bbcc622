// Package metrics is what an operator scrapes from /metrics (Prometheus
// text format, through the Prometheus Go client): the metric definitions
// and each server's registry. It imports nothing of ours. Events are
// counted where they happen, in the process-wide counters below (the
// database package counts its calls past their deadline, mail its failed
// sends, ratelimit its refusals); a server's gauges read the state of its
// parts when scraped, through the functions in Sources, so an idle replica
// costs nothing and a scrape sees the state of that moment.
// docs/deploy.md lists every metric with the alerts built on them.
package metrics

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Process-wide counters, shared by every server of the process (a test
// running two servers sees their sum).
var (
	DBCallDeadlines = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "locator_db_call_deadline_exceeded_total",
		Help: "Database calls of requests that hit their deadline (LOCATOR_DB_TIMEOUT); the request answered 503.",
	})
	MailSendFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "locator_mail_send_failures_total",
		Help: "Mail deliveries that failed; each failed attempt counts, retried or not.",
	})
	MailGivenUp = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "locator_mail_given_up_total",
		Help: "Mail messages given up after their last attempt.",
	})
	rateLimitRefusals = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "locator_ratelimit_refusals_total",
		Help: "Requests refused by a rate limit, by limit (the sign-in lockouts are the *-signin limits).",
	}, []string{"limit"})
	lockoutRefusals = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "locator_signin_lockout_refusals_total",
		Help: "Sign-ins refused because the account is locked, by kind of account.",
	}, []string{"accounts"})
)

// RateLimited counts a refusal of the limit key, named by the key's prefix
// before its first colon ("signup:ann@example.com" is limit "signup"), so
// the label takes the few names the code gives, never a caller's value.
func RateLimited(key string) {
	name, _, ok := strings.Cut(key, ":")
	if !ok || name == "" || len(name) > 40 {
		name = "other"
	}
	rateLimitRefusals.WithLabelValues(name).Inc()
}

// LockedOut counts a sign-in refused by the lockout of accounts (member,
// moderator, business).
func LockedOut(accounts string) { lockoutRefusals.WithLabelValues(accounts).Inc() }

// Search is one replica's search index as a scrape sees it.
type Search struct {
	Stores  int       // stores in the index
	Applied int64     // the search version the index reflects
	Synced  time.Time // when the index last matched the database (zero: not loaded)
	// Database is the database's search version, read at the scrape;
	// DatabaseErr says why it could not be read.
	Database    int64
	DatabaseErr error
	// Snapshot is when the newest complete search snapshot was written
	// (zero: there is none, or SnapshotErr says why it could not be read).
	Snapshot    time.Time
	SnapshotErr error
}

// Outbox is the mail waiting to be sent.
type Outbox struct {
	Pending int       // messages neither sent nor given up
	Oldest  time.Time // when the oldest of them was queued; zero: none
}

// PhotoQueue is the photo decode gate (internal/photos).
type PhotoQueue struct {
	Waiting     int64 // uploads waiting for memory to decode
	HeldBytes   int64 // memory reserved by the decodes running
	BudgetBytes int64 // LOCATOR_PHOTO_MEMORY
}

// TileCache is the map tile cache (internal/maptiles).
type TileCache struct {
	Hits, Misses uint64
	Bytes        int
}

// AnswerCache is the cache of compressed search answers (internal/answercache).
type AnswerCache struct {
	Hits, Misses uint64
	Bytes        int64
}

// Sources are read at each scrape; a nil one is left out.
type Sources struct {
	Search func(ctx context.Context) Search
	Outbox func(ctx context.Context) (Outbox, error)
	Photos func() PhotoQueue
	Tiles  func() TileCache
	// Answers is the search answer cache; nil when it is off.
	Answers func() AnswerCache
	DB      *sql.DB // its connection pool's statistics
}

// scrapeTimeout bounds the database reads of one scrape.
const scrapeTimeout = 2 * time.Second

// Registry is one server's metrics.
type Registry struct {
	reg      *prometheus.Registry
	duration *prometheus.HistogramVec
	handler  http.Handler
	// observers caches the histogram of each route and class seen, so a
	// request costs one map read instead of hashing its label values.
	observers sync.Map // routeClass -> prometheus.Observer
}

type routeClass struct {
	route string
	class int
}

// New returns a registry with the process-wide counters, the Go runtime and
// process collectors, the HTTP histogram and the gauges read from src.
func New(src Sources) *Registry {
	r := &Registry{reg: prometheus.NewRegistry()}
	r.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "locator_http_request_duration_seconds",
		Help: "HTTP requests by route pattern and status class (2xx, 4xx, ...), with their time to answer.",
		// Searches answer in well under a millisecond; page loads and
		// writes take milliseconds; the tail goes to the 5 s of a stuck call.
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "code"})
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		DBCallDeadlines, MailSendFailures, MailGivenUp, rateLimitRefusals, lockoutRefusals,
		r.duration, &state{src: src},
	)
	if src.DB != nil {
		r.reg.MustRegister(collectors.NewDBStatsCollector(src.DB, "locator"))
	}
	r.handler = promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return r
}

// Handler serves the registry in the Prometheus text format.
func (r *Registry) Handler() http.Handler { return r.handler }

// Gatherer is the registry, for tests.
func (r *Registry) Gatherer() prometheus.Gatherer { return r.reg }

// classes are the status classes' label values.
var classes = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

// ObserveHTTP records one answered request: route is its ServeMux pattern
// ("" when none matched), status its code.
func (r *Registry) ObserveHTTP(route string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	key := routeClass{route, status / 100}
	o, ok := r.observers.Load(key)
	if !ok {
		class := "other"
		if i := key.class - 1; i >= 0 && i < len(classes) {
			class = classes[i]
		}
		o, _ = r.observers.LoadOrStore(key, r.duration.WithLabelValues(route, class))
	}
	o.(prometheus.Observer).Observe(d.Seconds())
}

// state is the collector of the gauges read at scrape time.
type state struct{ src Sources }

var (
	descStores = prometheus.NewDesc("locator_search_index_stores",
		"Stores in this replica's search index.", nil, nil)
	descApplied = prometheus.NewDesc("locator_search_version_applied",
		"The search version this replica's index reflects.", nil, nil)
	descDBVersion = prometheus.NewDesc("locator_search_version_database",
		"The database's search version, read at the scrape.", nil, nil)
	descLagVersions = prometheus.NewDesc("locator_search_lag_versions",
		"How many search versions this replica's index is behind the database; below 0 the database went back (a restore): restart the replica.", nil, nil)
	descLagSeconds = prometheus.NewDesc("locator_search_lag_seconds",
		"How long this replica's index has been behind the database: the time since it last matched, 0 when it matches.", nil, nil)
	descSnapshotAge = prometheus.NewDesc("locator_search_snapshot_age_seconds",
		"Age of the newest complete search snapshot (absent when there is none).", nil, nil)
	descOutboxPending = prometheus.NewDesc("locator_mail_outbox_pending",
		"Mail messages waiting to be sent (neither sent nor given up).", nil, nil)
	descOutboxOldest = prometheus.NewDesc("locator_mail_outbox_oldest_age_seconds",
		"Age of the oldest mail message waiting to be sent (0 when none waits).", nil, nil)
	descPhotoWaiting = prometheus.NewDesc("locator_photo_decode_waiting",
		"Photo uploads waiting for memory to be decoded.", nil, nil)
	descPhotoHeld = prometheus.NewDesc("locator_photo_decode_memory_bytes",
		"Memory reserved by the photo decodes running.", nil, nil)
	descPhotoBudget = prometheus.NewDesc("locator_photo_decode_memory_budget_bytes",
		"Memory all photo decodes may hold at once (LOCATOR_PHOTO_MEMORY).", nil, nil)
	descTileHits = prometheus.NewDesc("locator_map_tile_cache_hits_total",
		"Map tiles served from the tile cache.", nil, nil)
	descTileMisses = prometheus.NewDesc("locator_map_tile_cache_misses_total",
		"Map tiles built because the tile cache did not hold them.", nil, nil)
	descTileBytes = prometheus.NewDesc("locator_map_tile_cache_bytes",
		"Bytes held by the map tile cache.", nil, nil)
	descAnswerHits = prometheus.NewDesc("locator_search_answer_cache_hits_total",
		"Compressed search answers sent from the answer cache.", nil, nil)
	descAnswerMisses = prometheus.NewDesc("locator_search_answer_cache_misses_total",
		"Compressed search answers built because the cache had none for the query this minute.", nil, nil)
	descAnswerBytes = prometheus.NewDesc("locator_search_answer_cache_bytes",
		"Bytes the answer cache holds for the current minute and index generation.", nil, nil)
	descSourceUp = prometheus.NewDesc("locator_metrics_source_up",
		"Whether the scrape could read a source (search_version, search_snapshot, outbox): 1 yes, 0 no.", []string{"source"}, nil)
)

func (c *state) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descStores, descApplied, descDBVersion, descLagVersions, descLagSeconds,
		descSnapshotAge, descOutboxPending, descOutboxOldest, descPhotoWaiting, descPhotoHeld, descPhotoBudget,
		descTileHits, descTileMisses, descTileBytes, descAnswerHits, descAnswerMisses, descAnswerBytes, descSourceUp} {
		ch <- d
	}
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}

func counter(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
}

func up(ch chan<- prometheus.Metric, source string, err error) {
	v := 1.0
	if err != nil {
		v = 0
	}
	gauge(ch, descSourceUp, v, source)
}

// age is the seconds from t to now, 0 for a zero t or one in the future.
func age(t, now time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return max(0, now.Sub(t).Seconds())
}

func (c *state) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	now := time.Now()
	if c.src.Search != nil {
		s := c.src.Search(ctx)
		gauge(ch, descStores, float64(s.Stores))
		gauge(ch, descApplied, float64(s.Applied))
		up(ch, "search_version", s.DatabaseErr)
		if s.DatabaseErr == nil {
			gauge(ch, descDBVersion, float64(s.Database))
			lag, secs := s.Database-s.Applied, 0.0
			if lag > 0 {
				secs = age(s.Synced, now)
			}
			gauge(ch, descLagVersions, float64(lag))
			gauge(ch, descLagSeconds, secs)
		}
		up(ch, "search_snapshot", s.SnapshotErr)
		if s.SnapshotErr == nil && !s.Snapshot.IsZero() {
			gauge(ch, descSnapshotAge, age(s.Snapshot, now))
		}
	}
	if c.src.Outbox != nil {
		o, err := c.src.Outbox(ctx)
		up(ch, "outbox", err)
		if err == nil {
			gauge(ch, descOutboxPending, float64(o.Pending))
			gauge(ch, descOutboxOldest, age(o.Oldest, now))
		}
	}
	if c.src.Photos != nil {
		p := c.src.Photos()
		gauge(ch, descPhotoWaiting, float64(p.Waiting))
		gauge(ch, descPhotoHeld, float64(p.HeldBytes))
		gauge(ch, descPhotoBudget, float64(p.BudgetBytes))
	}
	if c.src.Tiles != nil {
		t := c.src.Tiles()
		counter(ch, descTileHits, float64(t.Hits))
		counter(ch, descTileMisses, float64(t.Misses))
		gauge(ch, descTileBytes, float64(t.Bytes))
	}
	if c.src.Answers != nil {
		a := c.src.Answers()
		counter(ch, descAnswerHits, float64(a.Hits))
		counter(ch, descAnswerMisses, float64(a.Misses))
		gauge(ch, descAnswerBytes, float64(a.Bytes))
	}
}

package httpapi

// The HTTP shell: the root handler around the JSON API. New builds the
// server; the API's handlers register on its api mux (routes, server.go),
// and shell puts around them what every other path and every request
// gets: middleware.go's chain, headers.go's security headers, static.go's
// web app with frames.go's first frames, maptiles.go's map, the store
// pages, photos, the health checks (health.go) and /metrics (metrics.go).

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"locator/internal/clock"
	"locator/internal/maptiles"
	"locator/internal/metrics"
	"locator/internal/photos"
	"locator/internal/ratelimit"
	"locator/internal/reviews"
	"locator/internal/search"
	"locator/internal/storepages"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// MaxQueryBytes bounds a request's query string.
const MaxQueryBytes = 4096

// New builds the handler.
func New(d Deps) *Server {
	s := &Server{Deps: d, log: d.Log, api: http.NewServeMux()}
	s.dbHealth.clean = readyAfter
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.IPLimits == nil {
		s.IPLimits = ratelimit.NewMemory()
	}
	if s.Clock == nil {
		s.Clock = clock.System()
	}
	if s.PhotoGate == nil {
		s.PhotoGate = photos.NewGate(0)
	}
	if s.DBTimeout <= 0 {
		s.DBTimeout = DefaultDBTimeout
	}
	s.routes()
	s.handler = s.shell()
	return s
}

// shell builds the root handler around the JSON API (registered on s.api
// by routes): the middleware chain every request goes through (its
// metrics and log line, the database budget, the security headers, the
// size limits, the route noted), the health checks, photos, the store
// pages, the map, /metrics, and the web app on every other path.
func (s *Server) shell() http.Handler {
	d := s.Deps
	s.metrics = metrics.New(s.metricSources())
	s.streetStyle = sync.OnceValues(func() ([]byte, error) { return maptiles.StreetStyle(s.Streets.Header) })
	s.policy = newContentPolicy(d.MapStyleURL)
	s.static = newStatic(d.Web, runtimeConfig{APIBase: "/api", StorefrontURL: d.StorefrontURL, MapStyleURL: d.MapStyleURL,
		AddressSearch: d.Places != nil && d.Places.Upstream != nil,
		IPLocation:    d.IPLocator.HasHeaders() || d.IPLocator.DatabaseType() != ""}, s.policy)
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeMessage(w, http.StatusForbidden, "Cross-origin request refused")
	}))
	root := http.NewServeMux()
	root.Handle("/api/", csrf.Handler(apiOnly(s.api)))
	root.HandleFunc("GET /healthz", s.healthz)
	root.HandleFunc("GET /readyz", s.readyz)
	root.HandleFunc("GET /photos/{id}/{file}", s.handle(s.servePhoto))
	s.mountPages(root)
	s.mapRoutes(root)
	s.mountMetrics(root)
	root.HandleFunc("GET /embed.js", s.serveEmbedScript)
	root.HandleFunc("GET /embed", s.serveEmbed)
	root.Handle("/", s.static)
	return s.observe(s.lifecycle(s.securityHeaders(limits(noteRoute(root)))))
}

// mountPages serves the server-rendered store pages, sitemaps and
// robots.txt (internal/storepages) from the search index, under a content
// policy that allows their one inline style and no script at all.
func (s *Server) mountPages(root *http.ServeMux) {
	ix := s.Index
	if ix == nil {
		ix = search.NewIndex()
	}
	opt := storepages.Options{PublicURL: s.PublicURL, StorefrontURL: s.StorefrontURL, Log: s.log, Now: s.Clock}
	if s.Stores != nil {
		opt.Stores = s.Stores // permanently closed stores keep their page
	}
	opt.Report = s.pageReport
	if s.Reviews != nil {
		opt.LatestReviews = s.latestReviews
	}
	if s.counter().Enabled() {
		opt.Viewed = s.pageViewed
		opt.PingPath = "/insights/ping/"
	}
	pages := storepages.New(ix, opt)
	s.static.canonical = func(r *http.Request) string {
		id, err := strconv.ParseInt(r.URL.Query().Get("store"), 10, 64)
		if err != nil || id < 1 {
			return ""
		}
		u, _ := pages.StoreURL(r, id)
		return u
	}
	s.static.store = func(r *http.Request, id int64) (storepages.Heading, reviews.Summary, bool) {
		h, ok := pages.Heading(id)
		if !ok || s.Reviews == nil {
			return h, reviews.Summary{}, false
		}
		sum, err := s.Reviews.Summarize(r.Context(), id)
		return h, sum, err == nil
	}
	// The report form posts to the pages: the same cross-origin refusal
	// as the API's, answered as text (the form's page is HTML, not JSON).
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Cross-origin request refused", http.StatusForbidden)
	}))
	if opt.PingPath != "" {
		root.Handle("POST /insights/ping/{id}/{kind}", csrf.Handler(s.handle(s.pagePing)))
	}
	policy := pagePolicy(storepages.StyleHash())
	page := func(h http.HandlerFunc) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", policy)
			h(w, r)
		})
	}
	root.Handle("/stores", page(pages.Serve))
	root.Handle("/stores/", csrf.Handler(page(pages.Serve)))
	root.Handle("/products/", page(pages.ServeProduct))
	root.Handle("GET /sitemap.xml", page(pages.SitemapIndex))
	root.Handle("GET /sitemaps/", page(pages.Sitemap))
	root.Handle("GET /robots.txt", page(pages.Robots))
	root.Handle("GET /cards/", http.HandlerFunc(pages.Card))
}

// Drain starts a graceful stop: from now on /readyz answers 503, so load
// balancers stop sending requests here, while requests still get served;
// each answer closes its connection, so no client holds a kept-alive
// connection that the stop would close under it.
func (s *Server) Drain() { s.draining.Store(true) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// limits refuses oversized headers and query strings and bounds request bodies.
func limits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if headerBytes(r) > MaxHeaderBytes {
			writeMessage(w, http.StatusRequestHeaderFieldsTooLarge, "request headers too large")
			return
		}
		if len(r.URL.RawQuery) > MaxQueryBytes {
			writeMessage(w, http.StatusBadRequest, "query string too long")
			return
		}
		if strings.IndexByte(r.URL.Path, 0) >= 0 || strings.IndexByte(r.URL.RawQuery, 0) >= 0 || strings.Contains(r.URL.RawQuery, "%00") {
			writeMessage(w, http.StatusBadRequest, errNUL.Message) // see errNUL
			return
		}
		if r.Body != nil {
			limit := int64(MaxBodyBytes)
			if isPhotoUpload(r) {
				limit = photos.MaxBytes
			} else if isRegistryUpload(r) {
				limit = MaxRegistryUploadBytes
			} else if isStockUpload(r) {
				limit = MaxStockUploadBytes
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// apiOnly answers unknown API paths and wrong methods with JSON, never with
// the web app or a plain-text error, and refuses bodies that are not JSON.
func apiOnly(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "" {
			rec := &probe{header: http.Header{}}
			mux.ServeHTTP(rec, r) // learn whether it is 404 or 405 (with Allow)
			if rec.status == http.StatusMethodNotAllowed {
				w.Header().Set("Allow", rec.header.Get("Allow"))
				writeMessage(w, http.StatusMethodNotAllowed, "method not allowed")
				return
			}
			if rec.status == http.StatusMovedPermanently || rec.status == http.StatusTemporaryRedirect || rec.status == http.StatusPermanentRedirect {
				w.Header().Set("Location", rec.header.Get("Location"))
				w.WriteHeader(rec.status)
				return
			}
			writeMessage(w, http.StatusNotFound, "not found: "+strings.TrimPrefix(r.URL.Path, "/api"))
			return
		}
		if sendsNonJSON(r) && !isPhotoUpload(r) && !isRegistryUpload(r) && !isStockUpload(r) {
			writeMessage(w, http.StatusUnsupportedMediaType, "The request body must be JSON (Content-Type: application/json)")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// probe is a ResponseWriter that only keeps the status and headers.
type probe struct {
	header http.Header
	status int
}

func (p *probe) Header() http.Header         { return p.header }
func (p *probe) Write(b []byte) (int, error) { return len(b), nil }
func (p *probe) WriteHeader(code int)        { p.status = code }

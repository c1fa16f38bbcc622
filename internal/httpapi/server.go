// Package httpapi is the HTTP face of the locator: the JSON API under /api/
// and the embedded web app everywhere else. Handlers decode, validate, call
// a feature package and respond; they never touch SQL.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/accounts"
	"locator/internal/answercache"
	"locator/internal/business"
	"locator/internal/claims"
	"locator/internal/clock"
	"locator/internal/favorites"
	"locator/internal/insights"
	"locator/internal/licences"
	"locator/internal/maptiles"
	"locator/internal/metrics"
	"locator/internal/photos"
	"locator/internal/places"
	"locator/internal/ratelimit"
	"locator/internal/reports"
	"locator/internal/reviews"
	"locator/internal/rules"
	"locator/internal/search"
	"locator/internal/storepages"
	"locator/internal/stores"
)

// Pinger checks the database (for /readyz).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps is everything the HTTP layer needs, built by cmd/locator.
type Deps struct {
	Log           *slog.Logger
	Clock         clock.Clock // the app's clock; nil: the system's
	DB            Pinger
	Index         *search.Index
	Syncer        *search.Syncer
	Stores        *stores.Repo
	Reviews       *reviews.Repo
	Accounts      *accounts.Service
	Favorites     *favorites.Service
	Claims        *claims.Service
	Photos        *photos.Repo     // store photos; nil: none served
	PhotoGate     *photos.Gate     // the memory budget of photo decodes; nil: one of photos.DefaultMemoryBudget
	Reports       *reports.Service // shoppers' reports; nil: refused
	Business      *business.Service
	Licences      *licences.Registry
	Insights      *insights.Service  // counts and reports (docs/insights.md); nil: nothing counted
	Answers       *answercache.Cache // compressed search answers kept for their minute (LOCATOR_ANSWER_CACHE); nil: none
	IPLimits      *ratelimit.Memory  // per-IP limits; nil: a fresh one
	SecureCookies bool               // served over HTTPS: Secure, __Host- session cookie
	Web           fs.FS              // the built web app; nil or without index.html: a placeholder page
	StorefrontURL string
	MapStyleURL   string
	Version       string
	// PublicURL is where users reach the site (LOCATOR_PUBLIC_URL): the
	// base of the store pages' canonical URLs and sitemaps. Empty: each
	// request's own host.
	PublicURL string

	Basemap *maptiles.Basemap // the offline basemap's tiles; nil: /map/ answers 404
	Streets *maptiles.PMTiles // LOCATOR_PMTILES's archive; nil: the offline basemap is the app's style

	Places         *places.Service   // place search; nil: empty answers
	IPLocator      *places.IPLocator // caller location; nil: always unknown
	TrustedProxies []netip.Prefix    // peers whose X-Forwarded-For and location headers are believed

	// DBTimeout bounds the PostgreSQL calls of a request (statements, a
	// transaction's begin and commit) in all: see db.WithRequestBudget.
	// Past it the request answers 503. 0: DefaultDBTimeout.
	DBTimeout time.Duration

	// MetricsToken (LOCATOR_METRICS_TOKEN): /metrics answers callers that
	// send it as a bearer token; empty: no /metrics here (see Metrics).
	MetricsToken string

	// AccessLog (LOCATOR_ACCESS_LOG): which requests get a log line:
	// AccessLogAll (also when empty), AccessLogSample or AccessLogOff.
	AccessLog string
}

// DefaultDBTimeout keeps a request that meets a hanging database under 2 s.
const DefaultDBTimeout = 1500 * time.Millisecond

// Server routes requests.
type Server struct {
	Deps
	log     *slog.Logger
	api     *http.ServeMux
	handler http.Handler
	static  *static
	policy  contentPolicy
	metrics *metrics.Registry

	streetStyle func() ([]byte, error)
	ruleLocator rules.Locator // places positions by the embedded ZIP codes (loaded on first use)

	draining    atomic.Bool   // see Drain
	accessCount atomic.Uint64 // requests seen by the sampled access log
	dbHealth    dbHealth      // what /readyz says of the database
}

// readyAfter is how many readiness checks in a row must find the database
// well (its ping answered, no request failed for it since the check
// before) before a replica that found it unwell says ready again. Checks,
// not seconds: a balancer polling every second takes the replica back
// after three good answers, and a database that fails one request in three
// keeps it out instead of flapping it in and out.
const readyAfter = 3

// dbHealth is the database's state as /readyz tells it.
type dbHealth struct {
	failures atomic.Uint64 // requests answered 503 for their database (writeError)

	mu    sync.Mutex
	seen  uint64 // failures at the last check
	clean int    // checks in a row that found the database well
}

// check is one readiness check with the ping's outcome: "" when the
// database is well, else why not.
func (h *dbHealth) check(pingOK bool) string {
	f := h.failures.Load()
	h.mu.Lock()
	defer h.mu.Unlock()
	failed := f != h.seen
	h.seen = f
	switch {
	case !pingOK:
		h.clean = 0
		return "database unreachable"
	case failed:
		// The ping answered, but requests did not get their answers in
		// time: a slow database, which a ping alone would call well.
		h.clean = 0
		return "database too slow"
	case h.clean < readyAfter:
		h.clean++
		if h.clean < readyAfter {
			return "database recovering"
		}
	}
	return ""
}

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
	root.Handle("/", s.static)
	s.handler = s.observe(s.lifecycle(s.securityHeaders(limits(noteRoute(root)))))
	return s
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

// routes is the API route table, grouped by who may call: anyone (the
// member's calls among them: forMember, or a check after reading the body),
// anyone through a form limited per IP (form), a signed-in moderator
// (forModerator; forLicences where licences are kept), a business account (forSignedInBusiness; with a proven
// mailbox, forBusiness and forBusinessStore).
// redirectToList: the spec's store list path ends in a slash; without it the
// path would read as "one store by id" in api/openapi.yaml, so it redirects
// to the one address (a fixed path on this host; only the query is the caller's).
func redirectToList(w http.ResponseWriter, r *http.Request) error {
	target := url.URL{Path: "/api/store/physical-store/list-physical-store/", RawQuery: r.URL.RawQuery}
	w.Header().Set("Location", target.String())
	w.WriteHeader(http.StatusMovedPermanently)
	return nil
}

func (s *Server) routes() {
	for pattern, h := range map[string]handler{
		"GET /api/store/physical-store/list-physical-store/{$}": s.listStores,
		"GET /api/store/physical-store/list-physical-store":     redirectToList,
		"GET /api/store/physical-store/{id}":                    withID(s.getStore),
		"GET /api/store/physical-store/{id}/reviews":            s.listReviews,
		"GET /api/config": s.config,
		"GET /api/store/physical-store/search-places": s.searchPlaces,
		"GET /api/geo/ip-location":                    s.ipLocation,
		"GET /api/attribution":                        s.attribution,
		"GET /api/rules":                              s.placeRules,
		"POST /api/store/physical-store/{id}/reports": s.submitReport,
		"DELETE /api/store/auth":                      s.signOut,
		"GET /api/store/customers/me":                 s.forMember(s.me),
		"POST /api/store/customers/me":                s.updateMe,
		"POST /api/store/customers/me/email-proof":    s.forMember(s.requestEmailProof),
		"POST /api/customers/add-favorite-phstore":    s.changeFavorite(true),
		"POST /api/customers/remove-favorite-phstore": s.changeFavorite(false),
		"DELETE /api/admin/auth":                      s.adminSignOut,
		"DELETE /api/business/auth":                   s.businessSignOut,
		"GET /api/business/me":                        s.forSignedInBusiness(s.businessMe),
		"POST /api/business/email-proof":              s.forSignedInBusiness(s.businessResendProof),

		"POST /api/store/customers":                     form(s, signUpLimit, s.signUp),
		"POST /api/store/auth":                          form(s, signInLimit, s.signIn),
		"POST /api/store/customers/email-proof/confirm": form(s, signInLimit, s.confirmEmail),
		"POST /api/store/customers/password-token2":     form(s, resetLimit, s.requestReset),
		"POST /api/store/customers/password-reset":      form(s, resetLimit, s.resetPassword),
		"POST /api/store/claim":                         form(s, claimLimit, s.submitClaim),
		"POST /api/store/claim/locate":                  form(s, claimLocateLimit, s.claimLocate),
		"POST /api/store/create-user":                   form(s, createUserLimit, s.createUser),
		"POST /api/admin/auth":                          form(s, adminSignInLimit, s.adminSignIn),
		"POST /api/business/auth":                       form(s, businessSignInLimit, s.businessSignIn),
		"POST /api/business/email-proof/confirm":        form(s, businessSignInLimit, s.businessConfirmEmail),
		"POST /api/business/password-token":             form(s, businessResetLimit, s.businessRequestReset),
		"POST /api/business/password-reset":             form(s, businessResetLimit, s.businessResetPassword),

		"GET /api/admin/me":                              s.adminMe, // clears the cookie and its hint on a 401 itself
		"GET /api/admin/claims":                          s.forModerator(s.adminListClaims),
		"GET /api/admin/claims/{id}":                     s.forModerator(s.adminGetClaim),
		"POST /api/admin/claims/{id}/approve":            s.adminDecide(true),
		"POST /api/admin/claims/{id}/reject":             s.adminDecide(false),
		"GET /api/admin/reports":                         s.forModerator(s.adminListReports),
		"POST /api/admin/reports/{storeId}/resolve":      s.forModerator(s.adminResolveReports),
		"GET /api/admin/change-requests":                 s.forModerator(s.adminListChanges),
		"POST /api/admin/change-requests/{id}/approve":   s.adminDecideChange(true),
		"POST /api/admin/change-requests/{id}/reject":    s.adminDecideChange(false),
		"POST /api/admin/business-links":                 s.forModerator(s.adminLinkStore),
		"GET /api/admin/stores/{id}/owners":              s.forModerator(s.adminStoreOwners),
		"DELETE /api/admin/stores/{id}/owners/{ownerId}": s.forModerator(s.adminRemoveOwner),
		"GET /api/admin/stores/approximate":              s.forModerator(s.adminApproximateStores),
		"POST /api/admin/stores/{id}/position":           s.forModerator(s.adminPlaceStore),

		"GET /api/business/stores":                          s.forBusiness(s.businessListStores),
		"GET /api/business/stores/{id}":                     s.forBusinessStore(s.businessGetStore),
		"PATCH /api/business/stores/{id}":                   s.forBusinessStore(s.businessPatchStore),
		"POST /api/business/stores/{id}/verify":             s.forBusinessStore(s.businessVerifyStore),
		"DELETE /api/business/stores/{id}/owners/{ownerId}": s.forBusiness(s.businessRemoveOwner),
		"POST /api/business/stores/{id}/photo":              s.forBusinessStore(s.businessUploadPhoto),

		// Licences (docs/licences.md): a moderator's, where licences are kept.
		"GET /api/admin/licences":                      s.forLicences(s.adminLicenceStatus),
		"POST /api/admin/licences/import":              s.forLicences(s.adminLicenceImport),
		"GET /api/admin/licences/matches":              s.forLicences(s.adminLicenceQueue),
		"POST /api/admin/licences/matches/{id}":        s.forLicenceRow(s.adminLicenceDecide),
		"GET /api/admin/licences/unmatched":            s.forLicences(s.adminLicenceUnmatched),
		"POST /api/admin/licences/rows/{id}/store":     s.forLicenceRow(s.adminLicencePick),
		"POST /api/admin/licences/rows/{id}/new-store": s.forLicenceRow(s.adminLicenceCreateStore),
		"POST /api/business/stores/{id}/licence":       s.forBusinessStore(s.businessLicenceNumber),

		// Insights (docs/insights.md).
		"POST /api/events":                       s.postEvent,
		"GET /api/business/stores/{id}/insights": s.forBusinessStore(s.businessStoreInsights),
		"GET /api/business/insights-mail":        s.forBusiness(s.businessInsightsMail),
		"PUT /api/business/insights-mail":        s.forBusiness(s.businessSetInsightsMail),
		"GET /api/admin/insights/demand":         s.forModerator(s.adminDemand),
		"GET /api/admin/insights/demand.csv":     s.forModerator(s.adminDemandCSV),
	} {
		s.api.HandleFunc(pattern, s.handle(h))
	}
}

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
		if sendsNonJSON(r) && !isPhotoUpload(r) && !isRegistryUpload(r) {
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

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.Version})
}

// readiness is /readyz's answer. Not ready, it names each reason
// ("draining", "database unreachable", "database too slow", "database
// recovering", "database disk full", "search index loading") and joins them
// in message, as every error answer has one.
type readiness struct {
	Status   string   `json:"status"` // "ready" or "not ready"
	Message  string   `json:"message,omitempty"`
	NotReady []string `json:"notReady,omitempty"`
}

// readyz is ready when the server is not draining, the database answers a
// ping and the search index is loaded: two flags and one round trip.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	var not []string
	if s.draining.Load() {
		not = append(not, "draining")
	}
	if s.DB != nil {
		ctx, cancel := context.WithTimeout(r.Context(), s.DBTimeout)
		defer cancel()
		err := s.DB.Ping(ctx)
		if err != nil {
			s.log.Warn("readiness: database unreachable", "err", err)
		}
		if why := s.dbHealth.check(err == nil); why != "" {
			not = append(not, why)
		} else if f, ok := s.DB.(interface{ DiskFull() bool }); ok && f.DiskFull() {
			// Reads go on, but every write fails: say so, so an operator
			// (and a balancer with another replica) can tell.
			not = append(not, "database disk full")
		}
	}
	if s.Syncer != nil && !s.Syncer.Ready() {
		not = append(not, "search index loading")
	}
	if len(not) > 0 {
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "not ready", Message: strings.Join(not, "; "), NotReady: not})
		return
	}
	writeJSON(w, http.StatusOK, readiness{Status: "ready"})
}

type runtimeConfig struct {
	APIBase       string `json:"apiBase"`
	StorefrontURL string `json:"storefrontUrl"`
	MapStyleURL   string `json:"mapStyleUrl,omitempty"`
	// AddressSearch: an upstream geocoder is configured, so the place search
	// finds street addresses; without one it finds cities, ZIP codes and
	// neighbourhoods, and the search box says so.
	AddressSearch bool `json:"addressSearch,omitempty"`
	// IPLocation: an IP database or a CDN's location headers are set, so
	// /api/geo/ip-location may know the visitor's place; without either
	// the app does not ask (the answer would always be 404).
	IPLocation bool `json:"ipLocation,omitempty"`
}

// config tells the web app its runtime settings (also injected into index.html).
func (s *Server) config(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, s.static.cfg)
	return nil
}

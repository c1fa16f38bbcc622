package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"locator/internal/answercache"
	"locator/internal/apikeys"
	"locator/internal/business"
	"locator/internal/catalog"
	"locator/internal/claims"
	"locator/internal/clock"
	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/favorites"
	"locator/internal/httpapi"
	"locator/internal/httpconn"
	"locator/internal/identity"
	"locator/internal/insights"
	"locator/internal/inventory"
	"locator/internal/licences"
	"locator/internal/mail"
	"locator/internal/maptiles"
	"locator/internal/medusa"
	"locator/internal/members"
	"locator/internal/ownerstock"
	"locator/internal/partners"
	"locator/internal/photos"
	"locator/internal/places"
	"locator/internal/productlaw"
	"locator/internal/reports"
	"locator/internal/reviews"
	"locator/internal/search"
	"locator/internal/secret"
	"locator/internal/stores"
	"locator/internal/webhooks"
	"locator/web"
)

// app is one serving replica, built whole by newApp: every service by its
// constructor with what it needs, the HTTP handler over them, the
// listeners and the list of background jobs. serve runs it until its
// context ends; close gives back what it opened.
type app struct {
	cfg       config.Config
	log       *slog.Logger
	db        *db.DB
	index     *search.Index
	handler   *httpapi.Server
	ln        net.Listener
	metricsLn net.Listener // LOCATOR_METRICS_ADDR's; nil: none
	clock     clock.Clock  // the one clock every service tells the time by

	// The services the background jobs (jobList) and the stop use.
	stores *stores.Repo
	syncer *search.Syncer
	mail   *mail.Worker
	acc    *members.Service
	biz    *business.Service
	lic    *licences.Registry
	claims *claims.Service
	counts *insights.Service
	rev    *reviews.Repo
	hooks  *webhooks.Worker
	medusa *medusa.Syncer // LOCATOR_MEDUSA_URL's; nil: no products sync

	closers []func() // what close gives back, in reverse
}

// newApp builds a serving replica from cfg: the street map's archive is
// checked first, then the database is opened (waiting for it at start) and
// migrated, the demo data written into an empty one (unless NoSeed), the
// search index loaded while the place index and the basemap build, and the
// listeners opened. demoStores is the size of the demo data; clk is the
// clock every service tells the time by (clock.System() but in tests).
func newApp(ctx context.Context, cfg config.Config, demoStores int, clk clock.Clock, log *slog.Logger) (_ *app, err error) {
	a := &app{cfg: cfg, log: log, clock: clk}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	streets, err := openStreets(cfg, log)
	if err != nil {
		return nil, err
	}
	if streets != nil {
		a.onClose(func() { streets.Close() })
	}
	d, err := waitForDB(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a.db = d
	a.onClose(func() { d.Close() })
	sr := stores.NewRepo(d)
	a.stores = sr
	if !cfg.NoSeed {
		if err := seedIfEmpty(ctx, d, demoStores, log); err != nil {
			return nil, fmt.Errorf("seed demo data: %w", err)
		}
	}
	// The place index and the basemap build while the store index loads.
	placesDone := make(chan error, 1)
	var placeSvc *places.Service
	var basemap *maptiles.Basemap
	go func() {
		var err error
		placeSvc, err = newPlaces(cfg, log)
		if err == nil {
			basemap, err = newBasemap(placeSvc.Gazetteer, log)
		}
		placesDone <- err
	}()
	a.index = search.NewIndex()
	cat := catalog.NewRepo(d)
	a.syncer = newSyncer(d, sr, cat, a.index, snapshotMode(cfg.SearchSnapshots), log)
	if err := a.syncer.LoadBeside(ctx, func() error { return <-placesDone }); err != nil {
		return nil, err
	}
	ipLoc, err := newIPLocator(cfg)
	if err != nil {
		return nil, err
	}
	a.onClose(func() { ipLoc.Close() })
	webFS, built := web.Dist()
	if !built {
		log.Warn("the web app is not built into this binary; serving a placeholder page (run make build)")
		webFS = nil
	}
	if a.ln, err = net.Listen("tcp", cfg.Addr); err != nil {
		return nil, fmt.Errorf("listen on %s (LOCATOR_ADDR): %w", cfg.Addr, err)
	}
	a.onClose(func() { a.ln.Close() })
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = "http://" + a.ln.Addr().String()
		log.Warn("LOCATOR_PUBLIC_URL is not set: emailed links use " + publicURL)
	}
	sender, err := mailSender(cfg, log)
	if err != nil {
		return nil, err
	}

	// The three kinds of account share the clock and one hashing gate: a
	// burst of sign-ins of one kind waits with the others' (internal/secret).
	ids := identity.Options{Clock: a.clock, Gate: secret.NewProcessGate(), LogResetLinks: cfg.LogResetLinks}
	a.acc = members.New(d, publicURL, log, ids)
	if cfg.LogResetLinks {
		log.Warn("LOCATOR_LOG_RESET_LINKS is on: password-reset links are logged; turn it off outside development")
	}
	zones := &lazyZones{log: log}
	a.biz = business.New(d, sr, publicURL, zones.ZoneAt, log, ids)
	if a.lic, err = licences.New(sr, zones.ZoneAt, a.clock); err != nil {
		return nil, err
	}
	// Where registries cover, before the first search (a failure is retried
	// by the "licence coverage" job).
	if err := a.lic.RefreshCoverage(ctx); err != nil {
		log.Warn("licence coverage not read", "err", err)
	}
	a.claims = claims.New(d, sr, claims.Options{Geocoder: placeSvc, ZoneAt: zones.ZoneAt, PublicURL: publicURL,
		Licences: a.lic /* a claim's licence number is checked on approval */, Clock: a.clock, Identity: ids}, log)
	a.counts = insights.New(d, insights.Options{PublicURL: publicURL, SearchEvery: cfg.InsightsSearch, Clock: a.clock}, log)
	stock := inventory.NewRepo(sr, cat)
	a.rev = reviews.New(d, sr, a.clock, publicURL)
	// The partners' webhooks (docs/webhooks.md): the guard is a zero one,
	// so deliveries reach public addresses only.
	pts := partners.New(d, a.clock)
	a.hooks = &webhooks.Worker{DB: d, Log: log, Client: webhooks.Guard{}.Client(webhooks.DefaultTimeout, nil), Now: a.clock.Now,
		Enabled: func(ctx context.Context, id string) (bool, error) {
			p, err := pts.Get(ctx, id)
			if errors.Is(err, partners.ErrNotFound) {
				return false, nil
			}
			return err == nil && !p.Disabled, err
		}}
	if cfg.MedusaURL != "" {
		if a.medusa, err = newMedusaSyncer(cfg, d); err != nil {
			return nil, err
		}
	}
	medusaLocs := medusa.NewLocations(d)
	medusaLocs.Geocode = placeSvc.Geocode
	a.handler = httpapi.New(httpapi.Deps{
		Log: log, Clock: a.clock, DB: d, Index: a.index, Syncer: a.syncer, Stores: sr, Reviews: a.rev,
		Accounts: a.acc, Favorites: favorites.New(d, sr, a.clock), SecureCookies: strings.HasPrefix(publicURL, "https://"),
		Claims: a.claims, Business: a.biz, Photos: photos.New(d, sr, a.clock), PhotoGate: photos.NewGate(cfg.PhotoMemory),
		Reports: reports.New(d, sr, a.clock), Licences: a.lic, Insights: a.counts, Answers: answercache.New(cfg.AnswerCache),
		Places: placeSvc, Catalog: cat, Inventory: stock, APIKeys: apikeys.New(d, a.clock, 0),
		Partners:   pts,
		Webhooks:   webhooks.New(d, a.clock, webhooks.Guard{}),
		OwnerStock: ownerstock.New(sr, cat, stock, a.clock), MedusaLocations: medusaLocs, MedusaSync: a.medusa,
		Site: httpapi.Site{Web: webFS, StorefrontURL: cfg.StorefrontURL, MapStyleURL: cfg.MapStyleURL, Version: version,
			PublicURL: publicURL, Basemap: basemap, Streets: streets},
		Network: httpapi.Network{IPLocator: ipLoc, TrustedProxies: cfg.TrustedProxies, DBTimeout: cfg.DBTimeout,
			MetricsToken: cfg.MetricsToken, AccessLog: cfg.AccessLog},
	})
	if cfg.MetricsAddr != "" {
		if a.metricsLn, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			return nil, fmt.Errorf("listen on %s (LOCATOR_METRICS_ADDR): %w", cfg.MetricsAddr, err)
		}
		a.onClose(func() { a.metricsLn.Close() })
	}
	a.mail = mail.NewWorker(d, sender, cfg.MailFrom, a.clock, log)
	return a, nil
}

func (a *app) onClose(f func()) { a.closers = append(a.closers, f) }

// close gives back what newApp opened: listeners, the IP database, the
// database, the street map's archive.
func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// serve answers requests and runs the background jobs until ctx ends, then
// stops gracefully: /readyz fails for the drain period while requests are
// still served, the listener closes, requests in flight finish (within
// the shutdown timeout), the jobs stop, and the work answered but not done
// (reset mails, the last insight counts) is done.
func (a *app) serve(ctx context.Context, stdout io.Writer) error {
	cfg, log := a.cfg, a.log
	srv := httpapi.NewHTTPServer(a.handler, log)
	var pending unread
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		httpconn.Settle(c, st)
		pending.track(c, st)
	}
	// Every way out of serve stops the jobs before close closes the
	// database: none may still read the database, the index or the counts
	// after serve returns, and the final flush below must not race a flush
	// in flight.
	jobs := startJobs(a.jobList(), log)
	defer jobs.stop()
	if a.metricsLn != nil {
		// Scrapes go on while draining; the process's end closes it.
		msrv := httpapi.NewHTTPServer(a.handler.Metrics(), log)
		defer msrv.Close()
		go func() { _ = msrv.Serve(a.metricsLn) }()
		log.Info("metrics listening", "url", "http://"+a.metricsLn.Addr().String()+"/metrics")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(httpconn.Listener{Listener: a.ln}) }()
	url := "http://" + a.ln.Addr().String()
	log.Info("listening", "url", url, "engine", a.db.Dialect().String(), "stores", a.index.Len())
	fmt.Fprintf(stdout, "Locator is running at %s\n", url)

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Load balancers see /readyz fail and stop sending requests here while
	// the listener still takes what they send meanwhile; only then does it
	// close, so no request is refused or cut.
	a.handler.Drain()
	if cfg.DrainPeriod > 0 {
		log.Info("draining: /readyz answers 503, requests are still served", "period", cfg.DrainPeriod)
		select {
		case <-time.After(cfg.DrainPeriod):
		case err := <-errc:
			return fmt.Errorf("serve: %w", err)
		}
	}
	log.Info("shutting down: listener closed, finishing in-flight requests", "timeout", cfg.ShutdownTimeout)
	a.ln.Close()
	if err := <-errc; !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	pending.wait(min(unreadGrace, cfg.ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	jobs.stop()
	a.acc.Wait() // reset requests answered but not yet mailed
	a.biz.Wait()
	flushInsights(a.counts, log)
	log.Info("stopped")
	return nil
}

// newSyncer is the search syncer of a replica (and of `locator snapshot`):
// the stores and the product side (stock, catalogue, state directories).
func newSyncer(d *db.DB, sr *stores.Repo, cat *catalog.Repo, ix *search.Index, mode search.SnapshotMode, log *slog.Logger) *search.Syncer {
	return search.NewSyncer(sr, ix, mode, log).WithProducts(inventory.NewRepo(sr, cat), cat, productlaw.NewRepo(d))
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"locator/internal/catalog"
	"locator/internal/clock"
	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/importer"
	"locator/internal/mail"
	"locator/internal/places"
	"locator/internal/reviews"
	"locator/internal/search"
	"locator/internal/seed"
	"locator/internal/stores"
)

func parse(fs *flag.FlagSet, s *config.Settings, args []string) (config.Config, error) {
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	cfg, err := s.Config()
	if err != nil {
		return cfg, &exitError{code: 2, msg: err.Error()}
	}
	return cfg, nil
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: lvl}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// openOnly is the start of a command whose only settings are the
// database's and the log's: it parses args and opens the database
// (openLogged).
func openOnly(ctx context.Context, name, usage string, args []string, stderr io.Writer, getenv func(string) string) (*db.DB, *slog.Logger, error) {
	fs := newFlags(name, usage, stderr)
	cfg, err := parse(fs, config.Register(fs, getenv, "database-url", "log-format", "log-level"), args)
	if err != nil {
		return nil, nil, err
	}
	return openLogged(ctx, cfg, stderr)
}

// openLogged is the start of a command that works on the database: its
// logger, and the database opened and migrated.
func openLogged(ctx context.Context, cfg config.Config, stderr io.Writer) (*db.DB, *slog.Logger, error) {
	log := newLogger(cfg, stderr)
	d, err := openDB(ctx, cfg, log)
	return d, log, err
}

// openDB opens and migrates the configured database.
func openDB(ctx context.Context, cfg config.Config, log *slog.Logger) (*db.DB, error) {
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	applied, err := d.Migrate(ctx)
	if err != nil {
		d.Close()
		return nil, err
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "names", strings.Join(applied, ","), "engine", d.Dialect().String())
	}
	return d, nil
}

func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	d, _, err := openOnly(ctx, "migrate", "migrate [flags]\n\nApplies the embedded migrations (safe to run from several replicas at once).", args, stderr, getenv)
	if err != nil {
		return err
	}
	defer d.Close()
	fmt.Fprintln(stdout, "database is up to date")
	return nil
}

// errDemoTaken says the demo data's store ids are taken: it is in the
// database already, or another replica is writing it right now.
var errDemoTaken = errors.New("the demo data is already in the database, or another replica is writing it")

// writeDemo writes the demo data. Its stores have fixed store ids, which
// are unique, and the first batch is one transaction: when another writer
// got there first, nothing is written and the error is errDemoTaken.
// With resume, the batches an interrupted write left out are written
// (seed.Resume).
func writeDemo(ctx context.Context, d *db.DB, n int, seedValue uint64, resume bool, log *slog.Logger) error {
	start := time.Now()
	o, err := seed.Demo(n, seedValue)
	if err != nil {
		return err
	}
	o.HolidaysFrom = time.Now() // the holidays of the coming year
	sr := stores.NewRepo(d)
	write := seed.Write
	if resume {
		write = seed.Resume
	}
	res, err := write(ctx, sr, reviews.NewRepo(d, sr), o)
	// On SQLite a replica starting beside the one writing the data waits for
	// the write lock only its busy timeout (10 s); on a slow machine the
	// other's first batch can hold it longer. Nothing was written, so try
	// again: once the other commits, the ids are taken (errDemoTaken).
	for attempt := 1; err != nil && res.Stores == 0 && db.Unavailable(err) && attempt < 6; attempt++ {
		log.Info("the database is busy, probably another replica writing the demo data; trying again", "attempt", attempt)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		res, err = write(ctx, sr, reviews.NewRepo(d, sr), o)
	}
	if err != nil {
		if res.Stores == 0 && db.UniqueViolation(err) {
			return errDemoTaken
		}
		return err
	}
	log.Info("demo data written", "stores", res.Stores, "reviews", res.Reviews, "products", res.Products, "stock", res.Stock,
		"duration", time.Since(start).Round(time.Millisecond))
	return nil
}

func cmdSeed(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("seed", "seed --demo [flags]\n\nWrites the deterministic offline demo data set (stores around real US cities, with hours and reviews).", stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	demo := fs.Bool("demo", false, "write the demo data set (required)")
	n := fs.Int("stores", 20000, "number of demo stores")
	seedValue := fs.Uint64("seed", 1, "random seed: the same seed writes the same data")
	force := fs.Bool("force", false, "add the demo data even when the database already has stores")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if !*demo {
		fs.Usage()
		return &exitError{code: 2, msg: "seed needs --demo"}
	}
	if *n < 1 || *n > 5_000_000 {
		return &exitError{code: 2, msg: "--stores must be from 1 to 5000000"}
	}
	d, log, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	count, err := stores.NewRepo(d).Count(ctx)
	if err != nil {
		return err
	}
	if count > 0 && !*force {
		return &exitError{code: 1, msg: fmt.Sprintf("the database already has %d stores; use --force to add the demo data anyway", count)}
	}
	if err := writeDemo(ctx, d, *n, *seedValue, false, log); errors.Is(err, errDemoTaken) {
		return &exitError{code: 1, msg: err.Error()}
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d demo stores\n", *n)
	return nil
}

func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("import", "import [flags] FILE\n\nImports stores from CSV or JSON (see docs/import.md). Bad rows are reported\nwith their line number and skipped; good rows are kept. A row whose store_id\nexists updates that store. Exit status 1 when any row failed.", stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level", "geocoder-url", "geocoder-kind")
	format := fs.String("format", "", "csv or json (default: from the file extension)")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, msg: "import needs exactly one FILE"}
	}
	path := fs.Arg(0)
	if *format == "" {
		*format = strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	}
	if *format != "csv" && *format != "json" {
		return &exitError{code: 2, msg: "cannot tell the format of " + path + "; use --format csv or --format json"}
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	d, log, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	geo, err := newPlaces(cfg, log)
	if err != nil {
		return err
	}
	tz, err := places.NewTimeZones()
	if err != nil {
		return err
	}
	rep, err := importer.Import(ctx, stores.NewRepo(d), f, *format, importer.Options{Geocoder: geo, ZoneAt: tz.ZoneAt})
	if rep != nil {
		for _, r := range rep.Rows {
			switch {
			case !r.OK:
				fmt.Fprintf(stdout, "line %d: error: %s\n", r.Line, r.Message)
			case r.Message != "":
				fmt.Fprintf(stdout, "line %d: store %d: %s\n", r.Line, r.ID, r.Message)
			}
		}
		fmt.Fprintf(stdout, "%d created, %d updated, %d failed\n", rep.Created, rep.Updated, rep.Failed)
		if rep.Approximate > 0 {
			what := fmt.Sprintf("%d stores stand only at a ZIP or city centre (lines %s): place their pins", rep.Approximate, joinInts(rep.ApproximateLines()))
			if rep.Approximate == 1 {
				what = fmt.Sprintf("1 store stands only at a ZIP or city centre (line %s): place its pin", joinInts(rep.ApproximateLines()))
			}
			fmt.Fprintf(stdout, "%s in /admin, \"Stores to place\"\n", what)
		}
	}
	if err != nil {
		return err
	}
	if rep.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows failed", rep.Failed)}
	}
	return nil
}

func cmdSnapshot(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	d, log, err := openOnly(ctx, "snapshot", "snapshot [flags]\n\nLoads the search index (from the newest snapshot plus the stores changed since,\nor from every store) and writes a new search snapshot unless the newest one is\ncurrent. Replicas start from it instead of reading every store; serve writes\nsnapshots by itself (LOCATOR_SEARCH_SNAPSHOTS), this is for right after a\nlarge import.", args, stderr, getenv)
	if err != nil {
		return err
	}
	defer d.Close()
	syncer := newSyncer(d, stores.NewRepo(d), catalog.NewRepo(d), search.NewIndex(), search.SnapshotAlways, log)
	if err := syncer.Load(ctx); err != nil {
		return err
	}
	wrote, err := syncer.WriteSnapshot(ctx)
	if err != nil {
		return err
	}
	if wrote {
		fmt.Fprintf(stdout, "search snapshot written at version %d\n", syncer.Version())
	} else {
		fmt.Fprintf(stdout, "no snapshot written: the newest is current, the index is empty, or another replica is writing one\n")
	}
	return nil
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg, demoStores, err := serveConfig(args, stderr, getenv)
	if err != nil {
		return err
	}
	a, err := newApp(ctx, cfg, demoStores, clock.System(), newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.close()
	return a.serve(ctx, stdout)
}

// serveConfig reads serve's settings and the size of the demo data.
func serveConfig(args []string, stderr io.Writer, getenv func(string) string) (config.Config, int, error) {
	fs := newFlags("serve", "serve [flags]\n\nServes the web app and the API. On an empty database it first writes the\ndemo data (unless --no-seed).", stderr)
	s := config.Register(fs, getenv, "addr", "database-url", "public-url", "storefront-url", "map-style-url", "pmtiles",
		"log-format", "log-level", "access-log", "sync-interval", "insights-flush", "insights-search-flush", "shutdown-timeout", "drain-period", "db-timeout", "no-seed", "search-snapshots",
		"geocoder-url", "geocoder-kind", "geoip-db", "trusted-proxies", "location-headers", "smtp-url", "mail-from", "mail-dir",
		"mail-retention", "log-reset-links", "photo-memory", "answer-cache", "metrics-addr", "metrics-token")
	s.Add(config.MedusaNames...)
	demoStores := fs.Int("demo-stores", 20000, "number of demo stores written into an empty database")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return cfg, 0, err
	}
	if *demoStores < 1 || *demoStores > 5_000_000 {
		return cfg, 0, &exitError{code: 2, msg: "--demo-stores must be from 1 to 5000000"}
	}
	return cfg, *demoStores, nil
}

// seedIfEmpty writes n demo stores into a database without stores, and
// finishes the demo data an interrupted first start left (seed.Check).
// Replicas first started together on an empty database all find it empty;
// the unique store ids let exactly one of them write the data (writeDemo),
// and the others start without writing anything.
func seedIfEmpty(ctx context.Context, d *db.DB, n int, log *slog.Logger) error {
	sr := stores.NewRepo(d)
	count, err := sr.Count(ctx)
	if err != nil {
		return err
	}
	resume := false
	if count > 0 {
		// A first start stopped while seeding (Ctrl-C, kill -9, a crash)
		// left whole batches of the demo data: finish them.
		st, err := seed.Check(ctx, sr, n)
		if err != nil {
			return err
		}
		if st.Complete {
			return finishDemoProducts(ctx, sr, n, log)
		}
		if !st.Interrupted {
			return nil
		}
		log.Warn("the demo data was interrupted by an earlier start: writing what is missing", "stores", st.Stores, "of", n)
		resume = true
	} else {
		log.Info("empty database: writing the demo data (use --no-seed to skip)")
	}
	if err := writeDemo(ctx, d, n, 1, resume, log); errors.Is(err, errDemoTaken) {
		log.Info("another replica is writing the demo data: starting without writing it")
	} else if err != nil {
		return err
	}
	return nil
}

// finishDemoProducts gives a database with the whole demo data set of n
// stores the demo products and stock when it lacks them (seeded before
// there were products, or stopped between the stores and the products).
func finishDemoProducts(ctx context.Context, sr *stores.Repo, n int, log *slog.Logger) error {
	if done, err := seed.ProductsWritten(ctx, sr, 1); err != nil || done {
		return err
	}
	o, err := seed.Demo(n, 1)
	if err != nil {
		return err
	}
	o.HolidaysFrom = time.Now()
	res, err := seed.FinishProducts(ctx, sr, o)
	if err != nil {
		return err
	}
	log.Info("demo products written", "products", res.Products, "stock", res.Stock)
	return nil
}

// mailSender is SMTP when configured, else .eml files under the mail folder.
func mailSender(cfg config.Config, log *slog.Logger) (mail.Sender, error) {
	if cfg.SMTPURL == "" {
		log.Info("no SMTP server configured (LOCATOR_SMTP_URL): mail is written to " + cfg.MailDir)
		return mail.Files{Dir: cfg.MailDir}, nil
	}
	s, err := mail.ParseSMTPURL(cfg.SMTPURL, cfg.MailFrom)
	if err != nil {
		return nil, &exitError{code: 2, msg: "invalid LOCATOR_SMTP_URL: " + err.Error()}
	}
	return s, nil
}

func snapshotMode(s string) search.SnapshotMode {
	switch s {
	case "always":
		return search.SnapshotAlways
	case "off":
		return search.SnapshotOff
	}
	return search.SnapshotAuto
}

// joinInts writes numbers as "3, 5, 9".
func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// Package config reads the settings of the locator binary from flags and
// LOCATOR_* environment variables (flags win), validates them once at start
// and hands a plain struct down: nothing reads the environment later.
package config

import (
	"flag"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultDatabaseURL is the embedded default: a SQLite file under ./data.
const DefaultDatabaseURL = "sqlite:data/locator.db"

// Config holds every setting. Not all subcommands use all of them.
type Config struct {
	Addr            string        // LOCATOR_ADDR
	DatabaseURL     string        // LOCATOR_DATABASE_URL
	PublicURL       string        // LOCATOR_PUBLIC_URL: where users reach the app (links in mail)
	StorefrontURL   string        // LOCATOR_STOREFRONT_URL: base of "Go to online store"
	MapStyleURL     string        // LOCATOR_MAP_STYLE_URL: optional MapLibre style
	PMTiles         string        // LOCATOR_PMTILES: optional PMTiles v3 archive of street map tiles
	LogFormat       string        // LOCATOR_LOG_FORMAT: text or json
	LogLevel        string        // LOCATOR_LOG_LEVEL: debug, info, warn, error
	AccessLog       string        // LOCATOR_ACCESS_LOG: all, sample or off
	SyncInterval    time.Duration // LOCATOR_SYNC_INTERVAL: how often replicas poll for store changes
	InsightsFlush   time.Duration // LOCATOR_INSIGHTS_FLUSH: how often a replica writes its insight counts
	InsightsSearch  time.Duration // LOCATOR_INSIGHTS_SEARCH_FLUSH: how often it writes searches by place and impressions
	ShutdownTimeout time.Duration // LOCATOR_SHUTDOWN_TIMEOUT
	DrainPeriod     time.Duration // LOCATOR_DRAIN_PERIOD: /readyz answers 503 this long before the listener closes
	DBTimeout       time.Duration // LOCATOR_DB_TIMEOUT: the most a request waits for PostgreSQL, all its calls together
	PhotoMemory     int64         // LOCATOR_PHOTO_MEMORY: bytes all photo decodes may hold at once
	AnswerCache     int64         // LOCATOR_ANSWER_CACHE: bytes of compressed search answers kept per minute; 0: none
	NoSeed          bool          // LOCATOR_NO_SEED: serve does not seed an empty database
	SearchSnapshots string        // LOCATOR_SEARCH_SNAPSHOTS: auto, always or off
	SMTPURL         string        // LOCATOR_SMTP_URL: smtp://user:pass@host:587; empty: .eml files in MailDir
	MailFrom        string        // LOCATOR_MAIL_FROM
	MailDir         string        // LOCATOR_MAIL_DIR
	MailRetention   time.Duration // LOCATOR_MAIL_RETENTION: how long sent mail stays in the outbox
	LogResetLinks   bool          // LOCATOR_LOG_RESET_LINKS: log password-reset links (development only)
	MetricsAddr     string        // LOCATOR_METRICS_ADDR: a listener of its own for /metrics; empty: none
	MetricsToken    string        // LOCATOR_METRICS_TOKEN: bearer token of /metrics on the main listener; empty: not there

	MedusaURL      string        // LOCATOR_MEDUSA_URL: the marketplace's Medusa server; empty: no products sync
	MedusaToken    string        // LOCATOR_MEDUSA_TOKEN: a secret API key (sk_...) or an admin JWT
	MedusaEmail    string        // LOCATOR_MEDUSA_EMAIL: else an admin user's email ...
	MedusaPassword string        // LOCATOR_MEDUSA_PASSWORD: ... and password
	MedusaInterval time.Duration // LOCATOR_MEDUSA_SYNC_INTERVAL: how often serve syncs

	GeocoderURL     string         // LOCATOR_GEOCODER_URL: optional Nominatim/Photon search endpoint
	GeocoderKind    string         // LOCATOR_GEOCODER_KIND: auto, nominatim or photon
	GeoIPDB         string         // LOCATOR_GEOIP_DB: optional MaxMind-format database file
	TrustedProxies  []netip.Prefix // LOCATOR_TRUSTED_PROXIES: peers whose X-Forwarded-For is believed
	LocationHeaders []string       // LOCATOR_LOCATION_HEADERS: latitude and longitude headers set by a CDN
}

// setting describes one configuration value: its flag and its variable.
type setting struct {
	flag, env, usage string
}

// Settings registers the flags named in names on fs, with defaults taken from
// the environment (getenv) and then from the built-in defaults.
type Settings struct {
	fs     *flag.FlagSet
	getenv func(string) string
	used   map[string]setting
	raw    map[string]*string
}

var all = map[string]setting{
	"addr":                  {"addr", "LOCATOR_ADDR", "listen address host:port"},
	"database-url":          {"database-url", "LOCATOR_DATABASE_URL", "database: sqlite:PATH (default " + DefaultDatabaseURL + ") or postgres://..."},
	"public-url":            {"public-url", "LOCATOR_PUBLIC_URL", "public base URL of the app, used in emailed links"},
	"storefront-url":        {"storefront-url", "LOCATOR_STOREFRONT_URL", "base URL of the online storefront (\"Go to online store\" opens {base}/store/{store_id})"},
	"map-style-url":         {"map-style-url", "LOCATOR_MAP_STYLE_URL", "optional MapLibre style URL for a full street map"},
	"pmtiles":               {"pmtiles", "LOCATOR_PMTILES", "optional PMTiles v3 archive of OpenStreetMap vector tiles (a Protomaps extract): the binary serves it as a street map (LOCATOR_MAP_STYLE_URL still wins)"},
	"log-format":            {"log-format", "LOCATOR_LOG_FORMAT", "log format: text or json"},
	"log-level":             {"log-level", "LOCATOR_LOG_LEVEL", "log level: debug, info, warn or error"},
	"access-log":            {"access-log", "LOCATOR_ACCESS_LOG", "which requests get an info log line: all, sample (every 5xx and every request slower than 1 s, and 1 in 100 of the others) or off (5xx and slow requests only); the metrics count every request"},
	"sync-interval":         {"sync-interval", "LOCATOR_SYNC_INTERVAL", "how often the search index polls the database for store changes"},
	"shutdown-timeout":      {"shutdown-timeout", "LOCATOR_SHUTDOWN_TIMEOUT", "how long shutdown waits for in-flight requests"},
	"insights-flush":        {"insights-flush", "LOCATOR_INSIGHTS_FLUSH", "how often each replica writes its insight counts to the database (a crashed replica loses at most this much; docs/insights.md)"},
	"insights-search-flush": {"insights-search-flush", "LOCATOR_INSIGHTS_SEARCH_FLUSH", "how often each replica writes its searches by place and its stores' appearances in answers (at a flush; SIGTERM writes them too; docs/insights.md)"},
	"drain-period":          {"drain-period", "LOCATOR_DRAIN_PERIOD", "on SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes (longer than the load balancer's health-check interval; 0: close at once)"},
	"db-timeout":            {"db-timeout", "LOCATOR_DB_TIMEOUT", "the most a request waits for PostgreSQL in all, whatever the number of its calls, before answering 503"},
	"photo-memory":          {"photo-memory", "LOCATOR_PHOTO_MEMORY", "memory, in MB, that all photo uploads being decoded may hold at once; a photo needing more alone is refused with 413"},
	"answer-cache":          {"answer-cache", "LOCATOR_ANSWER_CACHE", "memory, in MB, for compressed search answers kept until the minute turns or a store changes, so shoppers who search the same place get a copy (0: no cache; docs/performance.md)"},
	"no-seed":               {"no-seed", "LOCATOR_NO_SEED", "do not write demo data into an empty database"},
	"search-snapshots":      {"search-snapshots", "LOCATOR_SEARCH_SNAPSHOTS", "start the search index from a snapshot kept in the database: auto (write them for 50,000 stores or more), always, or off (read every store at start)"},
	"smtp-url":              {"smtp-url", "LOCATOR_SMTP_URL", "SMTP server for mail: smtp://user:pass@host:587 (STARTTLS), smtps://...:465; empty: write .eml files"},
	"mail-from":             {"mail-from", "LOCATOR_MAIL_FROM", "From address of outgoing mail"},
	"mail-dir":              {"mail-dir", "LOCATOR_MAIL_DIR", "folder for .eml files when no SMTP server is configured"},
	"mail-retention":        {"mail-retention", "LOCATOR_MAIL_RETENTION", "how long sent mail (reset links included) stays in the outbox table before it is deleted"},
	"log-reset-links":       {"log-reset-links", "LOCATOR_LOG_RESET_LINKS", "log password-reset links at info level (development only: a link lets anyone set the password)"},
	"metrics-addr":          {"metrics-addr", "LOCATOR_METRICS_ADDR", "listen address host:port of a listener serving only /metrics (Prometheus), without a token: keep it on a private network (empty: none)"},
	"metrics-token":         {"metrics-token", "LOCATOR_METRICS_TOKEN", "bearer token that opens /metrics on the main listener, at least 16 characters (empty: /metrics is not served there)"},
	"medusa-url":            {"medusa-url", "LOCATOR_MEDUSA_URL", "base URL of the marketplace's Medusa v2 server, read by products sync and by serve every sync interval (empty: no sync; docs/products.md)"},
	"medusa-token":          {"medusa-token", "LOCATOR_MEDUSA_TOKEN", "Medusa admin credential: a secret API key (sk_...) or an admin JWT (else LOCATOR_MEDUSA_EMAIL and LOCATOR_MEDUSA_PASSWORD)"},
	"medusa-email":          {"medusa-email", "LOCATOR_MEDUSA_EMAIL", "email of a Medusa admin user (with LOCATOR_MEDUSA_PASSWORD), when no token is set"},
	"medusa-password":       {"medusa-password", "LOCATOR_MEDUSA_PASSWORD", "password of that Medusa admin user"},
	"medusa-sync-interval":  {"medusa-sync-interval", "LOCATOR_MEDUSA_SYNC_INTERVAL", "how often serve syncs the catalogue and stock from Medusa (1m to 24h)"},
	"geocoder-url":          {"geocoder-url", "LOCATOR_GEOCODER_URL", "optional Nominatim- or Photon-compatible search endpoint for street addresses (e.g. https://nominatim.example/search)"},
	"geocoder-kind":         {"geocoder-kind", "LOCATOR_GEOCODER_KIND", "protocol of the geocoder: auto, nominatim or photon"},
	"geoip-db":              {"geoip-db", "LOCATOR_GEOIP_DB", "optional MaxMind-format IP database file (e.g. GeoLite2-City.mmdb) for /api/geo/ip-location"},
	"trusted-proxies":       {"trusted-proxies", "LOCATOR_TRUSTED_PROXIES", "comma-separated CIDRs or IPs of proxies whose X-Forwarded-For and location headers are trusted"},
	"location-headers":      {"location-headers", "LOCATOR_LOCATION_HEADERS", "latitude and longitude headers set by a CDN, e.g. CloudFront-Viewer-Latitude,CloudFront-Viewer-Longitude"},
}

var defaults = map[string]string{
	"addr":                  "127.0.0.1:8080",
	"database-url":          DefaultDatabaseURL,
	"public-url":            "",
	"storefront-url":        "https://example.com",
	"map-style-url":         "",
	"pmtiles":               "",
	"log-format":            "text",
	"log-level":             "info",
	"access-log":            "sample",
	"sync-interval":         "1s",
	"shutdown-timeout":      "20s",
	"insights-flush":        "5s",
	"insights-search-flush": "1m",
	"drain-period":          "5s",
	"db-timeout":            "1500ms",
	"photo-memory":          "256",
	"answer-cache":          "32",
	"no-seed":               "false",
	"search-snapshots":      "auto",
	"smtp-url":              "",
	"mail-from":             "Locator <no-reply@locator.local>",
	"mail-dir":              "data/mail",
	"mail-retention":        "168h",
	"log-reset-links":       "false",
	"metrics-addr":          "",
	"metrics-token":         "",
	"geocoder-url":          "",
	"medusa-url":            "",
	"medusa-token":          "",
	"medusa-email":          "",
	"medusa-password":       "",
	"medusa-sync-interval":  "5m",
	"geocoder-kind":         "auto",
	"geoip-db":              "",
	"trusted-proxies":       "",
	"location-headers":      "",
}

// Register adds the named settings to fs.
func Register(fs *flag.FlagSet, getenv func(string) string, names ...string) *Settings {
	s := &Settings{fs: fs, getenv: getenv, used: map[string]setting{}, raw: map[string]*string{}}
	for _, n := range names {
		st, ok := all[n]
		if !ok {
			panic("config: unknown setting " + n) // programming error
		}
		def := defaults[n]
		if v := getenv(st.env); v != "" {
			def = v
		}
		s.used[n] = st
		if n == "no-seed" || n == "log-reset-links" {
			p := new(string)
			*p = def
			// A bool flag, so a bare --no-seed means true.
			fs.Var(boolFlag{p}, n, st.usage+" (env "+st.env+")")
			s.raw[n] = p
			continue
		}
		s.raw[n] = fs.String(n, def, st.usage+" (env "+st.env+")")
	}
	return s
}

// Add registers more settings on the same flags (see Register).
func (s *Settings) Add(names ...string) {
	more := Register(s.fs, s.getenv, names...)
	for n, st := range more.used {
		s.used[n], s.raw[n] = st, more.raw[n]
	}
}

type boolFlag struct{ p *string }

func (b boolFlag) String() string {
	if b.p == nil {
		return "false"
	}
	return *b.p
}
func (b boolFlag) Set(v string) error { *b.p = v; return nil }
func (b boolFlag) IsBoolFlag() bool   { return true }

// Config validates the parsed values. The error names the setting, in one line.
func (s *Settings) Config() (Config, error) {
	var c Config
	// The settings that share a rule, by name.
	durations := map[string]*time.Duration{"sync-interval": &c.SyncInterval, "shutdown-timeout": &c.ShutdownTimeout, "insights-flush": &c.InsightsFlush, "insights-search-flush": &c.InsightsSearch}
	switches := map[string]*bool{"no-seed": &c.NoSeed, "log-reset-links": &c.LogResetLinks}
	words := map[string]*string{"log-format": &c.LogFormat, "log-level": &c.LogLevel, "access-log": &c.AccessLog, "geocoder-kind": &c.GeocoderKind}
	for n, st := range s.used {
		v := strings.TrimSpace(*s.raw[n])
		bad := func(why string) error {
			return fmt.Errorf("invalid %s (--%s=%q): %s", st.env, st.flag, v, why)
		}
		switch n {
		case "addr", "metrics-addr":
			if n == "metrics-addr" && v == "" {
				continue
			}
			if _, port, err := net.SplitHostPort(v); err != nil || port == "" {
				return c, bad("want host:port, e.g. 127.0.0.1:8080 or :8080")
			}
			if n == "addr" {
				c.Addr = v
			} else {
				c.MetricsAddr = v
			}
		case "metrics-token":
			if v != "" && (len(v) < 16 || strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r > '~' })) {
				// Not bad(): the value, a secret, is not echoed.
				return c, fmt.Errorf("invalid %s (--%s): want at least 16 printable ASCII characters without spaces, e.g. from openssl rand -hex 32", st.env, st.flag)
			}
			c.MetricsToken = v
		case "database-url":
			if err := validateDatabaseURL(v); err != nil {
				return c, bad(err.Error())
			}
			c.DatabaseURL = v
		case "public-url", "storefront-url", "map-style-url":
			if v != "" {
				if !absoluteURL(v, "http", "https") {
					return c, bad("want an absolute http(s) URL")
				}
				v = strings.TrimRight(v, "/")
			}
			switch n {
			case "public-url":
				c.PublicURL = v
			case "storefront-url":
				c.StorefrontURL = v
			default:
				c.MapStyleURL = v
			}
		case "log-format", "log-level", "access-log", "geocoder-kind":
			if !slices.Contains(wordChoices[n], v) {
				return c, bad("want " + orList(wordChoices[n]))
			}
			*words[n] = v
		case "sync-interval", "shutdown-timeout", "insights-flush", "insights-search-flush":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 || d > time.Hour {
				return c, bad("want a positive duration up to 1h, e.g. 1s")
			}
			*durations[n] = d
		case "drain-period":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > time.Hour {
				return c, bad("want a duration from 0 to 1h, e.g. 5s")
			}
			c.DrainPeriod = d
		case "db-timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d < 10*time.Millisecond || d > time.Minute {
				return c, bad("want a duration from 10ms to 1m, e.g. 1500ms")
			}
			c.DBTimeout = d
		case "photo-memory":
			mb, err := strconv.ParseInt(v, 10, 64)
			if err != nil || mb < 16 || mb > 65536 || v[0] == '+' {
				return c, bad("want a whole number of megabytes from 16 to 65536, e.g. 256")
			}
			c.PhotoMemory = mb << 20
		case "answer-cache":
			mb, err := strconv.ParseInt(v, 10, 64)
			if err != nil || mb < 0 || mb > 65536 || v[0] == '+' {
				return c, bad("want a whole number of megabytes from 0 to 65536, e.g. 32")
			}
			c.AnswerCache = mb << 20
		case "smtp-url":
			if v != "" && !absoluteURL(v, "smtp", "smtps") {
				return c, bad("want smtp://[user:pass@]host:port or smtps://...")
			}
			c.SMTPURL = v
		case "mail-from":
			if _, err := mail.ParseAddress(v); err != nil {
				return c, bad("want an email address, e.g. Locator <no-reply@example.com>")
			}
			c.MailFrom = v
		case "mail-dir":
			if v == "" {
				return c, bad("want a folder")
			}
			c.MailDir = v
		case "medusa-url":
			if v != "" && !absoluteURL(v, "http", "https") {
				return c, bad("want the absolute http(s) URL of the Medusa server")
			}
			c.MedusaURL = strings.TrimRight(v, "/")
		case "medusa-token", "medusa-password":
			if strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				// Not bad(): the value, a secret, is not echoed.
				return c, fmt.Errorf("invalid %s (--%s): holds a control character", st.env, st.flag)
			}
			if n == "medusa-token" {
				c.MedusaToken = v
			} else {
				c.MedusaPassword = v
			}
		case "medusa-email":
			if v != "" {
				if _, err := mail.ParseAddress(v); err != nil {
					return c, bad("want an email address")
				}
			}
			c.MedusaEmail = v
		case "medusa-sync-interval":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Minute || d > 24*time.Hour {
				return c, bad("want a duration from 1m to 24h, e.g. 5m")
			}
			c.MedusaInterval = d
		case "geocoder-url":
			if v != "" && !absoluteURL(v, "http", "https") {
				return c, bad("want an absolute http(s) URL of the search endpoint")
			}
			c.GeocoderURL = v
		case "pmtiles":
			// The archive itself is read and checked when serve starts
			// (maptiles.OpenPMTiles), which names what is wrong with it.
			if v != "" {
				if st, err := os.Stat(v); err != nil || !st.Mode().IsRegular() {
					return c, bad("want a readable PMTiles file")
				}
			}
			c.PMTiles = v
		case "geoip-db":
			if v != "" {
				if st, err := os.Stat(v); err != nil || st.IsDir() {
					return c, bad("want a readable MaxMind-format database file")
				}
			}
			c.GeoIPDB = v
		case "trusted-proxies":
			ps, err := parsePrefixes(v)
			if err != nil {
				return c, bad(err.Error())
			}
			c.TrustedProxies = ps
		case "location-headers":
			hs, err := parseHeaderPair(v)
			if err != nil {
				return c, bad(err.Error())
			}
			c.LocationHeaders = hs
		case "search-snapshots":
			switch v {
			case "auto", "always", "off":
				c.SearchSnapshots = v
			default:
				return c, bad("want auto, always or off")
			}
		case "no-seed", "log-reset-links":
			var on bool
			switch strings.ToLower(v) {
			case "true", "1", "yes":
				on = true
			case "", "false", "0", "no":
			default:
				return c, bad("want true or false")
			}
			*switches[n] = on
		case "mail-retention":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Hour {
				return c, bad("want a duration of at least 1h, e.g. 168h for 7 days")
			}
			c.MailRetention = d
		}
	}
	if _, ok := s.used["medusa-url"]; ok && c.MedusaURL != "" && c.MedusaToken == "" && (c.MedusaEmail == "" || c.MedusaPassword == "") {
		return c, fmt.Errorf("invalid LOCATOR_MEDUSA_URL: a Medusa server needs LOCATOR_MEDUSA_TOKEN, or LOCATOR_MEDUSA_EMAIL and LOCATOR_MEDUSA_PASSWORD")
	}
	return c, nil
}

// MedusaNames are the settings of the Medusa sync, for the commands that
// register them.
var MedusaNames = []string{"medusa-url", "medusa-token", "medusa-email", "medusa-password", "medusa-sync-interval"}

// absoluteURL reports whether v is an absolute URL with a host and one of
// schemes.
func absoluteURL(v string, schemes ...string) bool {
	u, err := url.Parse(v)
	return err == nil && u.Host != "" && slices.Contains(schemes, u.Scheme)
}

func validateDatabaseURL(v string) error {
	switch {
	case strings.HasPrefix(v, "postgres://"), strings.HasPrefix(v, "postgresql://"):
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return fmt.Errorf("want postgres://user@host:port/database")
		}
		return nil
	case strings.HasPrefix(v, "sqlite:"):
		if strings.TrimPrefix(v, "sqlite:") == "" {
			return fmt.Errorf("want sqlite:PATH")
		}
		return nil
	default:
		return fmt.Errorf("want sqlite:PATH or postgres://...")
	}
}

// parsePrefixes reads "10.0.0.0/8, 192.0.2.7" (a bare address is a /32 or
// /128).
func parsePrefixes(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR nor an IP address", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// parseHeaderPair reads "Lat-Header,Lon-Header".
func parseHeaderPair(v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	var out []string
	for f := range strings.SplitSeq(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" || strings.ContainsFunc(f, func(r rune) bool {
			return r != '-' && r != '_' && (r < '0' || r > '9') && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z')
		}) {
			return nil, fmt.Errorf("%q is not a header name", f)
		}
		out = append(out, f)
	}
	if len(out) != 2 {
		return nil, fmt.Errorf("want two header names, latitude first then longitude")
	}
	return out, nil
}

// wordChoices are the settings that take one word of a few, with the words
// in the order their error message names them.
var wordChoices = map[string][]string{
	"log-format":    {"text", "json"},
	"log-level":     {"debug", "info", "warn", "error"},
	"access-log":    {"all", "sample", "off"},
	"geocoder-kind": {"auto", "nominatim", "photon"},
}

// orList writes words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

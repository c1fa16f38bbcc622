// Package storepages renders the pages search engines and shared links
// reach: a page per published store, directories of states and cities,
// the sitemaps and robots.txt (docs/store-pages.md). Everything is read
// from the in-memory search index (search.Index: Get, Nearby, Directory,
// Walk), never from the database, so pages cost no query and change on
// every replica with the search version. httpapi mounts the handlers and
// sets the content policy (Pages.CSS is the one inline style).
package storepages

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"locator/internal/httpbody"
	"locator/internal/search"
	"locator/internal/stores"
)

//go:embed templates/pages.html
var pagesHTML string

//go:embed templates/page.css
var pageCSS string

//go:embed templates/default-store.svg
var defaultImageSVG []byte

var tmpl = template.Must(template.New("pages").Parse(pagesHTML))

// Options configure the pages.
type Options struct {
	// PublicURL is where users reach the site (LOCATOR_PUBLIC_URL): the
	// base of canonical URLs, JSON-LD and sitemaps. Empty: the request's
	// own host over http (development).
	PublicURL string
	// StorefrontURL is the marketplace. Pages do not link it: "Go to online
	// store" is behind the app's age check (rules.go, docs/rules.md).
	StorefrontURL string
	Log           *slog.Logger
	// Now is the clock of the status line (tests); nil: time.Now.
	Now func() time.Time
	// Stores is where a store the index leaves out is looked up: a
	// permanently closed store is never searchable but keeps its page
	// (stores.Repo). Nil: only the index.
	Stores StoreGetter
	// Report records a report posted from a store page's form; nil: the
	// pages have no form.
	Report ReportFunc
	// Viewed counts a store page served (insights); nil: not counted.
	Viewed func(r *http.Request, id int64)
	// PingPath, when set, gives the page's call, directions and online
	// store links a ping attribute ({PingPath}{id}/{kind}): the browser
	// reports the click without a script or a redirect (docs/insights.md).
	PingPath string
	// LatestReviews returns the store's latest published reviews by
	// members (not the demo's samples), newest first, for the page's
	// JSON-LD (docs/reviews.md, "Where reviews show"); nil: none.
	LatestReviews func(ctx context.Context, id int64) ([]Review, error)
}

// Review is one review as a store page's JSON-LD carries it.
type Review struct {
	Author string // first name and last initial
	Date   time.Time
	Rating int
	Body   string
}

// StoreGetter reads one store from the database (stores.Repo.Get).
type StoreGetter interface {
	Get(ctx context.Context, id int64) (*stores.Store, error)
}

// Pages serves the store pages from an index.
type Pages struct {
	ix   *search.Index
	opt  Options
	bufs sync.Pool

	dirMu   sync.Mutex
	dirSeen *search.Directory
	dirAt   time.Time

	cache pageCache
	cards cardCache
}

// New returns the pages of ix.
func New(ix *search.Index, opt Options) *Pages {
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	opt.StorefrontURL = strings.TrimRight(opt.StorefrontURL, "/")
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Pages{ix: ix, opt: opt, bufs: sync.Pool{New: func() any { return new(bytes.Buffer) }}}
}

// CSS is the pages' one inline style element's text: the content policy
// allows it by its hash (StyleHash).
func CSS() string { return pageCSS }

// StyleHash is the CSP source allowing CSS.
func StyleHash() string {
	sum := sha256.Sum256([]byte(pageCSS))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// defaultImage is the picture of a store without one (the web app's
// default), inline so it costs no request.
var defaultImage = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(defaultImageSVG)

func (p *Pages) base(r *http.Request) string {
	if p.opt.PublicURL != "" {
		return p.opt.PublicURL
	}
	return "http://" + r.Host
}

// page is what the layout needs.
type page struct {
	Title, Description string
	Canonical          string // absolute; empty on the 404 page
	OGType             string
	Image              string // og:image, absolute: a raster photo or the page's card
	ImageAlt           string
	ImageIsCard        bool // the card's size is known (cardWidth x cardHeight)
	Crumbs             []crumb
	LD                 []jsonLDBlock
	CSS                template.CSS

	Store   *storePage
	Report  *reportForm
	Product *productPage

	Heading, Intro string
	Links          []dirLink
	Pager          []crumb
}

// Serve answers every path under /stores: /stores, /stores/{state},
// /stores/{state}/{city} (?page=N) and /stores/{state}/{city}/{name}-{id}.
// Anything else there is the 404 page; a store reached by an outdated
// path (renamed, moved, other case) is a 301 to its canonical one.
func (p *Pages) Serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/report") {
		if parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/stores/"), "/"); len(parts) == 4 && strings.HasPrefix(r.URL.Path, "/stores/") {
			p.report(w, r, parts[2])
			return
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/stores")
	if !ok || (rest != "" && rest[0] != '/') {
		p.notFound(w, r)
		return
	}
	if rest == "/" {
		redirect(w, "/stores")
		return
	}
	rest = strings.TrimPrefix(rest, "/")
	if strings.HasSuffix(rest, "/") {
		redirect(w, "/stores/"+strings.TrimRight(rest, "/"))
		return
	}
	var parts []string
	if rest != "" {
		parts = strings.Split(rest, "/")
	}
	for _, s := range parts {
		if s == "" || len(s) > 200 {
			p.notFound(w, r)
			return
		}
	}
	switch len(parts) {
	case 0:
		p.states(w, r)
	case 1:
		p.state(w, r, parts[0])
	case 2:
		p.city(w, r, parts[0], parts[1])
	case 3:
		p.store(w, r, parts[2])
	case 4:
		if parts[3] != "report" {
			p.notFound(w, r)
			return
		}
		p.report(w, r, parts[2])
	default:
		p.notFound(w, r)
	}
}

func redirect(w http.ResponseWriter, to string) {
	w.Header().Set("Location", to)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusMovedPermanently)
}

// render writes a page with its validators: the ETag is a hash of the
// bytes, so every replica gives the same one for the same page; a request
// whose If-None-Match (or, without it, If-Modified-Since) still holds
// gets 304.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, name string, status int, pg *page, modified time.Time) {
	buf := p.bufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 {
			p.bufs.Put(buf)
		}
	}()
	if !p.execute(buf, r, name, pg) {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	etag := ""
	if status == http.StatusOK {
		etag = etagOf(buf.Bytes())
	}
	serve(w, r, status, buf.Bytes(), etag, modified)
}

// execute renders template name into buf (reset first).
func (p *Pages) execute(buf *bytes.Buffer, r *http.Request, name string, pg *page) bool {
	buf.Reset()
	pg.CSS = template.CSS(pageCSS) //nolint:gosec // our own embedded stylesheet
	if n := len(pg.Crumbs); n > 0 {
		pg.Crumbs = append(pg.Crumbs[:n-1:n-1], pg.Crumbs[n-1])
		pg.Crumbs[n-1].Current = true
	}
	if err := tmpl.ExecuteTemplate(buf, name, pg); err != nil {
		p.opt.Log.Error("store page failed", "err", err, "path", r.URL.Path)
		return false
	}
	return true
}

// etagOf is a strong validator of a page's bytes.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// serve answers a rendered page; with an etag (a 200 page) it sets the
// validators and answers 304 when the request's still hold.
func serve(w http.ResponseWriter, r *http.Request, status int, body []byte, etag string, modified time.Time) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	if etag != "" {
		// Each coding is its own representation: its own strong validator;
		// a validator of any of them still holds (the page is the same).
		base := etag
		if e := httpbody.For(r, body); e != httpbody.Identity {
			etag = etag[:len(etag)-1] + "-" + e.String() + `"`
		}
		h.Set("ETag", etag)
		if !modified.IsZero() {
			h.Set("Last-Modified", modified.UTC().Format(http.TimeFormat))
		}
		if notModified(r, etag, modified) || notModified(r, base, modified) {
			h.Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	httpbody.WriteStatus(w, r, status, "", body)
}

// notModified applies RFC 9110's order: If-None-Match when present,
// otherwise If-Modified-Since (to the second).
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == etag || t == "*" {
				return true
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || modified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !modified.Truncate(time.Second).After(t)
}

func (p *Pages) notFound(w http.ResponseWriter, r *http.Request) {
	pg := &page{Title: "Page not found · Store Locator", Description: "There is no store page at this address."}
	p.render(w, r, "notfound", http.StatusNotFound, pg, time.Time{})
}

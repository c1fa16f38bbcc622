package httpapi

// The embeddable widget (docs/embed.md): /embed.js, the snippet partners
// put on their sites, and /embed, the app's locator screen in embed mode
// inside the iframe that script (or the partner's own <iframe>) makes.
// Which sites may frame /embed is each partner's list of origins: the
// answer's Content-Security-Policy frame-ancestors; without a known,
// enabled partner it is 'none', as for every other page.

import (
	"context"
	_ "embed"
	"errors"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/identity"
	"locator/internal/insights"
	"locator/internal/partners"
	"locator/internal/search"
)

//go:embed embedjs/embed.js
var embedScript []byte

// embedScriptCache lets browsers and CDNs keep /embed.js for an hour:
// partners' pages load it on every view, and a change reaches them within
// the hour.
const embedScriptCache = "public, max-age=3600"

// embedOptions are the widget's options as /embed reads them (the app
// reads the same parameters, web/src/lib/embed.ts).
type embedOptions struct {
	Partner string
	Brand   string // the brand whose products the widget offers (docs/embed.md)
}

var (
	embedSlug   = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)
	embedColour = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
)

// embedLanguages are the languages of the app's texts (the spec's: English).
var embedLanguages = map[string]bool{"en": true}

var embedFlags = []string{"open", "delivery", "online", "curbside", "licensed", "in_stock"}

// parseEmbedOptions checks /embed's query: a bad option is refused with a
// message naming it (the widget then shows that message, docs/embed.md),
// never silently ignored.
func parseEmbedOptions(q url.Values) (embedOptions, string) {
	var o embedOptions
	for name, vs := range q {
		if len(vs) > 1 {
			return o, name + " is given more than once"
		}
	}
	if p := q.Get("partner"); p != "" {
		if !embedSlug.MatchString(p) {
			return o, "partner must be a partner's name in lowercase letters, digits and hyphens"
		}
		o.Partner = p
	}
	if t := q.Get("theme"); q.Has("theme") && !embedColour.MatchString(t) {
		return o, "theme must be a hex colour such as #0a7d55"
	}
	if l := q.Get("lang"); q.Has("lang") && !embedLanguages[l] {
		return o, "lang must be en (the widget's texts are in English)"
	}
	if v := q.Get("view"); q.Has("view") && v != "map" && v != "list" {
		return o, "view must be map or list"
	}
	if f := q.Get("filter"); q.Has("filter") {
		return o, "unknown filter " + strconv.Quote(f) + ": filters are open, delivery, online, curbside and licensed"
	}
	for _, name := range embedFlags {
		if v := q.Get(name); q.Has(name) && v != "1" && v != "true" && v != "0" && v != "false" {
			return o, name + " must be 1 or 0"
		}
	}
	if q.Has("lat") != q.Has("lon") {
		return o, "lat and lon go together"
	}
	for name, bound := range map[string]float64{"lat": 90, "lon": 180} {
		if !q.Has(name) {
			continue
		}
		f, err := strconv.ParseFloat(q.Get(name), 64)
		if err != nil || f < -bound || f > bound {
			return o, name + " must be a number from -" + strconv.Itoa(int(bound)) + " to " + strconv.Itoa(int(bound))
		}
	}
	for _, name := range []string{"product", "place", "brand"} {
		if !embedText(q.Get(name)) {
			return o, name + " must be text of at most 100 characters"
		}
	}
	if q.Has("brand") && strings.TrimSpace(q.Get("brand")) == "" {
		return o, "brand must name a brand"
	}
	o.Brand = strings.TrimSpace(q.Get("brand"))
	if h := q.Get("host"); q.Has("host") {
		if u, err := url.Parse(h); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return o, "host must be the embedding page's origin, such as https://shop.example"
		}
	}
	return o, ""
}

// embedText says whether v is an option's text: valid UTF-8, at most 100
// characters, no control character.
func embedText(v string) bool {
	return utf8.ValidString(v) && utf8.RuneCountInString(v) <= 100 && !strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// brandRefusal is why partner p's widget may not open on brand, or "": a
// brand partner with a brand list names one of its brands.
func brandRefusal(p partners.Partner, brand string) string {
	if brand == "" || p.BrandAllowed(brand) {
		return ""
	}
	return "brand must be one of the partner's brands: " + strings.Join(p.Brands, ", ")
}

// serveEmbedScript answers GET /embed.js.
func (s *Server) serveEmbedScript(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", embedScriptCache)
	// Partners' pages load it from their own origin.
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Content-Length", strconv.Itoa(len(embedScript)))
	if r.Method == http.MethodGet {
		_, _ = w.Write(embedScript)
	}
}

// serveEmbed answers GET /embed: the app in embed mode, framable by the
// partner's sites only. A bad option answers 400 with a page saying which
// (framable as the page would be, so the partner sees it in place).
func (s *Server) serveEmbed(w http.ResponseWriter, r *http.Request) {
	opts, bad := parseEmbedOptions(r.URL.Query())
	ancestors := "'none'"
	if p, ok := s.embedPartner(r.Context(), opts.Partner); ok && len(p.AllowedOrigins) > 0 {
		ancestors = strings.Join(p.AllowedOrigins, " ")
		if bad == "" {
			bad = brandRefusal(p, opts.Brand)
		}
		if bad == "" {
			s.counter().CountPartner(s.visitor(r), p.Slug, insights.PartnerView, 0, 1)
		}
	}
	h := w.Header()
	if ancestors != "'none'" {
		h.Del("X-Frame-Options")
	}
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Type", "text/html; charset=utf-8")
	if bad != "" {
		h.Set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors "+ancestors)
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Store locator: bad option</title></head><body>` +
			`<p role="alert">This store locator is embedded with an option it does not take: ` + html.EscapeString(bad) + `.</p></body></html>`))
		return
	}
	h.Set("Content-Security-Policy", s.static.embedCSP(ancestors))
	if r.Method == http.MethodGet {
		_, _ = w.Write(s.static.embed)
	}
}

// embedPartner is the enabled partner of that slug, if any, with the
// origins that may frame its widget.
func (s *Server) embedPartner(ctx context.Context, slug string) (partners.Partner, bool) {
	if slug == "" || s.Partners == nil {
		return partners.Partner{}, false
	}
	p, err := s.Partners.BySlug(ctx, slug)
	if err != nil {
		if !errors.Is(err, partners.ErrNotFound) {
			s.log.WarnContext(ctx, "embed: partner look-up failed: the widget refuses framing", "partner", slug, "err", err)
		}
		return partners.Partner{}, false
	}
	if p.Disabled {
		return partners.Partner{}, false
	}
	// Only origins as a policy may name them (the partners package keeps
	// them normalised; a stray space or ';' would change the header).
	var origins []string
	for _, o := range p.AllowedOrigins {
		if embedOrigin.MatchString(o) {
			origins = append(origins, o)
		}
	}
	p.AllowedOrigins = origins
	return p, true
}

var embedOrigin = regexp.MustCompile(`^https?://[a-z0-9.-]+(?::[0-9]{1,5})?$`)

// countPartnerSearch counts a list answer for the widget's partner (the
// list call's partner parameter; docs/embed.md, "What is counted").
func (s *Server) countPartnerSearch(r *http.Request, q *search.Query, shown int) {
	slug := r.URL.Query().Get("partner")
	if slug == "" || !s.counter().Enabled() {
		return
	}
	if p, ok := s.embedPartner(r.Context(), slug); ok {
		s.counter().CountPartnerSearch(s.visitor(r), p.Slug, q.Latitude, q.Longitude, shown)
	}
}

// countPartnerEvent counts a beacon's store action for the widget's partner.
func (s *Server) countPartnerEvent(r *http.Request, slug string, store int64, k insights.Kind) {
	pk, ok := insights.PartnerKindOf(k)
	if slug == "" || !ok || !s.counter().Enabled() {
		return
	}
	if p, found := s.embedPartner(r.Context(), slug); found {
		s.counter().CountPartner(s.visitor(r), p.Slug, pk, store, 1)
	}
}

// partnerReport answers GET /api/admin/partners/{id}/report?months=N: the
// widget's counts under the partner's slug for each of the last N months
// (12 by default), newest first.
func (s *Server) partnerReport(w http.ResponseWriter, r *http.Request, ps *partners.Service, _ *identity.Moderator) error {
	months := 12
	if v := r.URL.Query().Get("months"); r.URL.Query().Has("months") {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > insights.Retention || v[0] == '+' {
			return apperr.Invalidf("months must be a whole number from 1 to %d", insights.Retention)
		}
		months = n
	}
	p, err := ps.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if s.Insights == nil {
		return apperr.New(apperr.NotFound, "insights are not counted here")
	}
	report, err := insights.PartnerReport(r.Context(), s.Insights.DB, p.Slug, s.Clock.Now(), months)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, partnerReportReply{Partner: p.Slug, Months: report})
	return nil
}

type partnerReportReply struct {
	Partner string                  `json:"partner"`
	Months  []insights.PartnerMonth `json:"months"`
}

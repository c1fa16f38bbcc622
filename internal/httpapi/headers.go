package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// contentPolicy is the Content-Security-Policy of everything that is not
// the JSON API: the web app, its assets and workers (a worker takes the
// policy of its own script's answer) and any page the server renders.
// docs/accounts.md ("Headers") says why each source is allowed.
type contentPolicy struct {
	connect string // connect-src: this origin, plus a hosted map style's
}

// apiPolicy is for JSON answers: nothing in them may load or run anything.
const apiPolicy = "default-src 'none'; frame-ancestors 'none'"

func newContentPolicy(mapStyleURL string) contentPolicy {
	p := contentPolicy{connect: "'self'"}
	// MapLibre fetches the style, its tiles, glyphs and sprites with fetch(),
	// in the page and in its worker: allow the style's origin.
	if u, err := url.Parse(mapStyleURL); err == nil && u.Host != "" && (u.Scheme == "https" || u.Scheme == "http") {
		p.connect += " " + u.Scheme + "://" + u.Host
	}
	return p
}

// header is the policy for a document whose only inline scripts are the
// ones given, each allowed by its sha256 (never 'unsafe-inline').
func (p contentPolicy) header(inlineScripts ...string) string {
	return appPolicy("'self' data: blob: https: http:", p.connect, "'none'", inlineScripts)
}

// embedHeader is the policy of the widget's page (embed.go): framed by
// ancestors only, and reaching nothing but this site, whatever a store's
// picture or the configured map style names (docs/embed.md).
func (p contentPolicy) embedHeader(ancestors string, inlineScripts ...string) string {
	return appPolicy("'self' data: blob:", "'self'", ancestors, inlineScripts)
}

func appPolicy(img, connect, ancestors string, inlineScripts []string) string {
	script := "'self'"
	for _, s := range inlineScripts {
		script += " " + scriptHash(s)
	}
	return "default-src 'self'; script-src " + script +
		"; style-src 'self'; img-src " + img + "; font-src 'self'" +
		"; connect-src " + connect + "; worker-src 'self'" +
		"; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors " + ancestors
}

// pagePolicy is the policy of the server-rendered store pages: no script
// runs (their JSON-LD blocks are data), their one inline style is allowed
// by its hash, images come from anywhere a store's picture may be.
// connect-src 'self' lets crawlers' audits that fetch from the page (such
// as Lighthouse reading /robots.txt) reach this site; nothing else would.
// form-action 'self' lets the "Report a problem" form post to the site;
// manifest-src 'self' the app's web app manifest, which the pages link.
func pagePolicy(styleHash string) string {
	return "default-src 'none'; style-src " + styleHash + "; img-src 'self' data: https: http:; connect-src 'self'; manifest-src 'self'" +
		"; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// scriptHash is the CSP source that allows exactly this inline script text.
func scriptHash(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// permissionsPolicy allows the browser features the app uses, on its own
// origin only: geolocation ("Use my location"), and the Web Share and
// clipboard write of the share button (web/src/features/locator/share.ts);
// every other powerful feature is off for the app and any frame.
const permissionsPolicy = "geolocation=(self), web-share=(self), clipboard-write=(self), camera=(), microphone=(), " +
	"payment=(), usb=(), serial=(), bluetooth=(), hid=(), midi=(), display-capture=(), accelerometer=(), gyroscope=(), " +
	"magnetometer=(), fullscreen=(), browsing-topics=()"

// hstsHeader keeps browsers on HTTPS for two years once they have seen it.
const hstsHeader = "max-age=63072000; includeSubDomains"

// Header values built once: a header set to a shared one-element slice
// allocates nothing (an Add to it appends to a new array: cap is 1).
var (
	nosniffValue     = []string{"nosniff"}
	referrerValue    = []string{"strict-origin-when-cross-origin"}
	frameValue       = []string{"DENY"}
	openerValue      = []string{"same-origin"}
	permissionsValue = []string{permissionsPolicy}
	apiPolicyValue   = []string{apiPolicy}
	hstsValue        = []string{hstsHeader}
)

// securityHeaders sets the headers every answer carries: the content
// policy (the API's or the app's; a handler serving inline scripts sets its
// own with contentPolicy.header), HSTS when served over HTTPS, and
// no-store on every answer that read or set a session cookie.
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	appPolicy := []string{s.policy.header()}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Content-Type-Options"] = nosniffValue
		h["Referrer-Policy"] = referrerValue
		h["X-Frame-Options"] = frameValue
		// A window this site opens or is opened by shares no browsing
		// context group with another origin (no window.opener handle).
		h["Cross-Origin-Opener-Policy"] = openerValue
		h["Permissions-Policy"] = permissionsValue
		if strings.HasPrefix(r.URL.Path, "/api/") {
			h["Content-Security-Policy"] = apiPolicyValue
		} else {
			h["Content-Security-Policy"] = appPolicy
		}
		if s.SecureCookies {
			h["Strict-Transport-Security"] = hstsValue
		}
		rq := requestOf(r.Context())
		if rq == nil { // not under observe (a test of this layer alone)
			rq = &request{}
			r = r.WithContext(context.WithValue(r.Context(), requestKey, rq))
		}
		next.ServeHTTP(&privateWriter{ResponseWriter: w, use: rq}, r)
	})
}

// sessionCookie is the value of the named session cookie ("" when absent).
// Every session cookie is read here, so the answer gets no-store (the
// answer depends on who asks, so no cache may keep it).
func sessionCookie(r *http.Request, name string) string {
	if rq := requestOf(r.Context()); rq != nil {
		rq.sessionRead = true
	}
	c, err := r.Cookie(name)
	if err != nil {
		return ""
	}
	return c.Value
}

// privateWriter adds Cache-Control: no-store to an answer that read a
// session cookie or sets a cookie, whatever the handler set.
type privateWriter struct {
	http.ResponseWriter
	use   *request
	wrote bool
}

func (p *privateWriter) WriteHeader(code int) {
	if !p.wrote && code >= 200 {
		p.wrote = true
		if p.use.sessionRead || len(p.Header().Values("Set-Cookie")) > 0 {
			p.Header().Set("Cache-Control", "no-store")
		}
	}
	p.ResponseWriter.WriteHeader(code)
}

func (p *privateWriter) Write(b []byte) (int, error) {
	if !p.wrote {
		p.WriteHeader(http.StatusOK)
	}
	return p.ResponseWriter.Write(b)
}

func (p *privateWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

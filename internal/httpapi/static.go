package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// static serves the embedded web app: files as they are (hashed assets
// cached forever), the app's routes as index.html, and any other
// extension-less path (or any path a browser navigates to) as index.html with
// status 404 so the app shows its not-found page.
type static struct {
	files fs.FS
	index []byte            // index.html with the runtime config injected
	pages map[string][]byte // index.html of a route with a lazy screen, which it preloads
	csp   string            // index.html's policy: allows the injected scripts by their hash
	// embed is the widget's page (embed.go): index.html with a runtime
	// config naming no other site; embedCSP its policy for given ancestors.
	embed    []byte
	embedCSP func(ancestors string) string
	// canonical answers the store page's URL for a request about one store
	// (?store=N on / or /reviews), or "": the shell then names that page
	// as its canonical address, for crawlers that run no script.
	canonical func(r *http.Request) string
	// store reads what /reviews's first frame shows of a store (frames.go).
	store storeFrameData
	cfg   runtimeConfig
	gz    sync.Map // file name -> gzipped bytes ([]byte), made on first request
}

// compressible files are sent gzipped to clients that accept it: the
// entry script shrinks from ~330 KB to ~110 KB. Each is compressed once.
var compressible = map[string]bool{".js": true, ".mjs": true, ".css": true, ".svg": true, ".json": true, ".webmanifest": true, ".geojson": true, ".txt": true, ".map": true, ".html": true, ".ico": true}

// appIcons are the icons and the web app manifest (web/public) that the app
// and the store pages link by fixed names (a browser asks /favicon.ico on
// its own): cached a week rather than forever, so a new icon reaches
// everyone within days, yet a visit does not revalidate them.
var appIcons = map[string]bool{"favicon.ico": true, "favicon.svg": true, "apple-touch-icon.png": true,
	"icon-192.png": true, "icon-512.png": true, "manifest.webmanifest": true}

const iconCache = "public, max-age=604800"

func (s *static) gzipped(name string) ([]byte, bool) {
	if v, ok := s.gz.Load(name); ok {
		return v.([]byte), true
	}
	raw, err := fs.ReadFile(s.files, name)
	if err != nil || len(raw) < 1024 {
		return nil, false
	}
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = w.Write(raw)
	_ = w.Close()
	out := b.Bytes()
	s.gz.Store(name, out)
	return out, true
}

var appRoutes = map[string]bool{"/": true, "/claim": true, "/profile": true, "/reset-password": true, "/reviews": true, "/admin": true, "/business": true, "/business/reset-password": true, "/business/verify": true, "/business/consent": true, "/verify-email": true}

const placeholder = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Locator</title></head>
<body><h1>Locator</h1><p>The web app is not built into this binary. Run <code>make build</code>;
the API answers under <a href="/api/store/physical-store/list-physical-store/?latitude=40.71&amp;longitude=-74.0&amp;radius=30">/api/</a>.</p></body></html>`

func newStatic(files fs.FS, cfg runtimeConfig, policy contentPolicy) *static {
	s := &static{files: files, cfg: cfg}
	var index []byte
	if files != nil {
		index, _ = fs.ReadFile(files, "index.html")
	}
	if index == nil {
		s.files = nil
		index = []byte(placeholder)
	}
	c, _ := json.Marshal(cfg)
	// json.Marshal escapes <, > and &, so the config cannot close the script.
	code := "window.__LOCATOR_CONFIG__=" + string(c)
	s.index = bytes.Replace(index, []byte("</head>"), []byte("<script>"+code+"</script></head>"), 1)
	inline := []string{code}
	if entryScript.Match(index) { // a framed page loads the app with startAfterPaint (frames.go)
		inline = append(inline, startAfterPaint)
	}
	s.csp = policy.header(inline...)
	ec := cfg
	ec.MapStyleURL = "" // the widget reaches this site only: the binary's own map
	c, _ = json.Marshal(ec)
	embedCode := "window.__LOCATOR_CONFIG__=" + string(c)
	s.embed = bytes.Replace(index, []byte("</head>"), []byte("<script>"+embedCode+"</script></head>"), 1)
	s.embedCSP = func(ancestors string) string { return policy.embedHeader(ancestors, embedCode) }
	s.pages = map[string][]byte{}
	for route, links := range routePreloads(s.files) {
		s.pages[route] = bytes.Replace(s.index, []byte("</head>"), []byte(links+"</head>"), 1)
	}
	return s
}

// routeModules are the app routes whose screen is a lazy chunk (web/src/app/routes.tsx), by its
// source in Vite's manifest. Their index.html preloads that chunk, so it downloads beside the
// entry script instead of after it has run (one round trip less before the screen shows).
var routeModules = map[string]string{ //nolint:gosec // G101: route and source paths ("reset-password"), not credentials
	"/claim":                   "src/features/claim/ClaimPage.tsx",
	"/profile":                 "src/features/profile/ProfilePage.tsx",
	"/reset-password":          "src/features/auth/ResetPasswordPage.tsx",
	"/reviews":                 "src/features/reviews/ReviewsPage.tsx",
	"/admin":                   "src/features/admin/AdminPage.tsx",
	"/business":                "src/features/business/BusinessPage.tsx",
	"/business/reset-password": "src/features/business/BusinessPage.tsx",
	"/business/verify":         "src/features/business/BusinessPage.tsx",
	"/business/consent":        "src/features/business/BusinessPage.tsx",
	"/verify-email":            "src/features/auth/VerifyEmailPage.tsx",
}

// manifestPath is Vite's build manifest (vite.config.ts build.manifest); never served.
const manifestPath = ".vite/manifest.json"

type manifestChunk struct {
	File    string   `json:"file"`
	Imports []string `json:"imports"`
	CSS     []string `json:"css"`
}

// routePreloads answers, per route of routeModules, the <link> tags of its chunk, the chunks it
// imports that the entry does not, and their style sheets; none without a manifest.
func routePreloads(files fs.FS) map[string]string {
	out := map[string]string{}
	if files == nil {
		return out
	}
	raw, err := fs.ReadFile(files, manifestPath)
	var chunks map[string]manifestChunk
	if err != nil || json.Unmarshal(raw, &chunks) != nil {
		return out
	}
	// walk visits key and what it imports, once each.
	walk := func(key string, seen map[string]bool, visit func(manifestChunk)) {
		var rec func(string)
		rec = func(k string) {
			c, ok := chunks[k]
			if !ok || seen[k] {
				return
			}
			seen[k] = true
			visit(c)
			for _, i := range c.Imports {
				rec(i)
			}
		}
		rec(key)
	}
	loaded := map[string]bool{} // the entry and its static imports: index.html loads them
	walk("index.html", loaded, func(manifestChunk) {})
	for route, module := range routeModules {
		var links strings.Builder
		seen := maps.Clone(loaded)
		walk(module, seen, func(c manifestChunk) {
			links.WriteString(`<link rel="modulepreload" crossorigin href="/` + c.File + `">`)
			for _, css := range c.CSS {
				links.WriteString(`<link rel="stylesheet" crossorigin href="/` + css + `">`)
			}
		})
		if links.Len() > 0 {
			out[route] = links.String()
		}
	}
	return out
}

func (s *static) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if p != "/" && s.files != nil {
		name := strings.TrimPrefix(p, "/")
		if st, err := fs.Stat(s.files, name); err == nil && !st.IsDir() && name != "index.html" && !strings.HasPrefix(name, ".vite/") {
			switch {
			case strings.HasPrefix(name, "assets/"):
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			case appIcons[name]:
				w.Header().Set("Cache-Control", iconCache)
			default:
				w.Header().Set("Cache-Control", "no-cache")
			}
			ext := path.Ext(name)
			if compressible[ext] && r.Header.Get("Range") == "" && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				if gz, ok := s.gzipped(name); ok {
					h := w.Header()
					h.Set("Content-Type", contentType(ext))
					h.Set("Content-Encoding", "gzip")
					h.Set("Vary", "Accept-Encoding")
					h.Set("Content-Length", strconv.Itoa(len(gz)))
					if r.Method == http.MethodGet {
						_, _ = w.Write(gz)
					}
					return
				}
			}
			w.Header().Set("Vary", "Accept-Encoding")
			if t := contentType(ext); t != "application/octet-stream" {
				w.Header().Set("Content-Type", t) // else ServeFileFS sniffs the content
			}
			http.ServeFileFS(w, r, s.files, name)
			return
		}
	}
	if path.Ext(p) != "" && !appRoutes[p] {
		// A missing file: a script, image or style asking for it gets a plain 404, but a person
		// who followed or typed an address ("/stores.html", "/old-page.php") gets the app's
		// not-found page, with its header, like any other unknown address (issue 39, m17).
		w.Header().Add("Vary", "Accept")
		if !wantsPage(r) || strings.HasPrefix(p, "/assets/") {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", s.csp)
	status := http.StatusOK
	if !appRoutes[strings.TrimSuffix(p, "/")] && p != "/" {
		status = http.StatusNotFound
	}
	route := strings.TrimSuffix(p, "/")
	if p == "/" {
		route = p
	}
	if f, ok := routeFrames[route]; ok && f.signedIn != "" {
		w.Header().Add("Vary", "Cookie") // signed in, the route has no first frame
	}
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		page, ok := s.pages[route]
		if !ok || status != http.StatusOK {
			page = s.index
		}
		if status == http.StatusOK {
			page = framed(page, route, r, s.store)
		}
		if (p == "/" || p == "/reviews") && s.canonical != nil && status == http.StatusOK {
			if u := s.canonical(r); u != "" {
				page = bytes.Replace(page, []byte("</head>"), []byte(`<link rel="canonical" href="`+html.EscapeString(u)+`"></head>`), 1)
			}
		}
		_, _ = w.Write(page)
	}
}

// wantsPage reports whether the request is a browser asking for a page to show (a navigation),
// not a file for a page that is already shown.
func wantsPage(r *http.Request) bool {
	if mode := r.Header.Get("Sec-Fetch-Mode"); mode != "" {
		return mode == "navigate"
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

func contentType(ext string) string {
	switch ext { // not in every system's MIME table
	case ".webmanifest":
		return "application/manifest+json"
	case ".ico":
		return "image/x-icon"
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

package httpapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// frameFiles are the first frames of the app's routes: the product header, the screen's heading
// and intro text and a skeleton of its form, in the markup and classes the React screen draws
// (web/src/index.css generates their classes too). The server writes a route's frame into
// index.html's #root, so the browser paints the screen's largest text from HTML and CSS before
// the entry script has run; React then replaces it (web/src/app/firstFrame.ts keeps it on screen
// until the route's lazy chunk has rendered). Nothing in a frame is interactive but its links.
//
//go:embed frames/*.html
var frameFiles embed.FS

// routeFrame is the frame a route's index.html carries. A screen that differs once signed in
// has one only for a visitor without the session hint (sessionhint.go) of that area: the
// frame is what a signed-out visitor sees. /profile signed out sends the visitor to the locator
// with the sign-in popup open.
type routeFrame struct {
	files    []string // drawn one after the other
	signedIn string   // the hint cookie that, when "1", means no frame
}

var routeFrames = map[string]routeFrame{
	"/":         {files: []string{"locator.html"}, signedIn: "locator_session_hint"},
	"/profile":  {files: []string{"locator.html", "signin.html"}, signedIn: "locator_session_hint"},
	"/claim":    {files: []string{"claim.html"}},
	"/business": {files: []string{"business.html"}, signedIn: "locator_business_hint"},
}

// rootDiv is the app's mount point in web/index.html, where a frame goes.
var rootDiv = []byte(`<div id="root"></div>`)

// entryScript is Vite's tag of the app's entry script in index.html; modulePreload a chunk's
// preload (Vite's for the entry's imports, routePreloads' for a lazy screen's).
var (
	entryScript   = regexp.MustCompile(`<script type="module" crossorigin src="(/assets/[^"]+\.js)"></script>`)
	modulePreload = regexp.MustCompile(`<link rel="modulepreload" crossorigin href="(/assets/[^"]+\.js)">`)
)

// appModules is the id of the data block listing, in a framed page, the entry script and the
// chunks to preload with it.
const appModules = "app-modules"

// startAfterPaint is the inline script that loads the app once the first frame has been painted:
// it preloads the listed chunks and imports the entry. Loaded from the start, the scripts (~110
// KB) would share the connection with the style sheet and run as soon as they arrive, so the
// first paint would wait for them; the frame's paint needs HTML and CSS only. A hidden tab,
// which paints no frames, starts the app after half a second.
const startAfterPaint = `(function(){var s=0;function go(){if(s)return;s=1;` +
	`var m=JSON.parse(document.getElementById("` + appModules + `").textContent);` +
	`m.slice(1).forEach(function(u){var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=u;document.head.appendChild(l)});` +
	`import(m[0])}` +
	`requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go)})});setTimeout(go,500)})()`

// deferScripts moves page's entry script and module preloads into the list startAfterPaint
// loads; page as it is without an entry script.
func deferScripts(page []byte) []byte {
	entry := entryScript.FindSubmatch(page)
	if entry == nil {
		return page
	}
	modules := []string{string(entry[1])}
	for _, m := range modulePreload.FindAllSubmatch(page, -1) {
		modules = append(modules, string(m[1]))
	}
	list, _ := json.Marshal(modules) // escapes <, > and &: the list cannot close its element
	page = bytes.Replace(page, entry[0], nil, 1)
	page = modulePreload.ReplaceAll(page, nil)
	return bytes.Replace(page, []byte("</body>"), []byte(`<script type="application/json" id="`+appModules+`">`+
		string(list)+`</script><script>`+startAfterPaint+`</script></body>`), 1)
}

// framed answers page with the route's first frame in #root and the app loaded after the
// frame's paint, or page itself when the route has none for this visitor.
func framed(page []byte, route string, r *http.Request) []byte {
	f, ok := routeFrames[route]
	if !ok || (f.signedIn != "" && hintSet(r, f.signedIn)) {
		return page
	}
	out := []byte(`<div id="root">`)
	for _, name := range f.files {
		frame, err := frameFiles.ReadFile("frames/" + name)
		if err != nil {
			return page
		}
		out = append(out, bytes.TrimSpace(frame)...)
	}
	// The locator's heading names the place of the query (the only variable text of a frame).
	out = bytes.ReplaceAll(out, []byte("{{place}}"), []byte(html.EscapeString(placeLabel(r.URL.Query()))))
	return deferScripts(bytes.Replace(page, rootDiv, append(out, "</div>"...), 1))
}

// placeLabel is the place the locator's heading names for these query parameters, as
// web/src/features/locator/LocatorPage.tsx words it before the visitor's location is known.
func placeLabel(q url.Values) string {
	if p := strings.TrimSpace(q.Get("place")); p != "" {
		return p
	}
	if q.Get("lat") != "" && q.Get("lon") != "" {
		return "this area"
	}
	return "New York"
}

// hintSet reports whether the named session hint cookie says a session may exist.
func hintSet(r *http.Request, name string) bool {
	c, err := r.Cookie(name)
	return err == nil && c.Value == "1"
}

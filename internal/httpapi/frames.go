package httpapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"html"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"locator/internal/places"
	"locator/internal/reviews"
	"locator/internal/storepages"
)

// frameFiles are the first frames of the app's routes: the product header, the screen's heading
// and intro text and a skeleton of its form, in the markup and classes the React screen draws
// (web/src/index.css generates their classes too). The server writes a route's frame into
// index.html's #root, so the browser paints the screen's largest text from HTML and CSS before
// the entry script has run; React then replaces it (web/src/lib/firstFrame.ts keeps it on screen
// until the route's lazy chunk has rendered). Nothing in a frame is interactive but its links.
//
//go:embed frames/*.html
var frameFiles embed.FS

// routeFrame is the frame a route's index.html carries. A screen that differs once signed in
// has one only for a visitor without the session hint (session.go) of that area: the
// frame is what a signed-out visitor sees. /profile signed out stays on /profile, asked to sign
// in, with the sign-in popup open (web/src/features/profile/SignedOutProfile.tsx).
type routeFrame struct {
	files    []string // drawn one after the other
	signedIn string   // the hint cookie that, when "1", means no frame
}

var routeFrames = map[string]routeFrame{
	"/":         {files: []string{"locator.html"}, signedIn: "locator_session_hint"},
	"/profile":  {files: []string{"profile.html", "signin.html"}, signedIn: "locator_session_hint"},
	"/claim":    {files: []string{"claim.html"}},
	"/business": {files: []string{"business.html"}, signedIn: "locator_business_hint"},
	"/reviews":  {}, // drawn from the store's data: reviewsFrame
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
// frame's paint, or page itself when the route has none for this visitor. store reads what
// /reviews's frame shows of a store (nil: the generic frame).
func framed(page []byte, route string, r *http.Request, store storeFrameData) []byte {
	f, ok := routeFrames[route]
	if !ok || (f.signedIn != "" && hintSet(r, f.signedIn)) {
		return page
	}
	out := []byte(`<div id="root">`)
	if route == "/reviews" {
		var b bytes.Buffer
		if reviewsFrame.Execute(&b, reviewsView(r, store)) != nil {
			return page
		}
		out = append(out, bytes.TrimSpace(b.Bytes())...)
	}
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

// storeFrameData answers a store's heading (from the search index) and review summary for
// /reviews's frame; false when either is not to be had.
type storeFrameData func(r *http.Request, id int64) (storepages.Heading, reviews.Summary, bool)

// reviewsFrame is /reviews's first frame: the store's name, address, status and review summary
// in the markup web/src/features/reviews/ReviewsPage.tsx draws (its largest text, the LCP, is
// the summary's "N% of reviewers recommend this store"), or the page's generic heading for a
// missing or unknown store. html/template escapes the store's data.
var reviewsFrame = func() *template.Template {
	src, err := frameFiles.ReadFile("frames/reviews.html")
	if err != nil {
		panic(err)
	}
	// The markup is one line in the app: no whitespace text between its elements.
	return template.Must(template.New("reviews").Parse(strings.ReplaceAll(string(src), "\n", "")))
}()

type reviewsFrameView struct {
	Store       *storepages.Heading
	NoStore     bool // no store id at all (the app says so)
	Average     string
	Count       int
	Stars       [5]bool
	Bars        []reviewBar
	Recommended int
}

type reviewBar struct {
	Rating, Count int
	Width         string // a Tailwind class: the share of the largest count, in 5 % steps
}

// reviewsView is what /reviews's frame shows for r's ?store= (digits only, as the app reads it).
func reviewsView(r *http.Request, store storeFrameData) reviewsFrameView {
	raw := r.URL.Query().Get("store")
	if strings.Trim(raw, "0123456789") != "" || strings.Trim(raw, "0") == "" {
		return reviewsFrameView{NoStore: true}
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || store == nil {
		return reviewsFrameView{}
	}
	h, sum, ok := store(r, id)
	if !ok {
		return reviewsFrameView{}
	}
	v := reviewsFrameView{Store: &h, Average: strconv.FormatFloat(sum.Average, 'f', 1, 64), Count: sum.Count, Recommended: sum.Recommended}
	for i := range v.Stars {
		v.Stars[i] = float64(i+1) <= math.Round(sum.Average)
	}
	most := 1
	for _, n := range sum.Counts {
		most = max(most, n)
	}
	for i, n := range sum.Counts { // index 0 is 5 stars
		v.Bars = append(v.Bars, reviewBar{Rating: 5 - i, Count: n, Width: "w-[" + strconv.Itoa(int(math.Round(float64(n)*20/float64(most)))*5) + "%]"})
	}
	return v
}

// placeLabel is the place the locator's heading names for these query parameters, as
// web/src/features/locator/LocatorPage.tsx words it before the visitor's location is known
// (a US place shortened to "Brooklyn, NY", places.ShortName).
func placeLabel(q url.Values) string {
	if p := strings.TrimSpace(q.Get("place")); p != "" {
		return places.ShortName(p)
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

package storepages

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Link previews (og:image): share sheets and chat apps show raster
// pictures only, never SVG, and many stores have no photo, so the server
// draws a card for every store page and directory: the page's name, its
// place and the product's mark. A card is a pure function of its text, so
// every replica draws the same bytes with no shared cache; its URL carries
// a hash of that text (?v=), so a renamed store gets a new picture while
// caches keep each version for a year (docs/store-pages.md, "Link previews").

// cardWidth and cardHeight are the 1.91:1 size link previews expect.
const cardWidth, cardHeight = 1200, 630

// card is what a card says.
type card struct {
	Kind  string // above the title: "Store", "Stores in a state", ...
	Title string // the store's or the place's name
	Line  string // below: "Brooklyn, NY", "1,234 stores in 56 cities"
	Alt   string // the picture's text alternative (og:image:alt)
}

// version names a card's text; it changes whenever the picture would.
func (c card) version() string {
	sum := sha256.Sum256([]byte(c.Kind + "\x00" + c.Title + "\x00" + c.Line))
	return hex.EncodeToString(sum[:6])
}

// url is where the card of the page at path (a store id or a directory
// path under /stores) is drawn, absolute on base.
func (c card) url(base, path string) string {
	return base + "/cards" + path + ".png?v=" + c.version()
}

var (
	cardBG     = color.RGBA{0x04, 0x78, 0x57, 0xff} // the pages' primary green (page.css .btn.primary)
	cardBand   = color.RGBA{0x06, 0x5f, 0x46, 0xff}
	cardText   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	cardMuted  = color.RGBA{0xd1, 0xfa, 0xe5, 0xff}
	cardFonts  sync.Once
	fontBold   *opentype.Font
	fontNormal *opentype.Font
)

func loadCardFonts() {
	cardFonts.Do(func() {
		// The Go fonts ship inside golang.org/x/image: no file to embed.
		fontBold, _ = opentype.Parse(gobold.TTF)
		fontNormal, _ = opentype.Parse(goregular.TTF)
	})
}

func face(f *opentype.Font, size float64) font.Face {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("storepages: the embedded Go font: " + err.Error()) // cannot happen: the font is compiled in
	}
	return fc
}

// draw renders the card as a PNG.
func (c card) draw() []byte {
	loadCardFonts()
	img := image.NewRGBA(image.Rect(0, 0, cardWidth, cardHeight))
	draw.Draw(img, img.Bounds(), &image.Uniform{cardBG}, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, cardHeight-110, cardWidth, cardHeight), &image.Uniform{cardBand}, image.Point{}, draw.Src)
	const margin = 72
	width := cardWidth - 2*margin

	kind := face(fontBold, 30)
	text(img, kind, cardMuted, margin, 110, strings.ToUpper(c.Kind))

	// The title in the largest size at which it fits three lines.
	var lines []string
	var title font.Face
	for _, size := range []float64{76, 64, 54, 46} {
		title = face(fontBold, size)
		if lines = wrap(title, c.Title, width); len(lines) <= 3 {
			break
		}
	}
	if len(lines) > 3 {
		lines = append(lines[:2], ellipsis(title, strings.Join(lines[2:], " "), width))
	}
	y := 110 + 30
	step := title.Metrics().Height.Ceil() + 6
	for _, l := range lines {
		y += step
		text(img, title, cardText, margin, y, l)
	}
	line := face(fontNormal, 40)
	text(img, line, cardMuted, margin, y+70, ellipsis(line, c.Line, width))

	brand := face(fontBold, 40)
	text(img, brand, cardText, margin, cardHeight-42, "Store Locator")

	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		panic("storepages: encode a card: " + err.Error()) // writes to memory cannot fail
	}
	return buf.Bytes()
}

func text(img draw.Image, f font.Face, c color.Color, x, y int, s string) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// wrap breaks s into lines no wider than width (a word longer than a line
// stands alone and is cut by ellipsis).
func wrap(f font.Face, s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		next := strings.TrimSpace(cur + " " + w)
		if cur != "" && font.MeasureString(f, next).Ceil() > width {
			lines = append(lines, ellipsis(f, cur, width))
			cur = w
			continue
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, ellipsis(f, cur, width))
	}
	return lines
}

// ellipsis cuts s to width, ending in "…" when it had to cut.
func ellipsis(f font.Face, s string, width int) string {
	if font.MeasureString(f, s).Ceil() <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && font.MeasureString(f, string(r)+"…").Ceil() > width {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}

// cardCache keeps drawn cards by version, and draws one at a time.
// Drawing costs 10-16 ms of CPU (a 1200x630 picture, text and PNG), so a
// flood of requests for distinct cards (8 connections asking for a store
// each) would take every core from the searches: at most one card is
// drawn at once per replica, and a request that finds the drawer busy gets
// the generic card (drawn once) for a minute instead of waiting. A card is
// a pure function of its text, keyed by its version (the text's hash), so
// every replica draws and caches the same bytes with nothing to share and
// nothing to invalidate: a store that changes gets a new version.
type cardCache struct {
	mu      sync.Mutex
	cards   map[string][]byte
	bytes   int
	sem     chan struct{} // one drawer
	semOnce sync.Once
	draws   atomic.Int64 // cards drawn (tests)
}

// cardCacheBytes bounds the cache: ~1,000-2,000 cards of 15-30 KB; past it
// the cache starts over (dropping all at once is enough for a cache whose
// every entry can be drawn again).
var cardCacheBytes = 32 << 20

// genericCard is what a card request gets while the drawer is busy: the
// product's mark, with no store's text.
var genericCard = card{Kind: "Store locator", Title: "Find a store near you", Line: ""}

var genericOnce = sync.OnceValue(func() []byte { return genericCard.draw() })

// get is c's picture, drawn if need be; drawn is false when the drawer was
// busy and the picture is the generic card.
func (cc *cardCache) get(c card) (body []byte, drawn bool) {
	v := c.version()
	cc.mu.Lock()
	b, ok := cc.cards[v]
	cc.mu.Unlock()
	if ok {
		return b, true
	}
	cc.semOnce.Do(func() { cc.sem = make(chan struct{}, 1) })
	select {
	case cc.sem <- struct{}{}:
	default:
		return genericOnce(), false
	}
	defer func() { <-cc.sem }()
	cc.mu.Lock()
	b, ok = cc.cards[v] // drawn by the request that held the drawer
	cc.mu.Unlock()
	if ok {
		return b, true
	}
	b = c.draw()
	cc.draws.Add(1)
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.cards == nil || cc.bytes+len(b) > cardCacheBytes {
		cc.cards, cc.bytes = map[string][]byte{}, 0
	}
	cc.cards[v] = b
	cc.bytes += len(b)
	return b, true
}

// Card answers GET /cards/{id}.png (a store) and /cards/stores[/{state}[/{city}]].png
// (a directory). With the current ?v= the picture may be cached for a year.
// A request whose card is not drawn yet while another is being drawn gets
// the generic card, cacheable for a minute only.
func (p *Pages) Card(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/cards"), ".png")
	if !ok {
		p.notFound(w, r)
		return
	}
	var c card
	if id, err := strconv.ParseInt(strings.TrimPrefix(path, "/"), 10, 64); err == nil && id > 0 && !strings.HasPrefix(path, "/+") {
		v, _, _, found := p.lookup(w, r, id, "store card")
		if !found {
			return
		}
		c = v.card()
	} else if c, ok = p.directoryCard(path); !ok {
		p.notFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	// A cache that holds this version asks first: no drawing for it.
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, `"`+c.version()+`"`) {
		h.Set("ETag", `"`+c.version()+`"`)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, drawn := p.cards.get(c)
	switch {
	case !drawn:
		h.Set("Cache-Control", "public, max-age=60")
	case r.URL.Query().Get("v") == c.version():
		h.Set("ETag", `"`+c.version()+`"`)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	default:
		h.Set("ETag", `"`+c.version()+`"`)
		h.Set("Cache-Control", "public, max-age=3600")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// preview sets a page's og:image: the photo when it is a raster picture
// share sheets show (an uploaded JPEG, a photo elsewhere), else the card
// drawn for path (a store id or a directory path).
func (pg *page) preview(base, path string, c card, photo, photoAlt string) {
	if photo != "" && !strings.HasPrefix(photo, "data:") && !strings.HasSuffix(strings.ToLower(photo), ".svg") {
		pg.Image, pg.ImageAlt = absolute(base, photo), photoAlt
		return
	}
	pg.Image, pg.ImageAlt, pg.ImageIsCard = c.url(base, path), c.Alt, true
}

// card is a store's link preview.
func (v *storeView) card() card {
	where := strings.TrimPrefix(strings.TrimSuffix(v.City+", "+v.State, ", "), ", ")
	alt := v.Name
	if where != "" {
		alt += ", " + where
	}
	return card{Kind: "Store", Title: v.Name, Line: where, Alt: alt + ": the store's name and place"}
}

// directoryCard is the link preview of /stores, a state or a city.
func (p *Pages) directoryCard(path string) (card, bool) {
	rest, ok := strings.CutPrefix(path, "/stores")
	if !ok || (rest != "" && rest[0] != '/') {
		return card{}, false
	}
	d, _ := p.directory()
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	switch {
	case rest == "":
		return statesCard(d.Total, len(d.States)), true
	case len(parts) == 1:
		if st, ok := d.State(parts[0]); ok {
			return stateCard(stateName(st.Name), st.Count, len(st.Cities)), true
		}
	case len(parts) == 2:
		if st, ok := d.State(parts[0]); ok {
			if c, ok := st.City(parts[1]); ok {
				return cityCard(cityName(c.Name), stateName(st.Name), len(c.IDs)), true
			}
		}
	}
	return card{}, false
}

func statesCard(stores, states int) card {
	return card{Kind: "Store directory", Title: "Stores by state",
		Line: strconv.Itoa(stores) + plural(stores, " store", " stores") + " in " + strconv.Itoa(states) + plural(states, " state", " states"),
		Alt:  "Store Locator: all stores by state"}
}

func stateCard(name string, stores, cities int) card {
	return card{Kind: "Stores in a state", Title: "Stores in " + name,
		Line: strconv.Itoa(stores) + plural(stores, " store", " stores") + " in " + strconv.Itoa(cities) + plural(cities, " city", " cities"),
		Alt:  "Store Locator: stores in " + name}
}

func cityCard(city, state string, stores int) card {
	return card{Kind: "Stores in a city", Title: "Stores in " + city + ", " + state,
		Line: strconv.Itoa(stores) + plural(stores, " store", " stores"),
		Alt:  "Store Locator: stores in " + city + ", " + state}
}

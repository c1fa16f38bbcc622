package storepages

import (
	"bytes"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/image/font"

	"locator/internal/stores"
)

var ogImage = regexp.MustCompile(`<meta property="og:image" content="([^"]+)">\n<meta property="og:image:alt" content="([^"]+)">`)

// previewOf answers a page's og:image and its alt text.
func previewOf(t *testing.T, h http.Handler, path string) (string, string) {
	t.Helper()
	rec := get(t, h, path)
	if rec.Code != http.StatusOK {
		t.Fatalf("%s: %d", path, rec.Code)
	}
	m := ogImage.FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("%s: no og:image with og:image:alt", path)
	}
	return strings.ReplaceAll(m[1], "&amp;", "&"), m[2]
}

// fetchCard gets a card URL and checks it is a 1200x630 PNG.
func fetchCard(t *testing.T, h http.Handler, u string) *http.Response {
	t.Helper()
	rec := get(t, h, strings.TrimPrefix(u, "https://locator.example"))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("%s: %d %s", u, rec.Code, rec.Header().Get("Content-Type"))
	}
	img, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", u, err)
	}
	if b := img.Bounds(); b.Dx() != cardWidth || b.Dy() != cardHeight {
		t.Fatalf("%s: %v, want %dx%d", u, b, cardWidth, cardHeight)
	}
	return rec.Result()
}

func TestLinkPreviews(t *testing.T) {
	t.Parallel()
	ss := fixtureStores()
	ss[3].Image = "/demo/store-5.svg" // Hoboken Vapes: an SVG, which share sheets do not show
	p, ix := newPages(t, ss)
	h := p.handler()

	// A raster photo is the preview.
	img, alt := previewOf(t, h, "/stores/ny/new-york/manhattan-vape-shop-3613")
	if img != "https://locator.example/photos/77/640.jpg" || alt != "Photo of Manhattan Vape Shop" {
		t.Errorf("store with a photo: %q %q", img, alt)
	}
	// Without a photo, or with an SVG, the store's card.
	for _, path := range []string{"/stores/ny/new-york/cafe-zoes-best-2", "/stores/nj/hoboken/hoboken-vapes-4"} {
		img, alt := previewOf(t, h, path)
		if !strings.HasPrefix(img, "https://locator.example/cards/") || !strings.Contains(alt, "name and place") {
			t.Fatalf("%s: preview %q %q", path, img, alt)
		}
		res := fetchCard(t, h, img)
		if res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: the current card's Cache-Control %q", img, res.Header.Get("Cache-Control"))
		}
		if rec := get(t, h, strings.TrimPrefix(img, "https://locator.example"), "If-None-Match", res.Header.Get("ETag")); rec.Code != http.StatusNotModified {
			t.Errorf("%s: revalidation answered %d", img, rec.Code)
		}
	}
	// Directories have cards too.
	for _, path := range []string{"/stores", "/stores/ny", "/stores/ny/new-york"} {
		img, alt := previewOf(t, h, path)
		if !strings.HasPrefix(alt, "Store Locator: ") {
			t.Errorf("%s: alt %q", path, alt)
		}
		fetchCard(t, h, img)
	}

	// A rename draws a new card at a new URL; the old URL then answers the
	// new picture for an hour only.
	old, _ := previewOf(t, h, "/stores/nj/hoboken/hoboken-vapes-4")
	ss[3].Name = "Hoboken Vapor Lounge"
	ix.PutAll([]stores.Entry{entry(t, ss[3])})
	renamed, _ := previewOf(t, h, "/stores/nj/hoboken/hoboken-vapor-lounge-4")
	if renamed == old {
		t.Fatalf("the card URL did not change with the name: %s", old)
	}
	if res := fetchCard(t, h, old); res.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Errorf("an outdated card URL: Cache-Control %q", res.Header.Get("Cache-Control"))
	}

	for _, bad := range []string{"/cards/99.png", "/cards/0.png", "/cards/+4.png", "/cards/4", "/cards/stores/zz.png", "/cards/stores/ny/nowhere.png", "/cards/x.png"} {
		if rec := get(t, h, bad); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, rec.Code)
		}
	}
}

func TestCardTextFits(t *testing.T) {
	t.Parallel()
	loadCardFonts()
	f := face(fontBold, 76)
	long := strings.Repeat("Supercalifragilistic Vapour Emporium ", 8)
	for _, l := range wrap(f, long, 1000) {
		if w := measure(f, l); w > 1000 {
			t.Errorf("line %q is %d px wide", l, w)
		}
	}
	if got := ellipsis(f, strings.Repeat("W", 100), 300); !strings.HasSuffix(got, "…") || measure(f, got) > 300 {
		t.Errorf("ellipsis: %q", got)
	}
	// A very long name still draws (three lines, the last one cut).
	if b := (card{Kind: "Store", Title: long, Line: "Somewhere, NY"}).draw(); len(b) < 1000 {
		t.Errorf("card of %d bytes", len(b))
	}
}

func measure(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// BenchmarkCard draws one store card (docs/store-pages.md, "Link previews").
func BenchmarkCard(b *testing.B) {
	c := card{Kind: "Store", Title: "Liberty Lounge E-Cig Store", Line: "New York, NY"}
	var n int
	for b.Loop() {
		n = len(c.draw())
	}
	b.ReportMetric(float64(n), "bytes")
}

// Cards are drawn once (a second request, or a revalidation of a card not
// drawn yet, draws nothing) and one at a time: while a card is being
// drawn, a request for another gets the generic card, cacheable for a
// minute, without waiting and without drawing (a flood of distinct cards
// cannot take more than one core from the searches).
func TestCardsDrawnOnceOneAtATime(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	first, _ := previewOf(t, h, "/stores/ny/new-york/cafe-zoes-best-2")
	other, _ := previewOf(t, h, "/stores/nj/hoboken/hoboken-vapes-4")
	path := func(u string) string { return strings.TrimPrefix(u, "https://locator.example") }

	fetchCard(t, h, first)
	fetchCard(t, h, first)
	if n := p.cards.draws.Load(); n != 1 {
		t.Fatalf("two requests for one card drew %d", n)
	}
	version := strings.SplitN(other, "?v=", 2)[1]
	if rec := get(t, h, path(other), "If-None-Match", `"`+version+`"`); rec.Code != http.StatusNotModified || p.cards.draws.Load() != 1 {
		t.Fatalf("a revalidation of a card not drawn yet: %d, %d drawn", rec.Code, p.cards.draws.Load())
	}

	before := p.cards.draws.Load()
	p.cards.sem <- struct{}{} // another request is drawing
	res := fetchCard(t, h, other)
	if res.Header.Get("Cache-Control") != "public, max-age=60" || res.Header.Get("ETag") != "" || p.cards.draws.Load() != before {
		t.Fatalf("while the drawer is busy: Cache-Control %q, ETag %q, %d drawn", res.Header.Get("Cache-Control"), res.Header.Get("ETag"), p.cards.draws.Load()-before)
	}
	<-p.cards.sem
	res = fetchCard(t, h, other)
	if res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || p.cards.draws.Load() != before+1 {
		t.Fatalf("once the drawer is free: Cache-Control %q, %d drawn", res.Header.Get("Cache-Control"), p.cards.draws.Load()-before)
	}
}

package storepages

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/search"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

type sitemapIndex struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

type urlset struct {
	URLs []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	} `xml:"url"`
}

// readSitemaps fetches the sitemap index and every child, returning each
// URL with how many times it appears and its lastmod.
func readSitemaps(t *testing.T, h http.Handler) (map[string]int, map[string]string) {
	t.Helper()
	rec := get(t, h, "/sitemap.xml")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
		t.Fatalf("sitemap index: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var idx sitemapIndex
	if err := xml.Unmarshal(rec.Body.Bytes(), &idx); err != nil {
		t.Fatal(err)
	}
	seen, lastmod := map[string]int{}, map[string]string{}
	for _, sm := range idx.Sitemaps {
		u, err := url.Parse(sm.Loc)
		if err != nil || u.Host != "locator.example" || u.Scheme != "https" {
			t.Fatalf("child sitemap %q", sm.Loc)
		}
		rec := get(t, h, u.Path)
		var set urlset
		if rec.Code != http.StatusOK || xml.Unmarshal(rec.Body.Bytes(), &set) != nil {
			t.Fatalf("%s: %d %s", u.Path, rec.Code, rec.Body)
		}
		if len(set.URLs) > SitemapSize {
			t.Fatalf("%s holds %d URLs", u.Path, len(set.URLs))
		}
		for _, x := range set.URLs {
			seen[x.Loc]++
			lastmod[x.Loc] = x.LastMod
		}
	}
	return seen, lastmod
}

// Not parallel: it shrinks the package's SitemapSize, which the parallel
// tests read (TestUnknownPathsAreThe404Page saw a /sitemaps/stores-2.xml).
func TestSitemapsHoldEveryPublishedStoreOnce(t *testing.T) {
	old := SitemapSize
	SitemapSize = 3 // several children of each kind
	t.Cleanup(func() { SitemapSize = old })
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		var all []*stores.Store
		for i := range 11 {
			s := &stores.Store{StoreID: fmt.Sprint("s", i), Name: fmt.Sprint("Shop ", i), City: []string{"New York", "Albany", "Newark"}[i%3],
				State: []string{"NY", "NY", "NJ"}[i%3], Latitude: 40 + float64(i)/100, Longitude: -74, TimeZone: "America/New_York"}
			if i%4 == 1 {
				s.Status = stores.Hidden
			}
			// Names whose slugs need folding, escaping in the documents,
			// and the fallback of a name without a Latin letter.
			switch i {
			case 2:
				s.Name = "Café & Zoë's <Vapes>"
			case 3:
				s.Name = "東京"
			}
			if i == 10 {
				s.Status = stores.Pending
			}
			all = append(all, s)
		}
		dbtest.Must(t, repo.SaveAll(ctx, all), "save")
		ix := search.NewIndex()
		sy := search.NewSyncer(repo, ix, search.SnapshotAuto, quiet)
		dbtest.Must(t, sy.Load(ctx), "load")
		p := New(ix, Options{PublicURL: "https://locator.example", Log: quiet})
		h := p.handler()
		seen, lastmod := readSitemaps(t, h)
		published := 0
		for _, s := range all {
			loc := "https://locator.example" + Path(s.State, s.City, s.Name, s.ID)
			if s.Status != stores.Published {
				if seen[loc] != 0 {
					t.Errorf("%s store %d is in the sitemap", s.Status, s.ID)
				}
				continue
			}
			published++
			if seen[loc] != 1 {
				t.Errorf("store %d appears %d times", s.ID, seen[loc])
			}
			if lm, err := time.Parse(time.RFC3339, lastmod[loc]); err != nil || lm.Unix() != s.UpdatedAt.Unix() {
				t.Errorf("store %d lastmod %q, updated %v", s.ID, lastmod[loc], s.UpdatedAt)
			}
			// Each listed page answers 200.
			if rec := get(t, h, Path(s.State, s.City, s.Name, s.ID)); rec.Code != http.StatusOK {
				t.Errorf("store %d page: %d", s.ID, rec.Code)
			}
		}
		for _, dir := range []string{"/stores", "/stores/ny", "/stores/nj", "/stores/ny/new-york", "/stores/ny/albany", "/stores/nj/newark"} {
			if seen["https://locator.example"+dir] != 1 {
				t.Errorf("directory page %s appears %d times", dir, seen["https://locator.example"+dir])
			}
		}
		if len(seen) != published+6 {
			t.Errorf("%d URLs for %d stores and 6 directory pages", len(seen), published)
		}
		// Gzipped on request.
		if rec := get(t, h, "/sitemaps/stores-1.xml", "Accept-Encoding", "gzip"); rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("no gzip")
		}
		rec := get(t, h, "/robots.txt")
		for _, want := range []string{"Disallow: /api/\n", "Disallow: /admin\n", "Disallow: /business\n", "Disallow: /profile\n", "Sitemap: https://locator.example/sitemap.xml\n"} {
			if !strings.Contains(rec.Body.String(), want) {
				t.Errorf("robots.txt lacks %q:\n%s", want, rec.Body)
			}
		}
	})
}

// Two replicas share one database: a store renamed, moved, hidden or
// published on one shows on the other's pages after its next sync.
func TestPagesFollowChangesOnEveryReplica(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		a := &stores.Store{StoreID: "a", Name: "Old Name", City: "New York", State: "NY", Latitude: 40.71, Longitude: -74, TimeZone: "America/New_York"}
		b := &stores.Store{StoreID: "b", Name: "Second", City: "New York", State: "NY", Latitude: 40.72, Longitude: -74, TimeZone: "America/New_York"}
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{a, b}), "save")
		replica := func() (http.Handler, *search.Syncer) {
			ix := search.NewIndex()
			sy := search.NewSyncer(repo, ix, search.SnapshotAuto, quiet)
			dbtest.Must(t, sy.Load(ctx), "load")
			return New(ix, Options{PublicURL: "https://locator.example", Log: quiet}).handler(), sy
		}
		_, _ = replica() // replica one: its writes go through the repository below
		two, sy2 := replica()
		oldPath := Path("NY", "New York", "Old Name", a.ID)
		if rec := get(t, two, oldPath); rec.Code != http.StatusOK {
			t.Fatalf("before: %d", rec.Code)
		}
		etag := get(t, two, oldPath).Header().Get("ETag")

		// Replica one's write (through the repository, as its handlers would).
		a.Name, a.City, a.State = "New Name", "Newark", "NJ"
		dbtest.Must(t, repo.Update(ctx, a), "rename and move")
		dbtest.Must(t, repo.SetStatus(ctx, b.ID, stores.Hidden), "hide")
		c := &stores.Store{StoreID: "c", Name: "Brand New", City: "Albany", State: "NY", Latitude: 42.65, Longitude: -73.75, TimeZone: "America/New_York"}
		dbtest.Must(t, repo.Create(ctx, c), "publish")

		dbtest.Must(t, sy2.Poll(ctx), "sync replica two")
		newPath := Path("NJ", "Newark", "New Name", a.ID)
		if rec := get(t, two, oldPath); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != newPath {
			t.Errorf("old path: %d to %q", rec.Code, rec.Header().Get("Location"))
		}
		rec := get(t, two, newPath, "If-None-Match", etag)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<h1>New Name</h1>") {
			t.Errorf("new path: %d", rec.Code)
		}
		if rec := get(t, two, Path("NY", "New York", "Second", b.ID)); rec.Code != http.StatusNotFound {
			t.Errorf("hidden store: %d", rec.Code)
		}
		if rec := get(t, two, Path("NY", "Albany", "Brand New", c.ID)); rec.Code != http.StatusOK {
			t.Errorf("new store: %d", rec.Code)
		}
		if rec := get(t, two, "/stores/ny/new-york"); rec.Code != http.StatusNotFound {
			t.Errorf("emptied city: %d", rec.Code)
		}
		seen, _ := readSitemaps(t, two)
		if seen["https://locator.example"+newPath] != 1 || seen["https://locator.example"+oldPath] != 0 {
			t.Errorf("sitemap after sync: %v", seen)
		}
	})
}

// A permanently closed store leaves the index (search never lists it) but
// keeps its page, read from the database; a hidden one does not.
func TestPermanentlyClosedStoreKeepsItsPage(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		mk := func(id, name string, lat float64) *stores.Store {
			return &stores.Store{StoreID: id, Name: name, City: "New York", State: "NY", Latitude: lat, Longitude: -74, TimeZone: "America/New_York",
				WorkingHours: week("09:00", "21:00", weekdays...)}
		}
		open, closed, hidden, later := mk("o", "Still Open", 40.71), mk("c", "Gone Shop", 40.72), mk("h", "Hidden Gone", 40.73), mk("l", "Closes Later", 40.74)
		closed.PermanentlyClosed = true
		hidden.PermanentlyClosed, hidden.Status = true, stores.Hidden
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{open, closed, hidden, later}), "save")
		ix := search.NewIndex()
		sy := search.NewSyncer(repo, ix, search.SnapshotAuto, quiet)
		dbtest.Must(t, sy.Load(ctx), "load")
		h := New(ix, Options{PublicURL: "https://locator.example", Log: quiet, Stores: repo, Now: func() time.Time { return fixedNow }}).handler()
		if _, ok := ix.Get(closed.ID); ok {
			t.Fatal("the index holds a permanently closed store")
		}
		path := Path("NY", "New York", "Gone Shop", closed.ID)
		rec := get(t, h, path)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, "<span>Permanently closed</span>") ||
			!strings.Contains(body, "This store is permanently closed.") {
			t.Fatalf("closed store page: %d\n%s", rec.Code, body)
		}
		for _, not := range []string{"Open in the locator", "Opened", "openingHoursSpecification", "<table>"} {
			if strings.Contains(body, not) {
				t.Errorf("closed store page has %q", not)
			}
		}
		if !strings.Contains(body, `href="`+Path("NY", "New York", "Still Open", open.ID)+`"`) {
			t.Errorf("closed store page does not link its open neighbour")
		}
		if rec := get(t, h, "/stores/ny/new-york/old-name-"+fmt.Sprint(closed.ID)); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != path {
			t.Errorf("old slug: %d to %q", rec.Code, rec.Header().Get("Location"))
		}
		for _, p := range []string{Path("NY", "New York", "Hidden Gone", hidden.ID), "/stores/ny/new-york/x-999999"} {
			if rec := get(t, h, p); rec.Code != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", p, rec.Code)
			}
		}
		seen, _ := readSitemaps(t, h)
		if seen["https://locator.example"+path] != 0 {
			t.Error("a permanently closed store is in the sitemap")
		}
		// A store closed for good after the replica loaded: its page says
		// so after the next sync.
		laterPath := Path("NY", "New York", "Closes Later", later.ID)
		if rec := get(t, h, laterPath); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Open in the locator") {
			t.Fatalf("before closing: %d", rec.Code)
		}
		later.PermanentlyClosed = true
		dbtest.Must(t, repo.Update(ctx, later), "close for good")
		dbtest.Must(t, sy.Poll(ctx), "sync")
		if rec := get(t, h, laterPath); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Permanently closed") {
			t.Errorf("after closing: %d", rec.Code)
		}
	})
}

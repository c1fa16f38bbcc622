package storepages

import (
	"bytes"
	"context"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
)

// storePage is what the store template shows.
type storePage struct {
	Name, Address, Phone string
	Image                template.URL
	PhoneHref            template.URL
	Directions, Locator  string
	ReviewsLink          string
	Rating               string
	ReviewCount          int64
	Services             []string // each offered service's line now, in the panel's words
	NotOffered           string   // "Curbside pickup, Online orders": the services it does not offer
	Status               status
	HoursNote            string
	HoursRows            []hoursRow
	ServiceWeeks         []serviceWeek // the offered services with hours of their own
	Special              []specialRow
	Closure              string // an upcoming or current temporary closure, in words
	Verified             string // "Verified Nov 3, 2026" or "Not verified recently"
	Licence              *licenceView
	Rules                []ruleLine // the rulebook's lines (rules.go)
	Srcset               string     // the slots of an uploaded photo, or ""
	Report               *reportForm
	Ping                 string // the ping URL of the links, ending in "/" (Options.PingPath)
	Zone                 string
	Nearby               []nearbyStore
	Products             []productGroup // what it carries, by kind (offers.go)
}

type hoursRow struct {
	Day, Text string
	Today     bool
}

type nearbyStore struct {
	Name, Path, Where, Miles string
}

// nearbyCount is how many nearest stores a page links to.
const nearbyCount = 5

// storeID reads the id at the end of a store's last path segment
// ("manhattan-vape-shop-3613", or just "3613").
func storeID(seg string) (int64, bool) {
	i := strings.LastIndexByte(seg, '-')
	id, err := strconv.ParseInt(seg[i+1:], 10, 64)
	if err != nil || id < 1 || seg[i+1] == '+' {
		return 0, false
	}
	return id, true
}

func (p *Pages) store(w http.ResponseWriter, r *http.Request, seg string) {
	id, ok := storeID(seg)
	if !ok {
		p.notFound(w, r)
		return
	}
	gen := p.ix.AnswerGen() // before the store (see pageCache.get); moves with its stock too
	// A page read from the database (a permanently closed store) is not
	// cached: the index generation does not cover it.
	v, sd, cache, ok := p.lookup(w, r, id, "store page")
	if !ok {
		return
	}
	canonical := v.path()
	if r.URL.Path != canonical {
		redirect(w, canonical)
		return
	}
	if p.opt.Viewed != nil {
		p.opt.Viewed(r, id)
	}
	base := p.base(r)
	now := p.opt.Now()
	st := storeStatus(sd.Schedule, sd.Zone, now, v.UpdatedAt)
	verified, verifiedSince := verifiedLabel(v.LastVerifiedAt, now, sd.Zone)
	services, notOffered := serviceLines(v, sd.Schedule, now.In(sd.Zone))
	st.Since = maxTime(st.Since, verifiedSince)
	lic := licenceOf(v.LicenceRecord, now.UTC().Format(time.DateOnly))
	ruled := ruleLines(sd, now)
	key := pageKey{id: v.ID, base: base, text: st.Text() + "\x00" + verified + "\x00" + lic.key() + "\x00" + rulesKey(ruled) + "\x00" + strings.Join(services, "\x00"), since: st.Since.Unix(), open: st.Open}
	if c, ok := p.cache.get(gen, key); ok && cache && (c.until.IsZero() || now.Before(c.until)) {
		serve(w, r, http.StatusOK, c.body, c.etag, c.modified)
		return
	}
	sp := &storePage{
		Name: v.Name, Image: template.URL(defaultImage), Address: v.addressLine(), //nolint:gosec // our own data: URL
		Directions: directionsLink(v), Locator: locatorLink(v),
		ReviewsLink: "/reviews?store=" + strconv.FormatInt(v.ID, 10),
		Rating:      strconv.FormatFloat(v.AverageRating, 'f', 1, 64), ReviewCount: v.ReviewCount,
		Services: services, NotOffered: notOffered,
		Status: st, HoursNote: v.Hours, Zone: sd.Zone.String(), Verified: verified, Licence: lic, Rules: ruled,
	}
	image := ""
	if v.Image != nil && safeImage(*v.Image) {
		image = *v.Image
		sp.Image = template.URL(image) //nolint:gosec // http(s) or a path on this site, checked by safeImage
		sp.Srcset = photoSrcset(image)
	}
	if p.opt.PingPath != "" {
		sp.Ping = base + p.opt.PingPath + strconv.FormatInt(v.ID, 10) + "/" // absolute: HTML allows only http(s) URLs in ping
	}
	if p.opt.Report != nil {
		sp.Report = &reportForm{Action: canonical + "/report", Reasons: reportReasons}
	}
	if v.PhoneNumber != nil && *v.PhoneNumber != "" {
		sp.Phone, sp.PhoneHref = stores.PhoneText(*v.PhoneNumber), phoneHref(*v.PhoneNumber)
	}
	local := now.In(sd.Zone)
	special := sd.Schedule.SpecialDates(local, specialDays)
	sp.Special = specialRows(special, local.Format("2006-01-02"))
	sp.Closure = schedule.ClosureLine(sd.Schedule.TemporaryClosure(), local.Format("2006-01-02"))
	if st.Permanent {
		sp.Special, sp.Closure, sp.Locator, sp.HoursNote, sp.Services, sp.NotOffered = nil, "", "", "", nil, ""
	}
	if spans := spansOf(v.WorkingHours); len(spans) > 0 && !st.Permanent {
		sp.HoursRows = weekRows(v.WorkingHours, now.In(sd.Zone).Weekday())
	}
	if !st.Permanent {
		sp.ServiceWeeks = serviceWeeks(v, sd.Schedule, now.In(sd.Zone).Weekday())
	}
	modified := maxTime(v.UpdatedAt, st.Since)
	var offers []ldOffer
	var until time.Time // when a product line's "updated ..." next changes
	if cache {          // a store the index holds: its stock is there too
		var since time.Time
		sp.Products, offers, since, until = storeProducts(p.ix, v.ID, base, now)
		modified = maxTime(modified, since)
	}
	// The neighbours' few fields are read straight from their documents
	// (search.DocString): decoding five whole documents cost more than
	// the rest of the page.
	hits := p.ix.Nearby(v.ID, nearbyCount)
	if !cache {
		hits = p.ix.NearPoint(v.Latitude, v.Longitude, nearbyCount)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	miles := 0
	p.ix.Docs(ids, func(nd search.StoreDoc) {
		for hits[miles].ID != nd.ID {
			miles++
		}
		n := liteOf(nd)
		where := n.City
		if n.State != "" {
			where = strings.TrimPrefix(where+", "+n.State, ", ")
		}
		sp.Nearby = append(sp.Nearby, nearbyStore{Name: n.Name, Path: n.path(), Where: where,
			Miles: milesText(hits[miles].Miles)})
		modified = maxTime(modified, nd.UpdatedAt)
	})

	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}, {Name: stateName(v.State), Path: "/stores/" + v.stateSlug()},
		{Name: cityName(v.City), Path: "/stores/" + v.stateSlug() + "/" + v.citySlug()}, {Name: v.Name, Path: canonical}}
	ld := ldStore{Context: "https://schema.org", Type: "Store", ID: base + canonical + "#store", Name: v.Name, URL: base + canonical,
		Image:     absolute(base, image),
		Telephone: telephoneLD(v.PhoneNumber), // as written: international where the owner wrote it so
		Address: ldAddress{Type: "PostalAddress", Street: v.Address, Locality: v.City, Region: v.State,
			Postal: v.PostalCode, Country: v.Country.Code},
		Geo:    ldGeo{Type: "GeoCoordinates", Latitude: v.Latitude, Longitude: v.Longitude},
		Hours:  hoursLD(v.WorkingHours),
		HasMap: directionsLink(v),
	}
	ld.Credential = credentialLD(v.LicenceRecord, now.UTC().Format(time.DateOnly))
	ld.Offers = offers
	if st.Permanent {
		ld.Hours = nil
	} else {
		ld.Special = specialLD(special, sd.Schedule.TemporaryClosure(), local.Format("2006-01-02"))
		ld.Departments = departmentsLD(ld, sp.ServiceWeeks)
	}
	if v.ReviewCount > 0 {
		ld.Rating = &ldRating{Type: "AggregateRating", RatingValue: v.AverageRating, ReviewCount: v.ReviewCount, BestRating: 5, WorstRating: 1}
		if p.opt.LatestReviews != nil {
			// The page is cached per index generation; every change to a
			// published review moves it (stores.Writer.SetRating).
			latest, err := p.opt.LatestReviews(r.Context(), v.ID)
			if err != nil {
				p.opt.Log.WarnContext(r.Context(), "store page without its latest reviews", "store", v.ID, "err", err)
			}
			ld.Reviews = reviewsLD(latest)
		}
	}
	where := strings.TrimPrefix(strings.TrimSuffix(v.City+", "+v.State, ", "), ", ")
	desc := v.Name
	if where != "" {
		desc += " in " + where
	}
	desc += ": address, phone, opening hours, directions"
	if v.ReviewCount > 0 {
		desc += " and reviews (rated " + sp.Rating + " of 5)"
	}
	desc += "."
	if st.Permanent {
		desc = "Permanently closed. " + desc
	}
	title := v.Name
	if where != "" {
		title += ", " + where
	}
	pg := &page{
		Title: title + " · Store Locator", Description: desc, Canonical: base + canonical, OGType: "business.business",
		Crumbs: crumbs, Store: sp,
		LD: []jsonLDBlock{jsonLD(ld), breadcrumbLD(base, crumbs)},
	}
	pg.preview(base, "/"+strconv.FormatInt(v.ID, 10), v.card(), image, "Photo of "+v.Name)
	var buf bytes.Buffer
	if !p.execute(&buf, r, "store", pg) {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	c := &cachedPage{body: buf.Bytes(), etag: etagOf(buf.Bytes()), modified: modified, until: until}
	if cache {
		p.cache.put(gen, key, c)
	}
	serve(w, r, http.StatusOK, c.body, c.etag, c.modified)
}

// lookup finds published store id for a page: in the index, or (not
// searchable, but a permanently closed store still has its page) in the
// database, which indexed says. It answers the 404 page itself when there
// is no such store (ok false).
func (p *Pages) lookup(w http.ResponseWriter, r *http.Request, id int64, page string) (v *storeView, sd search.StoreDoc, indexed, ok bool) {
	sd, indexed = p.ix.Get(id)
	if !indexed {
		// Such pages are rare and read the database.
		if sd, ok = p.closedStore(r.Context(), id); !ok {
			p.notFound(w, r)
			return nil, sd, false, false
		}
	}
	v, err := decodeStore(sd)
	if err != nil {
		p.opt.Log.Error(page, "err", err)
		p.notFound(w, r)
		return nil, sd, indexed, false
	}
	return v, sd, indexed, true
}

// closedStore reads a store the index does not hold from the database:
// found only when it is published and permanently closed (a hidden,
// pending or unknown store is a 404, like one the index lacks).
func (p *Pages) closedStore(ctx context.Context, id int64) (search.StoreDoc, bool) {
	if p.opt.Stores == nil {
		return search.StoreDoc{}, false
	}
	s, err := p.opt.Stores.Get(ctx, id)
	if err != nil {
		if apperr.CodeOf(err) != apperr.NotFound {
			p.opt.Log.Error("store page: read a closed store", "id", id, "err", err)
		}
		return search.StoreDoc{}, false
	}
	if s.Status != stores.Published || !s.PermanentlyClosed {
		return search.StoreDoc{}, false
	}
	doc, err := stores.RenderDoc(s)
	if err != nil {
		p.opt.Log.Error("store page: render a closed store", "id", id, "err", err)
		return search.StoreDoc{}, false
	}
	return search.StoreDoc{ID: s.ID, Doc: doc, UpdatedAt: s.UpdatedAt.UTC().Truncate(time.Second), Latitude: s.Latitude, Longitude: s.Longitude,
		Zone: stores.Zone(s.TimeZone), Schedule: stores.WithExceptions(s)}, true
}

// safeImage accepts what stores.Store.Validate lets through for a picture:
// an http(s) URL or a path on this site (not a protocol-relative one).
func safeImage(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") ||
		(strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"))
}

// absolute makes a store's image URL absolute ("/demo/store-1.svg" is on
// this site).
func absolute(base, u string) string {
	if strings.HasPrefix(u, "/") {
		return base + u
	}
	return u
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// verifiedRecent is how long a confirmation of a store's details counts as
// recent (docs/claims.md; the web app's web/src/lib/verified.ts).
const verifiedRecent = 180 * 24 * time.Hour

// verifiedLabel is the store's "last verified" line at now and the instant
// it last changed (zero: it has not, since the store's own change): past
// 180 days it turns into "Not verified recently". The date is the
// confirmation's date where the store is (zone loc), as the app shows it:
// a confirmation at 7 PM in New York on Dec 1 reads "Dec 1", not the UTC
// "Dec 2" (issue #39, m27).
func verifiedLabel(lastVerified *string, now time.Time, loc *time.Location) (string, time.Time) {
	const stale = "Not verified recently"
	if lastVerified == nil {
		return stale, time.Time{}
	}
	at, err := time.Parse(time.RFC3339, *lastVerified)
	if err != nil {
		return stale, time.Time{}
	}
	if until := at.Add(verifiedRecent); now.After(until) {
		return stale, until
	}
	return "Verified " + at.In(loc).Format("Jan 2, 2006"), time.Time{}
}

// photoWidths are the slots of an uploaded photo (internal/photos.Widths).
var photoWidths = []string{"320", "640", "1280"}

// photoSrcset gives an uploaded photo (/photos/{id}/{width}.jpg, the
// store's image naming one slot) the srcset of its three slots, as the web
// app does (web/src/lib/photos.ts); any other image has none.
func photoSrcset(image string) string {
	rest, ok := strings.CutPrefix(image, "/photos/")
	if !ok {
		return ""
	}
	id, file, ok := strings.Cut(rest, "/")
	if !ok || id == "" || strings.Trim(id, "0123456789") != "" || !slices.Contains(photoWidths, strings.TrimSuffix(file, ".jpg")) ||
		!strings.HasSuffix(file, ".jpg") {
		return ""
	}
	parts := make([]string, len(photoWidths))
	for i, w := range photoWidths {
		parts[i] = "/photos/" + id + "/" + w + ".jpg " + w + "w"
	}
	return strings.Join(parts, ", ")
}

// StoreURL is the absolute URL of store id's page when the index holds
// it: the canonical address the app shell names for a URL about a store
// (/?store=N, /reviews?store=N), so crawlers see one address per store.
func (p *Pages) StoreURL(r *http.Request, id int64) (string, bool) {
	sd, ok := p.ix.Get(id)
	if !ok {
		return "", false
	}
	return p.base(r) + liteOf(sd).path(), true
}

// milesText is a neighbour's distance as the app writes it
// (web/src/lib/distance.ts): one decimal under 10 miles, none above, and
// "< 0.1 mi" for a store next door rather than "0.0 mi" (issue #39, m20).
func milesText(miles float64) string {
	switch {
	case miles < 0.1:
		return "< 0.1"
	case miles < 10:
		return strconv.FormatFloat(miles, 'f', 1, 64)
	}
	return strconv.FormatFloat(miles, 'f', 0, 64)
}

func telephoneLD(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

package storepages

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"locator/internal/search"
	"locator/internal/stores"
)

// storePage is what the store template shows.
type storePage struct {
	Name, Address, Phone             string
	Image                            template.URL
	PhoneHref                        template.URL
	Directions, Locator, OnlineStore string
	ReviewsLink                      string
	Rating                           string
	ReviewCount                      int64
	Delivery, OrderOnline, Curbside  bool
	Status                           status
	HoursNote                        string
	HoursRows                        []hoursRow
	Zone                             string
	Nearby                           []nearbyStore
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
	gen := p.ix.Gen() // before the store: see pageCache.get
	sd, ok := p.ix.Get(id)
	if !ok {
		p.notFound(w, r)
		return
	}
	v, err := decodeStore(sd)
	if err != nil {
		p.opt.Log.Error("store page", "err", err)
		p.notFound(w, r)
		return
	}
	canonical := v.path()
	if r.URL.Path != canonical {
		redirect(w, canonical)
		return
	}
	base := p.base(r)
	now := p.opt.Now()
	st := storeStatus(v, sd.Schedule, sd.Zone, now)
	key := pageKey{id: v.ID, base: base, text: st.Text, since: st.Since.Unix(), open: st.Open}
	if c, ok := p.cache.get(gen, key); ok {
		serve(w, r, http.StatusOK, c.body, c.etag, c.modified)
		return
	}
	sp := &storePage{
		Name: v.Name, Image: template.URL(defaultImage), Address: v.addressLine(), //nolint:gosec // our own data: URL
		Directions: directionsLink(v), Locator: locatorLink(v),
		ReviewsLink: "/reviews?store=" + strconv.FormatInt(v.ID, 10),
		Rating:      strconv.FormatFloat(v.Rating, 'f', 1, 64), ReviewCount: v.ReviewCount,
		Delivery: v.Delivery, OrderOnline: v.OrderOnline, Curbside: v.Curbside,
		Status: st, HoursNote: v.Hours, Zone: sd.Zone.String(),
	}
	image := ""
	if v.Image != nil && safeImage(*v.Image) {
		image = *v.Image
		sp.Image = template.URL(image) //nolint:gosec // http(s) or a path on this site, checked by safeImage
	}
	if v.PhoneNumber != nil && *v.PhoneNumber != "" {
		sp.Phone, sp.PhoneHref = *v.PhoneNumber, phoneHref(*v.PhoneNumber)
	}
	if p.opt.StorefrontURL != "" && v.StoreID != "" {
		sp.OnlineStore = p.opt.StorefrontURL + "/store/" + url.PathEscape(v.StoreID)
	}
	if spans := spansOf(v.WorkingHours); len(spans) > 0 {
		today := now.In(sd.Zone).Weekday()
		for d := time.Sunday; d <= time.Saturday; d++ {
			var texts []string
			for _, h := range v.WorkingHours {
				if wd, ok := stores.ParseWeekday(h.WeekDay); ok && wd == d && h.StartTime != nil && h.EndTime != nil {
					texts = append(texts, *h.StartTime+" - "+*h.EndTime)
				}
			}
			text := "Closed"
			if len(texts) > 0 {
				text = strings.Join(texts, ", ")
			}
			sp.HoursRows = append(sp.HoursRows, hoursRow{Day: d.String(), Text: text, Today: d == today})
		}
	}
	modified := maxTime(v.UpdatedAt, st.Since)
	// The neighbours' few fields are read straight from their documents
	// (search.DocString): decoding five whole documents cost more than
	// the rest of the page.
	hits := p.ix.Nearby(v.ID, nearbyCount)
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
			Miles: strconv.FormatFloat(float64(int(hits[miles].Miles*10+0.5))/10, 'f', 1, 64)})
		modified = maxTime(modified, nd.UpdatedAt)
	})

	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}, {Name: stateName(v.State), Path: "/stores/" + v.stateSlug()},
		{Name: cityName(v.City), Path: "/stores/" + v.stateSlug() + "/" + v.citySlug()}, {Name: v.Name, Path: canonical}}
	ld := ldStore{Context: "https://schema.org", Type: "Store", ID: base + canonical + "#store", Name: v.Name, URL: base + canonical,
		Image:     absolute(base, image),
		Telephone: sp.Phone,
		Address: ldAddress{Type: "PostalAddress", Street: v.Address, Locality: v.City, Region: v.State,
			Postal: v.PostalCode, Country: v.Country.Code},
		Geo:    ldGeo{Type: "GeoCoordinates", Latitude: v.Latitude, Longitude: v.Longitude},
		Hours:  hoursLD(v.WorkingHours),
		HasMap: directionsLink(v),
	}
	if permanentlyClosed(v) {
		ld.Hours = nil
	}
	if v.ReviewCount > 0 {
		ld.Rating = &ldRating{Type: "AggregateRating", RatingValue: v.Rating, ReviewCount: v.ReviewCount, BestRating: 5, WorstRating: 1}
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
	title := v.Name
	if where != "" {
		title += ", " + where
	}
	pg := &page{
		Title: title + " · Store Locator", Description: desc, Canonical: base + canonical, OGType: "business.business",
		Image: absolute(base, image), Crumbs: crumbs, Store: sp,
		LD: []jsonLDBlock{jsonLD(ld), breadcrumbLD(base, crumbs)},
	}
	var buf bytes.Buffer
	if !p.execute(&buf, r, "store", pg) {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	c := &cachedPage{body: buf.Bytes(), etag: etagOf(buf.Bytes()), modified: modified}
	p.cache.put(gen, key, c)
	serve(w, r, http.StatusOK, c.body, c.etag, c.modified)
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

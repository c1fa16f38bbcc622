package storepages

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"locator/internal/places"
	"locator/internal/search"
	"locator/internal/slug"
	"locator/internal/stores"
)

// storeView is a store document (stores.RenderDoc) as the pages read it:
// the stored shape itself, so a field renamed there is renamed here.
type storeView struct {
	stores.Doc
	UpdatedAt time.Time
}

func decodeStore(sd search.StoreDoc) (*storeView, error) {
	var v storeView
	if err := json.Unmarshal(sd.Doc, &v); err != nil {
		return nil, fmt.Errorf("store %d: document: %w", sd.ID, err)
	}
	v.ID, v.UpdatedAt = sd.ID, sd.UpdatedAt
	return &v, nil
}

// liteOf reads the few fields lists of stores show straight from a
// document, without decoding it whole.
func liteOf(sd search.StoreDoc) *storeView {
	return &storeView{Doc: stores.Doc{ID: sd.ID, Name: search.DocString(sd.Doc, "name"), State: search.DocString(sd.Doc, "state"),
		City: search.DocString(sd.Doc, "city"), Address: search.DocString(sd.Doc, "address"),
		PostalCode: search.DocString(sd.Doc, "postal_code")}, UpdatedAt: sd.UpdatedAt}
}

// Path is the store page's canonical path:
// /stores/{state}/{city}/{name}-{id}, every part a slug (package slug),
// "other" for an empty state or city, "store" for a name without a slug.
func Path(state, city, name string, id int64) string {
	return "/stores/" + slug.Or(state, search.OtherSlug) + "/" + slug.Or(city, search.OtherSlug) + "/" +
		slug.Or(name, storeSlug) + "-" + strconv.FormatInt(id, 10)
}

// storeSlug names a store whose name has no slug.
const storeSlug = "store"

func (v *storeView) path() string { return Path(v.State, v.City, v.Name, v.ID) }

func (v *storeView) stateSlug() string { return slug.Or(v.State, search.OtherSlug) }
func (v *storeView) citySlug() string  { return slug.Or(v.City, search.OtherSlug) }

// phoneHref is the tel: link of a phone number: its digits and a leading +,
// as the web app writes it.
func phoneHref(p string) template.URL {
	var b strings.Builder
	for i, r := range p {
		if r >= '0' && r <= '9' || (r == '+' && i == 0) {
			b.WriteRune(r)
		}
	}
	return template.URL("tel:" + b.String()) //nolint:gosec // digits and a plus only
}

// locatorLink is the web app's deep link to the store (the app's
// storeLink in web/src/features/locator/share.ts): the locator centred on
// it with its panel open.
func locatorLink(v *storeView) string {
	q := url.Values{}
	if v.City != "" {
		q.Set("place", v.City)
	}
	round := func(f float64) string { return strconv.FormatFloat(math.Round(f*1e5)/1e5, 'f', -1, 64) }
	q.Set("lat", round(v.Latitude))
	q.Set("lon", round(v.Longitude))
	q.Set("store", strconv.FormatInt(v.ID, 10))
	// url.Values.Encode sorts the keys; the app reads them in any order.
	return "/?" + q.Encode()
}

// directionsLink is the platform maps link the app builds for everyone
// but Apple devices (web/src/features/locator/directions.ts): the page is
// the same for every visitor, so it uses the universal Google Maps link,
// which opens the maps app where one is installed.
func directionsLink(v *storeView) string {
	dest := strconv.FormatFloat(v.Latitude, 'f', -1, 64) + "," + strconv.FormatFloat(v.Longitude, 'f', -1, 64)
	return "https://www.google.com/maps/dir/?api=1&destination=" + url.QueryEscape(dest)
}

// addressLine is the one-line postal address.
func (v *storeView) addressLine() string {
	parts := []string{}
	for _, p := range []string{v.Address, v.City, strings.TrimSpace(v.State + " " + v.PostalCode)} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// stateName is how pages name a state: US codes spelled out, anything
// else as the stores write it.
func stateName(s string) string {
	if n, ok := places.USStates[strings.ToUpper(strings.TrimSpace(s))]; ok {
		return n
	}
	if s == "" || s == search.OtherSlug {
		return "Other"
	}
	return s
}

func cityName(s string) string {
	if s == "" || s == search.OtherSlug {
		return "Other"
	}
	return s
}

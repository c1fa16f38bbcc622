package places

import (
	"strings"

	"locator/internal/places/fold"
)

// Fold returns the key under which names are compared (see package fold).
func Fold(s string) string { return fold.Fold(s) }

// normCountry upper-cases an ISO code, defaults to "US" and accepts the usual
// spellings of the United States found in store spreadsheets.
func normCountry(country string) string {
	c := strings.ToUpper(strings.TrimSpace(country))
	switch strings.ReplaceAll(c, ".", "") {
	case "", "US", "USA", "UNITED STATES", "UNITED STATES OF AMERICA":
		return "US"
	}
	return c
}

// resolveRegion turns a state given as code ("TX", "tx") or name ("Texas") into
// the admin1 code; "" means any region.
func (g *Gazetteer) resolveRegion(country, state string) (code string, ok bool) {
	state = strings.TrimSpace(state)
	if state == "" {
		return "", true
	}
	if up := strings.ToUpper(state); g.admin1[country+"."+up] != "" {
		return up, true
	}
	if code, ok := g.buildIndex().regionCodes[country+"."+Fold(state)]; ok {
		return code, true
	}
	if country != "US" {
		// Outside the US the data has region names in English only
		// ("Bavaria", not "Bayern"), so an unknown region is ignored rather
		// than failing the look-up. US town names repeat across states, so
		// there an unknown state fails.
		return "", true
	}
	return "", false
}

// FindCity finds a place by name (case- and accent-insensitive, alternate names
// such as "NYC" or "Munchen" included) in a country (ISO code, default "US")
// and optionally a state or region given by code ("TX") or name ("Texas").
// A match on a place's own name beats one on an alternate name; among equals
// the most populous wins. Places that no longer exist are never returned.
func (g *Gazetteer) FindCity(name, state, country string) (Place, bool) {
	key := canonical(Fold(name))
	if key == "" {
		return Place{}, false
	}
	x := g.buildIndex()
	country = normCountry(country)
	region, ok := g.resolveRegion(country, state)
	if !ok {
		return Place{}, false
	}
	best := -1
	bestAlt := true
	lo, eq, _ := x.rangeOf(key)
	for _, e := range x.entries[lo:eq] {
		if int(e.idx) >= len(g.places) {
			continue // a region
		}
		p := &g.places[e.idx]
		if p.Country != country || (region != "" && p.Admin1 != region) {
			continue
		}
		// Entries come in place order, so ties keep the first place.
		if best < 0 || (bestAlt && !e.alt) ||
			(bestAlt == e.alt && p.Population > g.places[best].Population) {
			best, bestAlt = int(e.idx), e.alt
		}
	}
	if best < 0 {
		return Place{}, false
	}
	return g.places[best], true
}

// Geocoding precisions reported by Geocode.
const (
	PrecisionPostalCode = "postal_code"
	PrecisionCity       = "city"
)

// Geocode locates an address from its postal code and city: a US ZIP code
// first (precision "postal_code"), else the city within the state and country
// (precision "city"). Country defaults to "US". ok is false when neither is
// known; street addresses are not resolved offline.
func (g *Gazetteer) Geocode(postalCode, city, state, country string) (lat, lon float64, precision string, ok bool) {
	country = normCountry(country)
	if country == "US" {
		if z, found := g.ZIP(postalCode); found {
			return z.Lat, z.Lon, PrecisionPostalCode, true
		}
	}
	if p, found := g.FindCity(city, state, country); found {
		return p.Lat, p.Lon, PrecisionCity, true
	}
	return 0, 0, "", false
}

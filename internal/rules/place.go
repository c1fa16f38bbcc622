package rules

import (
	"math"
	"strings"
	"sync"

	"locator/internal/places"
)

// StateCode is the USPS code of a US state written as its code or its name
// ("MA", "ma", "Massachusetts"); anything else comes back upper-cased.
func StateCode(s string) string {
	s = strings.TrimSpace(s)
	if c, ok := stateCodes[strings.ToLower(s)]; ok {
		return c
	}
	return strings.ToUpper(s)
}

var stateCodes = func() map[string]string {
	m := map[string]string{}
	for code, name := range map[string]string{
		"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
		"CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia", "FL": "Florida", "GA": "Georgia",
		"HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
		"KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts",
		"MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
		"NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico",
		"NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
		"OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
		"TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
		"WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico",
	} {
		m[strings.ToLower(code)] = code
		m[strings.ToLower(name)] = code
	}
	return m
}()

// MaxZIPKm is how far a position may lie from the nearest ZIP code's
// centre and still be placed in it; farther (at sea, outside the US) it
// is in no jurisdiction of the book.
const MaxZIPKm = 40

// Locator places positions: the nearest ZIP code centre of the embedded
// place data gives the state, the ZIP code (for city areas) and the postal
// place name. Safe for concurrent use.
type Locator struct {
	once sync.Once
	zips []places.ZIP
	g    *places.Gazetteer
}

// PlaceAt is the place of a position, and false outside every ZIP code.
func (l *Locator) PlaceAt(lat, lon float64) (Place, bool) {
	l.once.Do(func() {
		if g, err := places.Load(); err == nil {
			l.g, l.zips = g, g.ZIPs()
		}
	})
	// Equirectangular distance: exact enough to pick the nearest centre
	// within tens of kilometres, and no trigonometry per ZIP code.
	k := math.Cos(lat * math.Pi / 180)
	best, bestD := -1, math.Inf(1)
	for i := range l.zips {
		z := &l.zips[i]
		if z.State == "" {
			continue
		}
		dy, dx := z.Lat-lat, (z.Lon-lon)*k
		if d := dy*dy + dx*dx; d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 || math.Sqrt(bestD)*111.2 > MaxZIPKm {
		return Place{}, false
	}
	z := l.zips[best]
	return Place{Country: "US", State: z.State, City: z.Place, ZIP: z.Code}, true
}

// TimeZone is the time zone of the place nearest a position ("UTC" when
// the place data is missing): the date a rule is judged on is the place's.
func (l *Locator) TimeZone(lat, lon float64) string {
	l.PlaceAt(0, 0) // loads the data
	if l.g == nil {
		return "UTC"
	}
	if p, ok := l.g.Nearest(lat, lon); ok && p.TimeZone != "" {
		return p.TimeZone
	}
	return "UTC"
}

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
	for code, name := range places.USStates {
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
// place name; the nearest place gives the time zone. Both are found in a
// grid of one-degree cells (the cell and its neighbours, else a scan of
// everything). Safe for concurrent use.
type Locator struct {
	once   sync.Once
	zips   []places.ZIP
	places []places.Place
	zipAt  grid
	zoneAt grid
}

// grid lists the points of each one-degree cell.
type grid map[[2]int][]int32

func cellOf(lat, lon float64) [2]int { return [2]int{int(math.Floor(lat)), int(math.Floor(lon))} }

func (l *Locator) load() {
	l.once.Do(func() {
		g, err := places.Load()
		if err != nil {
			return // no data: no place, zone UTC (the embedded file is tested)
		}
		l.zips, l.places = g.ZIPs(), g.Places()
		l.zipAt, l.zoneAt = grid{}, grid{}
		for i, z := range l.zips {
			if z.State != "" {
				c := cellOf(z.Lat, z.Lon)
				l.zipAt[c] = append(l.zipAt[c], int32(i))
			}
		}
		for i, p := range l.places {
			if p.TimeZone != "" {
				c := cellOf(p.Lat, p.Lon)
				l.zoneAt[c] = append(l.zoneAt[c], int32(i))
			}
		}
	})
}

// nearest is the index of the point nearest (lat, lon) among the grid's
// cells around it, else among all n points (when keep says a point counts),
// with its distance in km. Equirectangular distance: exact enough at these
// ranges, and no trigonometry per point.
func nearest(g grid, n int, at func(i int) (float64, float64), keep func(i int) bool, lat, lon float64) (int, float64) {
	k := math.Cos(lat * math.Pi / 180)
	best, bestD := -1, math.Inf(1)
	try := func(i int) {
		plat, plon := at(i)
		dy, dx := plat-lat, (plon-lon)*k
		if d := dy*dy + dx*dx; d < bestD {
			best, bestD = i, d
		}
	}
	c := cellOf(lat, lon)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			for _, i := range g[[2]int{c[0] + dy, c[1] + dx}] {
				try(int(i))
			}
		}
	}
	// Anything outside the 3x3 cells lies at least a cell away: a degree of
	// latitude, k of a degree of longitude (scaled). A point found nearer is
	// the nearest; otherwise (sparse land, open sea) look at everything.
	if best < 0 || math.Sqrt(bestD) > k {
		for i := range n {
			if keep(i) {
				try(i)
			}
		}
	}
	if best < 0 {
		return -1, math.Inf(1)
	}
	return best, math.Sqrt(bestD) * 111.2
}

// PlaceAt is the place of a position, and false outside every ZIP code.
func (l *Locator) PlaceAt(lat, lon float64) (Place, bool) {
	l.load()
	i, km := nearest(l.zipAt, len(l.zips), func(i int) (float64, float64) { return l.zips[i].Lat, l.zips[i].Lon },
		func(i int) bool { return l.zips[i].State != "" }, lat, lon)
	if i < 0 || km > MaxZIPKm {
		return Place{}, false
	}
	z := l.zips[i]
	return Place{Country: "US", State: z.State, City: z.Place, ZIP: z.Code}, true
}

// TimeZone is the time zone of the place nearest a position ("UTC" without
// the place data): the date a rule is judged on is the place's.
func (l *Locator) TimeZone(lat, lon float64) string {
	l.load()
	i, _ := nearest(l.zoneAt, len(l.places), func(i int) (float64, float64) { return l.places[i].Lat, l.places[i].Lon },
		func(i int) bool { return l.places[i].TimeZone != "" }, lat, lon)
	if i < 0 {
		return "UTC"
	}
	return l.places[i].TimeZone
}

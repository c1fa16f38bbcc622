package places

import (
	"fmt"
	"math"
	"sync"
	"time"
	_ "time/tzdata" // zone names must load on hosts without /usr/share/zoneinfo

	"github.com/ringsaturn/tzf"
)

// TimeZones maps coordinates to IANA time zone names with tzf's default finder
// (time zone boundaries embedded in the binary, no network). Safe for
// concurrent use: the finder is read-only after construction.
//
// Measured on the 2-core development machine: NewTimeZones takes 1.5-2 s and
// keeps about 31 MB of heap, but allocates about 400 MB while decoding the
// boundaries (process memory peaks near 300 MB); ZoneAt takes about 4 us. Build
// one per process, when first needed, and share it (see BenchmarkNewTimeZones).
type TimeZones struct {
	finder tzf.F
	valid  map[string]bool // zone names that time.LoadLocation accepts

	gazOnce sync.Once
	gaz     *Gazetteer // for the rare point tzf cannot place
}

// NewTimeZones is the process's finder, built on first use and shared after: it is read-only
// once built, and building it costs about a second of CPU and tens of MB (the seed, claims and
// serve paths, and the tests that run them many times in one process, ask for it).
func NewTimeZones() (*TimeZones, error) { return sharedTimeZones() }

var sharedTimeZones = sync.OnceValues(buildTimeZones)

// buildTimeZones builds the finder.
func buildTimeZones() (*TimeZones, error) {
	f, err := tzf.NewDefaultFinder()
	if err != nil {
		return nil, fmt.Errorf("places: time zone finder: %w", err)
	}
	t := &TimeZones{finder: f, valid: map[string]bool{}}
	// Checked once here so ZoneAt never hands out a name the time package
	// would reject.
	for _, name := range f.TimezoneNames() {
		if _, err := time.LoadLocation(name); err == nil {
			t.valid[name] = true
		}
	}
	if len(t.valid) == 0 {
		return nil, fmt.Errorf("places: time zone finder knows no loadable zone")
	}
	return t, nil
}

// ZoneAt returns the IANA time zone at a point ("America/New_York"), always a
// name time.LoadLocation accepts. Where the boundary data has no answer it
// uses the zone of the nearest gazetteer place, and "UTC" for invalid
// coordinates.
func (t *TimeZones) ZoneAt(lat, lon float64) string {
	if math.IsNaN(lat) || math.IsNaN(lon) || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return "UTC"
	}
	if name := t.finder.GetTimezoneName(lon, lat); t.valid[name] {
		return name
	}
	if p, ok := t.nearestPlace(lat, lon); ok {
		if _, err := time.LoadLocation(p.TimeZone); err == nil {
			return p.TimeZone
		}
	}
	return "UTC"
}

func (t *TimeZones) nearestPlace(lat, lon float64) (Place, bool) {
	t.gazOnce.Do(func() {
		// An error leaves gaz nil and ZoneAt answers "UTC"; the embedded
		// file is tested, so this does not happen in practice.
		t.gaz, _ = Load()
	})
	if t.gaz == nil {
		return Place{}, false
	}
	return t.gaz.Nearest(lat, lon)
}

// Nearest returns the place closest to a point (great-circle distance).
// It scans every place: fine for occasional use, not for search.
func (g *Gazetteer) Nearest(lat, lon float64) (Place, bool) {
	best, bestD := -1, math.Inf(1)
	for i := range g.places {
		if d := haversine(lat, lon, g.places[i].Lat, g.places[i].Lon); d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 {
		return Place{}, false
	}
	return g.places[best], true
}

// haversine returns the central angle between two points, in radians.
func haversine(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * math.Asin(math.Sqrt(math.Min(1, a)))
}

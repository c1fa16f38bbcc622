// Package seed writes the offline demo data set: stores around real US
// cities, in proportion to their population, with plausible names,
// addresses, phones, images, weekly hours (closed days, late nights, none at
// all), holiday hours and closures, service flags, time zones and reviews. The same seed gives the same
// data on every machine.
package seed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"locator/internal/reviews"
	"locator/internal/stores"
)

// City is a place to put stores around (from the embedded gazetteer).
type City struct {
	Name       string
	State      string // two-letter code
	Lat, Lon   float64
	Population int
}

// ZIP is a US postal code with its centre, to give stores a real postal code.
type ZIP struct {
	Code     string
	Lat, Lon float64
}

// Options says what to generate.
type Options struct {
	Stores int    // how many stores (default 20,000)
	Seed   uint64 // random seed (default 1)
	Cities []City
	ZIPs   []ZIP
	ZoneAt func(lat, lon float64) string // IANA zone of a point
	Now    time.Time                     // reviews are dated before it (default 2026-11-01)
	// HolidaysFrom is the seed date: stores get holiday hours for the US
	// public holidays of the twelve months after it (default Now).
	HolidaysFrom time.Time
}

// Result counts what was written.
type Result struct {
	Stores, Reviews int
}

// Generate builds the stores and their reviews without writing them.
func Generate(o Options) ([]*stores.Store, [][]*reviews.Review, error) {
	if o.Stores <= 0 {
		o.Stores = 20000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Now.IsZero() {
		o.Now = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	}
	if len(o.Cities) == 0 {
		return nil, nil, fmt.Errorf("seed: no cities given")
	}
	if o.ZoneAt == nil {
		return nil, nil, fmt.Errorf("seed: no time-zone lookup given")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x10ca7e5))
	counts := allocate(o.Cities, o.Stores)
	zips := newZipGrid(o.ZIPs)
	var out []*stores.Store
	var revs [][]*reviews.Review
	n := 0
	for ci, c := range o.Cities {
		// Bigger cities spread wider: ~0.02 deg for a town, ~0.12 for New York.
		spread := 0.012 + 0.00004*math.Sqrt(float64(c.Population))
		if spread > 0.12 {
			spread = 0.12
		}
		for k := 0; k < counts[ci]; k++ {
			n++
			lat := c.Lat + rng.NormFloat64()*spread
			lon := c.Lon + rng.NormFloat64()*spread/math.Cos(c.Lat*math.Pi/180)
			lat, lon = round5(lat), round5(lon)
			s := &stores.Store{
				StoreID:      fmt.Sprintf("st_%06d", n),
				Name:         storeName(rng, c.Name),
				PhoneNumber:  phone(rng),
				CountryCode:  "US",
				CountryName:  "United States",
				State:        c.State,
				City:         c.Name,
				PostalCode:   zips.nearest(lat, lon),
				Address:      address(rng),
				Latitude:     lat,
				Longitude:    lon,
				GeoPrecision: "exact",
				TimeZone:     o.ZoneAt(lat, lon),
				Delivery:     rng.IntN(100) < 40,
				OrderOnline:  rng.IntN(100) < 60,
				Curbside:     rng.IntN(100) < 30,
				Status:       stores.Published,
			}
			if rng.IntN(100) < 8 {
				s.PhoneNumber = ""
			}
			if rng.IntN(100) < 65 {
				s.Image = fmt.Sprintf("/demo/store-%d.svg", 1+rng.IntN(6))
			}
			p := patterns[pick(rng, patternWeights)]
			s.WorkingHours, s.Hours = p.hours(), p.text
			out = append(out, s)
			rs := makeReviews(rng, o.Now)
			for _, r := range rs {
				s.RatingSum += int64(r.Rating)
			}
			s.ReviewCount = int64(len(rs))
			revs = append(revs, rs)
		}
	}
	from := o.HolidaysFrom
	if from.IsZero() {
		from = o.Now
	}
	addExceptions(out, o.Seed, from)
	return out, revs, nil
}

// Write generates the data and stores it in batches (each batch one
// transaction: stores, then their reviews).
func Write(ctx context.Context, sr *stores.Repo, rr *reviews.Repo, o Options) (Result, error) {
	ss, revs, err := Generate(o)
	if err != nil {
		return Result{}, err
	}
	var res Result
	const batch = 2000
	for i := 0; i < len(ss); i += batch {
		j := min(i+batch, len(ss))
		if err := sr.SaveAll(ctx, ss[i:j]); err != nil {
			return res, fmt.Errorf("seed stores %d-%d: %w", i+1, j, err)
		}
		res.Stores += j - i
		var rs []*reviews.Review
		for k := i; k < j; k++ {
			for _, r := range revs[k] {
				r.StoreID = ss[k].ID
				rs = append(rs, r)
			}
		}
		if err := rr.AddAll(ctx, rs); err != nil {
			return res, fmt.Errorf("seed reviews of stores %d-%d: %w", i+1, j, err)
		}
		res.Reviews += len(rs)
	}
	return res, nil
}

// allocate splits total stores over cities by population (largest remainder).
func allocate(cities []City, total int) []int {
	sum := 0.0
	for _, c := range cities {
		sum += float64(c.Population)
	}
	counts := make([]int, len(cities))
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, len(cities))
	given := 0
	for i, c := range cities {
		exact := float64(total) * float64(c.Population) / sum
		counts[i] = int(exact)
		given += counts[i]
		rems[i] = rem{i, exact - float64(counts[i])}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for k := 0; given < total; k++ {
		counts[rems[k%len(rems)].i]++
		given++
	}
	return counts
}

func round5(v float64) float64 { return math.Round(v*1e5) / 1e5 }

func pick(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := rng.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

var (
	nameFirst = []string{"Cloud", "Vapor", "Smoke", "Puff", "Haze", "Mist", "Ember", "Blue", "Urban", "Liberty",
		"Main Street", "Golden", "Silver", "Empire", "Coastal", "Summit", "Vape", "Nimbus", "Lucky", "Royal"}
	nameSecond = []string{"Nine", "Depot", "House", "Lounge", "Corner", "Works", "Hub", "Spot", "Den", "Co.", "Outlet", "Station"}
	nameKind   = []string{"Vapes", "Vape Shop", "Smoke Shop", "Tobacco", "Vapor Bar", "Smoke & Vape", "E-Cig Store", ""}
	streets    = []string{"Main", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Broadway",
		"Market", "Church", "Lincoln", "Jefferson", "Madison", "Franklin", "Highland", "Sunset", "River", "Union", "Center"}
	streetKinds = []string{"St", "Ave", "Blvd", "Rd", "Dr", "Way", "Ln", "Pkwy"}
)

func storeName(rng *rand.Rand, city string) string {
	switch rng.IntN(4) {
	case 0:
		return strings.TrimSpace(city + " " + nameKind[rng.IntN(len(nameKind)-1)])
	default:
		return strings.TrimSpace(nameFirst[rng.IntN(len(nameFirst))] + " " + nameSecond[rng.IntN(len(nameSecond))] + " " + nameKind[rng.IntN(len(nameKind))])
	}
}

func address(rng *rand.Rand) string {
	a := fmt.Sprintf("%d %s %s", 1+rng.IntN(9899), streets[rng.IntN(len(streets))], streetKinds[rng.IntN(len(streetKinds))])
	if rng.IntN(5) == 0 {
		a += fmt.Sprintf(", Suite %d", 100+rng.IntN(400))
	}
	return a
}

// phone uses the 555-01xx numbers reserved for fiction.
func phone(rng *rand.Rand) string {
	area := []int{212, 718, 213, 312, 415, 512, 617, 702, 713, 305, 404, 206, 303, 602, 215}[rng.IntN(15)]
	return fmt.Sprintf("+1%d55501%02d", area, rng.IntN(100))
}

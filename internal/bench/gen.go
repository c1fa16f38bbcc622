// Package bench implements the store search benchmark SLB-1 (defined, with
// its results, in docs/performance.md): a
// deterministic store generator, the fixed query mix, a brute-force oracle
// for the correctness gate, and helpers the harness (tools/slb) and the Go
// benchmarks share. See README.md in this folder.
package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"locator/internal/places"
	"locator/internal/stores"
)

// Seed is the fixed seed of every data set and query mix.
const Seed uint64 = 0x51b1

// Dataset sizes.
const (
	SizeS = 100_000
	SizeM = 1_000_000
	SizeL = 5_000_000
)

// ParseSize reads S, M, L or a plain number of stores.
func ParseSize(s string) (int, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "S":
		return SizeS, nil
	case "M":
		return SizeM, nil
	case "L":
		return SizeL, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("size %q: want S, M, L or a positive number", s)
	}
	return n, nil
}

// Spread says how stores are placed.
type Spread int

const (
	// Clustered puts stores around real US places, weighted by population.
	Clustered Spread = iota
	// Uniform spreads stores evenly over the continental US box.
	Uniform
)

func (s Spread) String() string {
	if s == Uniform {
		return "uniform"
	}
	return "clustered"
}

// ParseSpread reads "clustered" or "uniform".
func ParseSpread(s string) (Spread, error) {
	switch s {
	case "clustered", "":
		return Clustered, nil
	case "uniform":
		return Uniform, nil
	}
	return 0, fmt.Errorf("spread %q: want clustered or uniform", s)
}

// The continental US box (uniform stores, uniform queries).
const (
	boxMinLat, boxMaxLat = 24.5, 49.4
	boxMinLon, boxMaxLon = -124.8, -66.9
)

// Dataset generates store i (0-based, id i+1) on demand: every store has its
// own random stream seeded by (Seed, i), so any store can be rebuilt alone,
// in any order, by any number of goroutines, with the same result.
type Dataset struct {
	N      int
	Spread Spread
	cities []places.Place
	cum    []float64 // cumulative population, for weighted city choice
	cityG  grid      // nearest city of a uniform store
	zipG   grid      // nearest ZIP code
	zips   []places.ZIP
}

// NewDataset prepares a data set of n stores.
func NewDataset(n int, spread Spread) (*Dataset, error) {
	g, err := places.Load()
	if err != nil {
		return nil, fmt.Errorf("load gazetteer: %w", err)
	}
	d := &Dataset{N: n, Spread: spread, cities: g.USCities(1000), zips: g.ZIPs()}
	if len(d.cities) == 0 {
		return nil, fmt.Errorf("gazetteer has no US cities")
	}
	d.cum = make([]float64, len(d.cities))
	sum := 0.0
	for i, c := range d.cities {
		sum += float64(c.Population)
		d.cum[i] = sum
	}
	d.cityG = newGrid(len(d.cities), func(i int) (float64, float64) { return d.cities[i].Lat, d.cities[i].Lon })
	d.zipG = newGrid(len(d.zips), func(i int) (float64, float64) { return d.zips[i].Lat, d.zips[i].Lon })
	return d, nil
}

func (d *Dataset) rng(i int) *rand.Rand { return rand.New(rand.NewPCG(Seed, uint64(i))) }

// place draws the coordinates of store i and the city it belongs to; it is
// the first use of the store's random stream, so Point and Store agree.
func (d *Dataset) place(rng *rand.Rand) (lat, lon float64, city int) {
	if d.Spread == Uniform {
		lat = round5(boxMinLat + rng.Float64()*(boxMaxLat-boxMinLat))
		lon = round5(boxMinLon + rng.Float64()*(boxMaxLon-boxMinLon))
		return lat, lon, -1
	}
	city = sort.SearchFloat64s(d.cum, rng.Float64()*d.cum[len(d.cum)-1])
	if city >= len(d.cities) {
		city = len(d.cities) - 1
	}
	c := &d.cities[city]
	// Bigger places spread wider: ~0.02 deg for a town, 0.12 for New York
	// (the demo seed's rule).
	spread := math.Min(0.012+0.00004*math.Sqrt(float64(c.Population)), 0.12)
	lat = c.Lat + rng.NormFloat64()*spread
	lon = c.Lon + rng.NormFloat64()*spread/math.Cos(c.Lat*math.Pi/180)
	lat = round5(math.Max(-89.9, math.Min(89.9, lat)))
	lon = round5(math.Max(-179.9, math.Min(179.9, lon)))
	return lat, lon, city
}

// Point returns the coordinates of store i without building it.
func (d *Dataset) Point(i int) (lat, lon float64) {
	lat, lon, _ = d.place(d.rng(i))
	return lat, lon
}

// Store builds store i (ID i+1, country US with id 1, published) with every
// field a real store has: 7-day hours, rating and review count, image,
// phone, address, postal code and time zone of its nearest city.
func (d *Dataset) Store(i int) *stores.Store {
	rng := d.rng(i)
	lat, lon, ci := d.place(rng)
	if ci < 0 {
		ci = d.cityG.nearest(lat, lon, func(k int) (float64, float64) { return d.cities[k].Lat, d.cities[k].Lon })
	}
	c := &d.cities[ci]
	zi := d.zipG.nearest(lat, lon, func(k int) (float64, float64) { return d.zips[k].Lat, d.zips[k].Lon })
	s := &stores.Store{
		ID:           int64(i + 1),
		StoreID:      fmt.Sprintf("slb_%07d", i+1),
		Name:         storeName(rng, c.Name),
		PhoneNumber:  fmt.Sprintf("+1%d55501%02d", areaCodes[rng.IntN(len(areaCodes))], rng.IntN(100)),
		CountryCode:  "US",
		CountryName:  "United States",
		CountryID:    1,
		State:        c.Admin1,
		City:         c.Name,
		PostalCode:   d.zips[zi].Code,
		Address:      address(rng),
		Latitude:     lat,
		Longitude:    lon,
		GeoPrecision: "exact",
		TimeZone:     c.TimeZone,
		Delivery:     rng.IntN(100) < 40,
		OrderOnline:  rng.IntN(100) < 60,
		Curbside:     rng.IntN(100) < 30,
		Status:       stores.Published,
		// A fixed instant per store, so that data sets are identical run to run.
		UpdatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second),
	}
	if s.TimeZone == "" {
		s.TimeZone = "America/New_York"
	}
	if rng.IntN(100) < 65 {
		s.Image = fmt.Sprintf("https://cdn.example.com/stores/%07d/front.jpg", i+1)
	}
	p := &weekPatterns[pickWeighted(rng, weekWeights)]
	s.Hours = p.text
	s.WorkingHours = make([]stores.WorkingHour, 7)
	for day := range s.WorkingHours {
		s.WorkingHours[day] = stores.WorkingHour{WeekDay: time.Weekday(day), Start: p.days[day][0], End: p.days[day][1]}
	}
	s.ReviewCount = int64(rng.IntN(250))
	s.RatingSum = s.ReviewCount * int64(3+rng.IntN(3))
	if s.ReviewCount > 0 {
		s.RatingSum -= int64(rng.IntN(int(s.ReviewCount)))
	}
	return s
}

// Entry builds the index entry of store i, document included.
func (d *Dataset) Entry(i int) (stores.Entry, error) {
	return EntryOf(d.Store(i))
}

// EntryOf is the index entry of s, as Repo.ScanChanges would read it back.
func EntryOf(s *stores.Store) (stores.Entry, error) {
	doc, err := stores.RenderDoc(s)
	if err != nil {
		return stores.Entry{}, err
	}
	return stores.Entry{
		ID: s.ID, Latitude: s.Latitude, Longitude: s.Longitude,
		Delivery: s.Delivery, OrderOnline: s.OrderOnline, Curbside: s.Curbside,
		TimeZone: s.TimeZone, Schedule: stores.EncodeSchedule(s.WorkingHours), Doc: doc, UpdatedAt: s.UpdatedAt,
	}, nil
}

// Entries builds every entry, on all cores.
func (d *Dataset) Entries() ([]stores.Entry, error) {
	out := make([]stores.Entry, d.N)
	err := d.parallel(func(i int) error {
		e, err := d.Entry(i)
		out[i] = e
		return err
	})
	return out, err
}

// Points returns the coordinates of every store (for query generation).
func (d *Dataset) Points() [][2]float64 {
	out := make([][2]float64, d.N)
	_ = d.parallel(func(i int) error {
		out[i][0], out[i][1] = d.Point(i)
		return nil
	})
	return out
}

func (d *Dataset) parallel(fn func(i int) error) error {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < d.N; i += workers {
				if err := fn(i); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// grid finds the nearest of a set of points (cities, ZIP codes) by
// 1-degree cells, searching rings of cells outwards.
type grid struct{ cells map[[2]int][]int32 }

func cellOf(lat, lon float64) [2]int { return [2]int{int(math.Floor(lat)), int(math.Floor(lon))} }

func newGrid(n int, at func(i int) (float64, float64)) grid {
	g := grid{cells: make(map[[2]int][]int32)}
	for i := 0; i < n; i++ {
		k := cellOf(at(i))
		g.cells[k] = append(g.cells[k], int32(i))
	}
	return g
}

func (g grid) nearest(lat, lon float64, at func(i int) (float64, float64)) int {
	c := cellOf(lat, lon)
	best, bestD := -1, math.Inf(1)
	cosLat := math.Cos(lat * math.Pi / 180)
	for r := 0; r < 60; r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if max(abs(dx), abs(dy)) != r {
					continue
				}
				for _, i := range g.cells[[2]int{c[0] + dy, c[1] + dx}] {
					plat, plon := at(int(i))
					dl, do := plat-lat, (plon-lon)*cosLat
					if dd := dl*dl + do*do; dd < bestD {
						best, bestD = int(i), dd
					}
				}
			}
		}
		// Every cell of ring r+1 is at least r degrees of latitude or
		// r*cos(lat) of longitude away.
		if best >= 0 && math.Sqrt(bestD) <= float64(r)*cosLat {
			break
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func round5(v float64) float64 { return math.Round(v*1e5) / 1e5 }

func pickWeighted(rng *rand.Rand, weights []int) int {
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
	areaCodes   = []int{212, 718, 213, 312, 415, 512, 617, 702, 713, 305, 404, 206, 303, 602, 215}
	nameFirst   = []string{"Cloud", "Vapor", "Smoke", "Puff", "Haze", "Mist", "Ember", "Blue", "Urban", "Liberty", "Main Street", "Golden", "Silver", "Empire", "Coastal", "Summit", "Nimbus", "Lucky", "Royal"}
	nameSecond  = []string{"Nine", "Depot", "House", "Lounge", "Corner", "Works", "Hub", "Spot", "Den", "Co.", "Outlet", "Station"}
	nameKind    = []string{"Vapes", "Vape Shop", "Smoke Shop", "Tobacco", "Vapor Bar", "Smoke & Vape", "E-Cig Store"}
	streets     = []string{"Main", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Broadway", "Market", "Church", "Lincoln", "Jefferson", "Madison", "Franklin", "Highland", "Sunset", "River", "Union", "Center"}
	streetKinds = []string{"St", "Ave", "Blvd", "Rd", "Dr", "Way", "Ln", "Pkwy"}
)

func storeName(rng *rand.Rand, city string) string {
	if rng.IntN(4) == 0 {
		return city + " " + nameKind[rng.IntN(len(nameKind))]
	}
	return nameFirst[rng.IntN(len(nameFirst))] + " " + nameSecond[rng.IntN(len(nameSecond))] + " " + nameKind[rng.IntN(len(nameKind))]
}

func address(rng *rand.Rand) string {
	a := strconv.Itoa(1+rng.IntN(9899)) + " " + streets[rng.IntN(len(streets))] + " " + streetKinds[rng.IntN(len(streetKinds))]
	if rng.IntN(5) == 0 {
		a += ", Suite " + strconv.Itoa(100+rng.IntN(400))
	}
	return a
}

// weekPattern is a week of hours; an empty span is a closed day, which the
// document still lists (all 7 days are always present).
type weekPattern struct {
	text string
	days [7][2]string
}

var (
	closed   = [2]string{}
	nineNine = [2]string{"09:00", "21:00"}
	tenEight = [2]string{"10:00", "20:00"}
	noonSix  = [2]string{"12:00", "18:00"}
	late     = [2]string{"18:00", "02:00"}
	midLate  = [2]string{"11:00", "01:00"}
	allDay   = [2]string{"00:00", "23:59"}
)

var weekPatterns = []weekPattern{
	{"Daily 9:00 AM - 9:00 PM", [7][2]string{nineNine, nineNine, nineNine, nineNine, nineNine, nineNine, nineNine}},
	{"Mon-Sat 10:00 AM - 8:00 PM, Sun closed", [7][2]string{closed, tenEight, tenEight, tenEight, tenEight, tenEight, tenEight}},
	{"Mon-Fri 10:00 AM - 8:00 PM, Sat-Sun 12:00 PM - 6:00 PM", [7][2]string{noonSix, tenEight, tenEight, tenEight, tenEight, tenEight, noonSix}},
	{"Daily 11:00 AM - 1:00 AM", [7][2]string{midLate, midLate, midLate, midLate, midLate, midLate, midLate}},
	{"Mon-Thu 9:00 AM - 9:00 PM, Fri-Sat 6:00 PM - 2:00 AM, Sun closed", [7][2]string{closed, nineNine, nineNine, nineNine, nineNine, late, late}},
	{"Open 24 hours", [7][2]string{allDay, allDay, allDay, allDay, allDay, allDay, allDay}},
	{"Tue-Sat 10:00 AM - 8:00 PM, Sun-Mon closed", [7][2]string{closed, closed, tenEight, tenEight, tenEight, tenEight, tenEight}},
}

var weekWeights = []int{30, 20, 15, 10, 10, 8, 7}

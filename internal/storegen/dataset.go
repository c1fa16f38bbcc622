package storegen

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"locator/internal/stores"
)

// Spread says how a Dataset places stores.
type Spread int

const (
	// Clustered puts stores around cities, weighted by population.
	Clustered Spread = iota
	// Uniform spreads stores evenly over the continental US.
	Uniform
)

func (s Spread) String() string {
	if s == Uniform {
		return "uniform"
	}
	return "clustered"
}

// DatasetOptions says what a Dataset makes.
type DatasetOptions struct {
	Seed    uint64
	Spread  Spread
	Cities  []City // weighted by population; a uniform store takes its nearest city's name and zone
	ZIPs    []ZIP
	StoreID string // fmt format of the store_id, given the store's number ("slb_%07d")
	Style   Style
}

// Dataset generates store i (0-based, id i+1) on demand: every store has
// its own random stream seeded by (Seed, i), so any store can be rebuilt
// alone, in any order, by any number of goroutines, with the same result.
type Dataset struct {
	o     DatasetOptions
	cum   []float64 // cumulative population, for weighted city choice
	cityG *Grid     // nearest city of a uniform store
	zipG  *Grid     // nearest ZIP code
}

// NewDataset prepares a data set.
func NewDataset(o DatasetOptions) (*Dataset, error) {
	if len(o.Cities) == 0 {
		return nil, fmt.Errorf("storegen: no cities given")
	}
	d := &Dataset{o: o, cum: make([]float64, len(o.Cities))}
	sum := 0.0
	for i, c := range o.Cities {
		sum += float64(c.Population)
		d.cum[i] = sum
	}
	d.cityG = NewGrid(len(o.Cities), func(i int) (float64, float64) { return o.Cities[i].Lat, o.Cities[i].Lon })
	d.zipG = NewGrid(len(o.ZIPs), func(i int) (float64, float64) { return o.ZIPs[i].Lat, o.ZIPs[i].Lon })
	return d, nil
}

func (d *Dataset) rng(i int) *rand.Rand { return rand.New(rand.NewPCG(d.o.Seed, uint64(i))) }

// place draws the coordinates of store i and the city it belongs to; it is
// the first use of the store's random stream, so Point and Store agree.
func (d *Dataset) place(rng *rand.Rand) (lat, lon float64, city int) {
	if d.o.Spread == Uniform {
		lat, lon = ContinentalUS.In(rng)
		return lat, lon, -1
	}
	city = sort.SearchFloat64s(d.cum, rng.Float64()*d.cum[len(d.cum)-1])
	if city >= len(d.o.Cities) {
		city = len(d.o.Cities) - 1
	}
	lat, lon = Around(rng, &d.o.Cities[city])
	return lat, lon, city
}

// Point returns the coordinates of store i without building it.
func (d *Dataset) Point(i int) (lat, lon float64) {
	lat, lon, _ = d.place(d.rng(i))
	return lat, lon
}

// Store builds store i (ID i+1, country US with id 1, published, updated
// at a fixed instant per store) with every field a real store has: 7-day
// hours, rating and review count (no review records), image, phone,
// address, the postal code of its nearest ZIP and the time zone of its
// city (America/New_York when the city has none).
func (d *Dataset) Store(i int) *stores.Store {
	rng := d.rng(i)
	lat, lon, ci := d.place(rng)
	if ci < 0 {
		ci = max(d.cityG.Nearest(lat, lon), 0)
	}
	c := &d.o.Cities[ci]
	s := &stores.Store{
		ID:           int64(i + 1),
		StoreID:      fmt.Sprintf(d.o.StoreID, i+1),
		CountryCode:  "US",
		CountryName:  "United States",
		CountryID:    1,
		State:        c.State,
		City:         c.Name,
		Latitude:     lat,
		Longitude:    lon,
		GeoPrecision: "exact",
		TimeZone:     c.TimeZone,
		Status:       stores.Published,
		// A fixed instant per store, so that data sets are identical run to run.
		UpdatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second),
	}
	if z := d.zipG.Nearest(lat, lon); z >= 0 {
		s.PostalCode = d.o.ZIPs[z].Code
	}
	if s.TimeZone == "" {
		s.TimeZone = "America/New_York"
	}
	d.o.Style.Dress(rng, s, i+1)
	s.ReviewCount = int64(rng.IntN(250))
	s.RatingSum = s.ReviewCount * int64(3+rng.IntN(3))
	if s.ReviewCount > 0 {
		s.RatingSum -= int64(rng.IntN(int(s.ReviewCount)))
	}
	return s
}

// Package bench implements the store search benchmark SLB-1 (defined, with
// its results, in docs/performance.md): its data set (internal/storegen
// with the benchmark's options), the fixed query mix, a brute-force oracle
// for the correctness gate, and helpers the harness (tools/slb) and the Go
// benchmarks share. See README.md in this folder.
package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"locator/internal/places"
	"locator/internal/schedule"
	"locator/internal/storegen"
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

// Spread says how stores are placed: Clustered (around real US places,
// weighted by population) or Uniform (evenly over the continental US).
type Spread = storegen.Spread

const (
	Clustered = storegen.Clustered
	Uniform   = storegen.Uniform
)

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

// Style is SLB-1's: the first words without "Vape", every name with a
// kind, every store with a phone and set hours (no "Call for hours"), a
// CDN image URL per store. The demo data has those since; the benchmark's
// data set stays as it was measured (testdata/slb1-dataset.golden).
var Style = storegen.Style{
	First:       slices.DeleteFunc(slices.Clone(storegen.FirstWords), func(w string) bool { return w == "Vape" }),
	WeekWeights: []int{30, 20, 15, 10, 10, 8, 7, 0},
	Image: func(_ *rand.Rand, n int) string {
		return fmt.Sprintf("https://cdn.example.com/stores/%07d/front.jpg", n)
	},
}

// Dataset is SLB-1's data set of N stores: storegen.Dataset with the
// benchmark's seed, places (the embedded gazetteer's US places of 1,000
// people or more) and Style. Store i has id i+1 and store_id slb_<7 digits>.
type Dataset struct {
	*storegen.Dataset
	N      int
	Spread Spread
}

// NewDataset prepares a data set of n stores.
func NewDataset(n int, spread Spread) (*Dataset, error) {
	g, err := places.Load()
	if err != nil {
		return nil, fmt.Errorf("load gazetteer: %w", err)
	}
	o := storegen.DatasetOptions{Seed: Seed, Spread: spread, StoreID: "slb_%07d", Style: Style}
	for _, c := range g.USCities(1000) {
		o.Cities = append(o.Cities, storegen.City{Name: c.Name, State: c.Admin1, Lat: c.Lat, Lon: c.Lon, Population: c.Population, TimeZone: c.TimeZone})
	}
	for _, z := range g.ZIPs() {
		o.ZIPs = append(o.ZIPs, storegen.ZIP{Code: z.Code, Lat: z.Lat, Lon: z.Lon})
	}
	d, err := storegen.NewDataset(o)
	if err != nil {
		return nil, err
	}
	return &Dataset{Dataset: d, N: n, Spread: spread}, nil
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
		TimeZone: s.TimeZone, Schedule: schedule.EncodeSchedule(s.WorkingHours), Doc: doc, UpdatedAt: s.UpdatedAt,
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

package storegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"locator/internal/reviews"
	"locator/internal/stores"
)

// Options says what Generate makes.
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
	// InWater tells whether a point is in the sea, a bay, a tidal river or a lake (the
	// basemap's water, maptiles.Water); a store drawn there is drawn again (placeOnLand).
	// Nil: every point counts as land.
	InWater func(lat, lon float64) bool
}

// DemoStyle is the demo data's: every first word, some names without a
// kind, 8% of stores without phone, phones with an area code of the
// store's part of its state, 7% without set hours, images from the web app's demo
// pictures.
var DemoStyle = Style{
	First:          FirstWords,
	BareNames:      true,
	WeekWeights:    []int{30, 20, 15, 10, 8, 5, 5, 7},
	NoPhonePercent: 8,
	Image:          func(rng *rand.Rand, _ int) string { return fmt.Sprintf("/demo/store-%d.svg", 1+rng.IntN(6)) },
	Phone:          func(rng *rand.Rand, s *stores.Store) string { return PhoneAt(rng, s) },
}

// MaxZIPKm is the farthest a demo store lies from the centre of its ZIP
// code: a point drawn farther from every ZIP (out at sea, in a desert) is
// drawn again.
const MaxZIPKm = 8.0

// Generate makes the demo data: the stores (split over the cities by
// population, all from one random stream) and their reviews, with holiday
// hours and closures (addExceptions).
//
// A store's postal code is the ZIP code nearest to it, and its city and
// state are that code's postal city and state (not the city it was drawn
// around): a store drawn around Brooklyn's centre that falls in Manhattan
// is in New York, NY 100xx, one across the Hudson in Jersey City, NJ. Its
// phone has an area code of that state. So city, postal code, phone and
// position agree wherever the store lands.
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
		return nil, nil, fmt.Errorf("storegen: no cities given")
	}
	if o.ZoneAt == nil {
		return nil, nil, fmt.Errorf("storegen: no time-zone lookup given")
	}
	zs := postalZIPs(o.ZIPs)
	if len(zs) == 0 {
		return nil, nil, fmt.Errorf("storegen: no ZIP codes with a place and a known state given")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x10ca7e5))
	counts := allocate(o.Cities, o.Stores)
	zips := NewGrid(len(zs), func(i int) (float64, float64) { return zs[i].Lat, zs[i].Lon })
	var out []*stores.Store
	var revs [][]*reviews.Review
	n := 0
	for ci := range o.Cities {
		c := &o.Cities[ci]
		for k := 0; k < counts[ci]; k++ {
			n++
			lat, lon, z := placeNearZIP(rng, c, zips, zs)
			if o.InWater != nil && o.InWater(lat, lon) {
				lat, lon, z = placeOnLand(o, n, c, zips, zs)
			}
			s := &stores.Store{
				StoreID:      fmt.Sprintf("st_%06d", n),
				CountryCode:  "US",
				CountryName:  "United States",
				State:        z.State,
				City:         z.Place,
				PostalCode:   z.Code,
				Latitude:     lat,
				Longitude:    lon,
				GeoPrecision: "exact",
				TimeZone:     o.ZoneAt(lat, lon),
				Status:       stores.Published,
			}
			DemoStyle.Dress(rng, s, n)
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
	addServiceHours(out, o.Seed)
	return out, revs, nil
}

// postalZIPs are the ZIP codes a demo store may have: those with a postal
// city and a state of the area-code table (no military codes), and of the
// codes that share one centre (post-office-box and single-firm codes
// placed on their office) only the first.
func postalZIPs(all []ZIP) []ZIP {
	seen := make(map[[2]float64]bool, len(all))
	var out []ZIP
	for _, z := range all {
		at := [2]float64{z.Lat, z.Lon}
		if z.Place == "" || len(stateAreaCodes[z.State]) == 0 || seen[at] {
			continue
		}
		seen[at] = true
		out = append(out, z)
	}
	return out
}

// placeNearZIP draws a store's position around c until it lies within
// MaxZIPKm of its nearest ZIP code, and returns that code; after ten
// misses the store stands at the centre of the ZIP code nearest to c.
func placeNearZIP(rng *rand.Rand, c *City, g *Grid, zs []ZIP) (lat, lon float64, z *ZIP) {
	for range 10 {
		lat, lon = Around(rng, c)
		if i := g.Nearest(lat, lon); i >= 0 && DistanceKm(lat, lon, zs[i].Lat, zs[i].Lon) <= MaxZIPKm {
			return lat, lon, &zs[i]
		}
	}
	z = &zs[g.Nearest(c.Lat, c.Lon)]
	return Round5(z.Lat), Round5(z.Lon), z
}

// placeOnLand draws store n's position again, until it is on land, from a stream of its own:
// the main stream, and so every store drawn on land, stays as it was without the water test.
// After landTries misses (a city all water around is none) the store keeps the last draw.
func placeOnLand(o Options, n int, c *City, g *Grid, zs []ZIP) (lat, lon float64, z *ZIP) {
	rng := rand.New(rand.NewPCG(o.Seed^0x1a4d, uint64(n)))
	for range landTries {
		lat, lon, z = placeNearZIP(rng, c, g, zs)
		if !o.InWater(lat, lon) {
			break
		}
	}
	return lat, lon, z
}

// landTries: around New York a fifth of the draws fall in the water, so 20 misses in a row
// happen about once in 10^14 stores.
const landTries = 20

// DistanceKm is the great-circle distance between two points.
func DistanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	p1, p2 := lat1*math.Pi/180, lat2*math.Pi/180
	dp, dl := p2-p1, (lon2-lon1)*math.Pi/180
	a := math.Sin(dp/2)*math.Sin(dp/2) + math.Cos(p1)*math.Cos(p2)*math.Sin(dl/2)*math.Sin(dl/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
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

var (
	firstNames = []string{"Alex", "Jordan", "Taylor", "Sam", "Chris", "Morgan", "Jamie", "Casey", "Riley", "Avery", "Drew", "Quinn", "Maria", "James", "Li", "Priya"}
	lastNames  = []string{"Smith", "Garcia", "Johnson", "Lee", "Brown", "Nguyen", "Davis", "Miller", "Wilson", "Patel"}
	good       = []string{"Great selection and friendly staff.", "Knowledgeable staff, fair prices.", "My go-to shop, always in stock.",
		"Clean store and quick service.", "They helped me find the right device.", "Good prices on pods and coils."}
	meh = []string{"Decent, but the prices are a bit high.", "OK selection, slow at checkout.", "Fine for basics."}
	bad = []string{"Closed when the hours said open.", "Rude service, won't be back.", "Out of stock on everything I wanted."}
)

var products = []string{
	`{"title":"Disposable Vape 5000 Puffs","handle":"disposable-vape-5000","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"Nicotine Pouches Mint","handle":"nicotine-pouches-mint","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"Pod Kit Starter","handle":"pod-kit-starter","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"E-Liquid Berry 30ml","handle":"e-liquid-berry-30ml","status":"published","is_giftcard":false,"discountable":true}`,
}

// makeReviews gives a store 0-12 reviews, mostly positive.
func makeReviews(rng *rand.Rand, now time.Time) []*reviews.Review {
	n := rng.IntN(13)
	if rng.IntN(5) == 0 {
		n = 0
	}
	out := make([]*reviews.Review, 0, n)
	for i := 0; i < n; i++ {
		rating := []int{5, 5, 5, 4, 4, 4, 3, 2, 1}[rng.IntN(9)]
		var text string
		switch {
		case rating >= 4:
			text = good[rng.IntN(len(good))]
		case rating == 3:
			text = meh[rng.IntN(len(meh))]
		default:
			text = bad[rng.IntN(len(bad))]
		}
		p := rng.IntN(len(products))
		created := now.Add(-time.Duration(rng.IntN(365*24*60)) * time.Minute).UTC()
		out = append(out, &reviews.Review{
			ProductID:          "prod_" + string(rune('a'+p)),
			CustomerID:         "cus_" + string(rune('a'+rng.IntN(26))) + string(rune('a'+rng.IntN(26))),
			Status:             "Approved",
			Rating:             rating,
			Content:            text,
			Product:            []byte(products[p]),
			CustomerFirstName:  firstNames[rng.IntN(len(firstNames))],
			CustomerLastName:   lastNames[rng.IntN(len(lastNames))],
			CustomerHasAccount: rng.IntN(4) != 0,
			CreatedAt:          created,
			UpdatedAt:          created,
		})
	}
	return out
}

package storegen

import (
	"fmt"
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
}

// DemoStyle is the demo data's: every first word, some names without a
// kind, 8% of stores without phone, 7% without set hours, images from the
// web app's demo pictures.
var DemoStyle = Style{
	First:          FirstWords,
	BareNames:      true,
	WeekWeights:    []int{30, 20, 15, 10, 8, 5, 5, 7},
	NoPhonePercent: 8,
	Image:          func(rng *rand.Rand, _ int) string { return fmt.Sprintf("/demo/store-%d.svg", 1+rng.IntN(6)) },
}

// Generate makes the demo data: the stores (split over the cities by
// population, all from one random stream) and their reviews, with holiday
// hours and closures (addExceptions).
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
	rng := rand.New(rand.NewPCG(o.Seed, 0x10ca7e5))
	counts := allocate(o.Cities, o.Stores)
	zips := NewGrid(len(o.ZIPs), func(i int) (float64, float64) { return o.ZIPs[i].Lat, o.ZIPs[i].Lon })
	var out []*stores.Store
	var revs [][]*reviews.Review
	n := 0
	for ci := range o.Cities {
		c := &o.Cities[ci]
		for k := 0; k < counts[ci]; k++ {
			n++
			lat, lon := Around(rng, c)
			s := &stores.Store{
				StoreID:      fmt.Sprintf("st_%06d", n),
				CountryCode:  "US",
				CountryName:  "United States",
				State:        c.State,
				City:         c.Name,
				Latitude:     lat,
				Longitude:    lon,
				GeoPrecision: "exact",
				TimeZone:     o.ZoneAt(lat, lon),
				Status:       stores.Published,
			}
			if z := zips.Nearest(lat, lon); z >= 0 {
				s.PostalCode = o.ZIPs[z].Code
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
	return out, revs, nil
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

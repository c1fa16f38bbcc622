// Package storegen makes fictional stores that look real: around real US
// places in proportion to their population (or evenly over the continental
// US), with plausible names, addresses, phones, images, weekly hours,
// service flags, postal codes, time zones and reviews. The same seed gives
// the same stores on every machine.
//
// Two data sets come from it: the demo data (Generate, written by
// internal/seed) and the SLB-1 benchmark's (Dataset, used by
// internal/bench). They place and number stores differently (the demo
// draws every store from one stream, the benchmark each store from its own
// so that any store can be rebuilt alone; a demo store takes the city and
// state of its nearest ZIP code, a benchmark store keeps the place it was
// drawn around) and differ in the few things a Style says (the demo's
// phones have an area code of the store's state); the rest (the spread
// around a place, the vocabulary, the flags' shares, the hours) is the same
// code.
package storegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"locator/internal/stores"
)

// City is a place to put stores around (from the embedded gazetteer).
type City struct {
	Name       string
	State      string // two-letter code
	Lat, Lon   float64
	Population int
	TimeZone   string // IANA zone; stores take it when no ZoneAt is given
}

// ZIP is a US postal code with its centre, to give stores a real postal code.
type ZIP struct {
	Code     string
	Lat, Lon float64
	// Place and State are the code's postal city and state: the demo's
	// stores take them (Generate); the benchmark's do not need them.
	Place, State string
}

// Style is what one data set draws differently from another.
type Style struct {
	// First is the first words of made-up names (FirstWords, or a subset).
	First []string
	// BareNames lets a made-up name go without a kind ("Cloud Nine").
	BareNames bool
	// WeekWeights weighs Weeks (same length; 0 leaves a week out).
	WeekWeights []int
	// NoPhonePercent of stores have no phone (no draw when 0).
	NoPhonePercent int
	// Image is the image of the 65% of stores that have one; n is the
	// store's number (1-based).
	Image func(rng *rand.Rand, n int) string
	// Phone draws the store's phone number (placed and named already);
	// nil draws Phone's, whatever the store's state.
	Phone func(rng *rand.Rand, s *stores.Store) string
}

// Dress draws what a placed store looks like: name (from s.City), phone,
// address, the three service flags (delivery 40%, order online 60%,
// curbside 30%), phone removal, image and weekly hours, in this order. The
// order is part of every data set: a draw added or moved changes every
// store after it.
func (st *Style) Dress(rng *rand.Rand, s *stores.Store, n int) {
	s.Name = st.name(rng, s.City)
	if st.Phone != nil {
		s.PhoneNumber = st.Phone(rng, s)
	} else {
		s.PhoneNumber = Phone(rng)
	}
	s.Address = Address(rng)
	s.Delivery = rng.IntN(100) < 40
	s.OrderOnline = rng.IntN(100) < 60
	s.Curbside = rng.IntN(100) < 30
	if st.NoPhonePercent > 0 && rng.IntN(100) < st.NoPhonePercent {
		s.PhoneNumber = ""
	}
	if rng.IntN(100) < 65 {
		s.Image = st.Image(rng, n)
	}
	w := &Weeks[Pick(rng, st.WeekWeights)]
	s.WorkingHours, s.Hours = w.hours(), w.text
}

// Around draws a point around c: bigger places spread wider, ~0.02 degrees
// for a town, 0.12 for New York; 5 decimals, as stores are stored.
func Around(rng *rand.Rand, c *City) (lat, lon float64) {
	spread := math.Min(0.012+0.00004*math.Sqrt(float64(c.Population)), 0.12)
	lat = c.Lat + rng.NormFloat64()*spread
	lon = c.Lon + rng.NormFloat64()*spread/math.Cos(c.Lat*math.Pi/180)
	return Round5(math.Max(-89.9, math.Min(89.9, lat))), Round5(math.Max(-179.9, math.Min(179.9, lon)))
}

// Box is a latitude/longitude rectangle.
type Box struct{ MinLat, MaxLat, MinLon, MaxLon float64 }

// ContinentalUS is where uniform stores (and the benchmark's uniform
// queries) fall.
var ContinentalUS = Box{MinLat: 24.5, MaxLat: 49.4, MinLon: -124.8, MaxLon: -66.9}

// In draws a point evenly in b, 5 decimals.
func (b Box) In(rng *rand.Rand) (lat, lon float64) {
	lat = Round5(b.MinLat + rng.Float64()*(b.MaxLat-b.MinLat))
	lon = Round5(b.MinLon + rng.Float64()*(b.MaxLon-b.MinLon))
	return lat, lon
}

// Round5 rounds a coordinate to 5 decimals (~1 m).
func Round5(v float64) float64 { return math.Round(v*1e5) / 1e5 }

// Pick draws an index of weights in proportion to its weight.
func Pick(rng *rand.Rand, weights []int) int {
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

// The vocabulary of made-up names and addresses.
var (
	FirstWords = []string{"Cloud", "Vapor", "Smoke", "Puff", "Haze", "Mist", "Ember", "Blue", "Urban", "Liberty",
		"Main Street", "Golden", "Silver", "Empire", "Coastal", "Summit", "Vape", "Nimbus", "Lucky", "Royal"}
	secondWords = []string{"Nine", "Depot", "House", "Lounge", "Corner", "Works", "Hub", "Spot", "Den", "Co.", "Outlet", "Station"}
	kinds       = []string{"Vapes", "Vape Shop", "Smoke Shop", "Tobacco", "Vapor Bar", "Smoke & Vape", "E-Cig Store"}
	streets     = []string{"Main", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Broadway",
		"Market", "Church", "Lincoln", "Jefferson", "Madison", "Franklin", "Highland", "Sunset", "River", "Union", "Center"}
	streetKinds = []string{"St", "Ave", "Blvd", "Rd", "Dr", "Way", "Ln", "Pkwy"}
	areaCodes   = []int{212, 718, 213, 312, 415, 512, 617, 702, 713, 305, 404, 206, 303, 602, 215}
)

// name is "<city> <kind>" for a quarter of stores, else "<first> <second>
// <kind>" (the kind left out for one in eight with BareNames).
func (st *Style) name(rng *rand.Rand, city string) string {
	if rng.IntN(4) == 0 {
		return city + " " + kinds[rng.IntN(len(kinds))]
	}
	n := st.First[rng.IntN(len(st.First))] + " " + secondWords[rng.IntN(len(secondWords))]
	choices := len(kinds)
	if st.BareNames {
		choices++
	}
	if k := rng.IntN(choices); k < len(kinds) {
		n += " " + kinds[k]
	}
	return n
}

// Address is a street address, one in five with a suite.
func Address(rng *rand.Rand) string {
	a := strconv.Itoa(1+rng.IntN(9899)) + " " + streets[rng.IntN(len(streets))] + " " + streetKinds[rng.IntN(len(streetKinds))]
	if rng.IntN(5) == 0 {
		a += ", Suite " + strconv.Itoa(100+rng.IntN(400))
	}
	return a
}

// Phone is one of the 555-01xx numbers reserved for fiction, with an area
// code of a large city anywhere in the US (the benchmark's phones).
func Phone(rng *rand.Rand) string {
	return fmt.Sprintf("+1%d55501%02d", areaCodes[rng.IntN(len(areaCodes))], rng.IntN(100))
}

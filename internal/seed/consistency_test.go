package seed_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locator/internal/places"
	"locator/internal/storegen"
)

// Every demo store's city, state, postal code, phone and position agree,
// checked against the gazetteer rather than the generator's own tables:
// its postal code is a real ZIP code of its city and state whose centre
// is within storegen.MaxZIPKm of the store and no other code's centre is
// nearer; its phone's area code is one of its state's; and the places
// everyone looks at first hold no stranger (Brooklyn has only 112xx codes,
// Manhattan's New York only 100xx-102xx).
func TestDemoStoresAgreeWithTheirPlace(t *testing.T) {
	const n = 5000 // a quarter of the default; the race detector makes 20,000 slow
	g, err := places.Load()
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := generate(t, demoOptions(t, n, 1))
	if len(ss) != n {
		t.Fatalf("%d stores, want %d", len(ss), n)
	}
	// ZIP codes by 1-degree cell, for the brute-force nearest code.
	cells := map[[2]int][]places.ZIP{}
	for _, z := range g.ZIPs() {
		if z.State == "" {
			continue // military codes (APO, FPO) are no place's postal code
		}
		k := [2]int{int(math.Floor(z.Lat)), int(math.Floor(z.Lon))}
		cells[k] = append(cells[k], z)
	}
	cities := map[string]bool{}
	for _, s := range ss {
		z, ok := g.ZIP(s.PostalCode)
		if !ok {
			t.Fatalf("store %s: postal code %q is no ZIP code", s.StoreID, s.PostalCode)
		}
		if z.Place != s.City || z.State != s.State {
			t.Fatalf("store %s in %s, %s has postal code %s of %s, %s", s.StoreID, s.City, s.State, z.Code, z.Place, z.State)
		}
		d := storegen.DistanceKm(s.Latitude, s.Longitude, z.Lat, z.Lon)
		if d > storegen.MaxZIPKm {
			t.Fatalf("store %s at %v,%v is %.1f km from the centre of its ZIP code %s", s.StoreID, s.Latitude, s.Longitude, d, z.Code)
		}
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				for _, o := range cells[[2]int{int(math.Floor(s.Latitude)) + dy, int(math.Floor(s.Longitude)) + dx}] {
					if od := storegen.DistanceKm(s.Latitude, s.Longitude, o.Lat, o.Lon); od < d-0.05 {
						t.Fatalf("store %s has postal code %s (%.2f km) but %s %s, %s is nearer (%.2f km)", s.StoreID, z.Code, d, o.Code, o.Place, o.State, od)
					}
				}
			}
		}
		if s.PhoneNumber != "" {
			code, err := strconv.Atoi(strings.TrimPrefix(s.PhoneNumber, "+1")[:3])
			if err != nil || !slices.Contains(storegen.AreaCodes(s.State), code) {
				t.Fatalf("store %s in %s, %s has phone %s", s.StoreID, s.City, s.State, s.PhoneNumber)
			}
			if !strings.HasPrefix(s.PhoneNumber[5:], "55501") {
				t.Fatalf("store %s: phone %s is not a 555-01xx fiction number", s.StoreID, s.PhoneNumber)
			}
		}
		switch s.City + ", " + s.State {
		case "Brooklyn, NY":
			if !strings.HasPrefix(s.PostalCode, "112") {
				t.Fatalf("store %s in Brooklyn has postal code %s", s.StoreID, s.PostalCode)
			}
		case "New York, NY":
			if p := s.PostalCode[:3]; p != "100" && p != "101" && p != "102" {
				t.Fatalf("store %s in New York has postal code %s", s.StoreID, s.PostalCode)
			}
		}
		cities[s.City+", "+s.State] = true
	}
	// The directories show the places a visitor looks for first.
	for _, c := range []string{"New York, NY", "Brooklyn, NY", "Bronx, NY", "Staten Island, NY", "Jersey City, NJ", "Los Angeles, CA", "Chicago, IL", "Houston, TX"} {
		if !cities[c] {
			t.Errorf("no demo store in %s", c)
		}
	}
}

// The area-code table holds real codes of each state: a few a New Yorker,
// a Texan and a Californian know, and none of another state's.
func TestAreaCodesOfStates(t *testing.T) {
	for state, in := range map[string][]int{"NY": {212, 718, 917}, "NJ": {201, 973}, "TX": {214, 713, 512}, "CA": {213, 415, 619}, "DC": {202}} {
		for _, c := range in {
			if !slices.Contains(storegen.AreaCodes(state), c) {
				t.Errorf("%d is not an area code of %s", c, state)
			}
		}
	}
	for state, out := range map[string][]int{"NY": {303, 206, 617, 201}, "NJ": {212, 718}, "TX": {305, 404}} {
		for _, c := range out {
			if slices.Contains(storegen.AreaCodes(state), c) {
				t.Errorf("%d is given to %s", c, state)
			}
		}
	}
	// Every code belongs to one state only.
	owner := map[int]string{}
	g, err := places.Load()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]bool{}
	for _, z := range g.ZIPs() {
		states[z.State] = true
	}
	for s := range states {
		for _, c := range storegen.AreaCodes(s) {
			if o, ok := owner[c]; ok {
				t.Errorf("area code %d in %s and %s", c, o, s)
			}
			owner[c] = s
		}
	}
}

package seed_test

import (
	"testing"

	"locator/internal/maptiles"
)

// No demo store stands in the water the map draws (the Hudson, New York's harbour, Lake
// Michigan...): before, a fifth of the stores around New York did, and the walk of issue #39 found
// Manhattan's "waterfront" stores in the river. And the stores drawn on land are the same stores
// as without the water test (the redraws use a stream of their own), so the demo data moved only
// where it had to.
func TestDemoStoresOnLand(t *testing.T) {
	const n = 5000 // a quarter of the default; the race detector makes 20,000 slow
	water, err := maptiles.LoadWater()
	if err != nil {
		t.Fatal(err)
	}
	o := demoOptions(t, n, 1)
	if o.InWater == nil {
		t.Fatal("seed.Demo gives no water test")
	}
	ss, _ := generate(t, o)
	o.InWater = nil
	was, _ := generate(t, o)

	moved, nyc := 0, 0
	for i, s := range ss {
		if water.Contains(s.Latitude, s.Longitude) {
			t.Errorf("%s %q at %v, %v: in the water", s.StoreID, s.Name, s.Latitude, s.Longitude)
		}
		if s.Latitude > 40.5 && s.Latitude < 40.95 && s.Longitude > -74.3 && s.Longitude < -73.7 {
			nyc++
		}
		w := was[i]
		if water.Contains(w.Latitude, w.Longitude) {
			moved++
			continue
		}
		if s.Latitude != w.Latitude || s.Longitude != w.Longitude || s.Name != w.Name || s.PostalCode != w.PostalCode {
			t.Errorf("%s stood on land at %v, %v (%q) and moved to %v, %v (%q)", s.StoreID, w.Latitude, w.Longitude, w.Name, s.Latitude, s.Longitude, s.Name)
		}
	}
	// Without the water test, ~4% of all stores (a fifth around New York) stood in the water.
	if moved < n/100 || nyc < n/20 {
		t.Errorf("%d of %d stores moved out of the water, %d around New York: the test no longer looks where it should", moved, n, nyc)
	}
	t.Logf("%d of %d stores moved out of the water; %d around New York", moved, n, nyc)
}

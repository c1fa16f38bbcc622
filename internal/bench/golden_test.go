package bench_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/golden"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// goldenIndexes are the stores the golden file records: the first 200 and
// 100 more up to the M size, so that late streams are covered too.
func goldenIndexes() []int {
	var out []int
	for i := 0; i < 200; i++ {
		out = append(out, i)
	}
	for k := 0; k < 100; k++ {
		out = append(out, 200+k*10_007)
	}
	return out
}

// TestDatasetUnchanged compares SLB-1's data set with the one recorded in
// testdata/slb1-dataset.golden (written by the generator of 2026-11-27):
// ids, positions and names in clear, and a digest of the whole index entry
// (every field the generator sets, documents aside: they are
// stores.RenderDoc's, not the generator's). The benchmark's
// figures, queries and oracle are only comparable while this holds.
// go test ./internal/bench -run TestDatasetUnchanged -update rewrites it.
func TestDatasetUnchanged(t *testing.T) {
	var b strings.Builder
	for _, spread := range []bench.Spread{bench.Clustered, bench.Uniform} {
		d, err := bench.NewDataset(bench.SizeM, spread)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range goldenIndexes() {
			s := d.Store(i)
			lat, lon := d.Point(i)
			if lat != s.Latitude || lon != s.Longitude {
				t.Fatalf("%s store %d: Point %v,%v, Store %v,%v", spread, i, lat, lon, s.Latitude, s.Longitude)
			}
			fmt.Fprintf(&b, "%s\t%d\t%s\t%v\t%v\t%s\t%s\n", spread, s.ID, s.StoreID, s.Latitude, s.Longitude, s.Name, storeDigest(s))
		}
	}
	golden.Compare(t, "testdata/slb1-dataset.golden", []byte(b.String()))
}

// storeDigest sums every other field the generator sets (named one by
// one, so that a new field of stores.Store does not change it).
func storeDigest(s *stores.Store) string {
	f := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s|%s|%d|%s|%t|%t|%t|%s|%s|%s|%d|%d|%s",
		s.PhoneNumber, s.CountryCode, s.CountryName, s.State, s.City, s.PostalCode, s.Address, s.GeoPrecision,
		s.TimeZone, s.CountryID, s.Status, s.Delivery, s.OrderOnline, s.Curbside, s.Image, s.Hours,
		schedule.EncodeSchedule(s.WorkingHours), s.ReviewCount, s.RatingSum, s.UpdatedAt.Format(time.RFC3339))
	return fmt.Sprintf("%x", sha256.Sum256([]byte(f)))[:16]
}

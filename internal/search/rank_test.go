package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"locator/internal/stores"
)

// The licence filter and the ranking rule (rank.go) against a brute-force
// oracle: the filter keeps the stores with an active licence; the answer
// is the nearest stores with, inside each BandMiles band, the demoted ones
// after the others, each group in distance order; none is left out.
func TestLicenceFilterAndRanking(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 24))
	es := randomEntries(rng, 4000)
	for i := range es {
		switch rng.IntN(5) {
		case 0:
			es[i].Licence = stores.LicenceVerified
		case 1:
			es[i].Licence = stores.LicenceDemoted
		}
	}
	ix := NewIndex()
	ix.PutAll(es)
	flags := map[int64]uint8{}
	for _, e := range es {
		flags[e.ID] = e.Licence
	}
	for n := 0; n < 200; n++ {
		q := Query{Latitude: 40.71 + rng.NormFloat64()*0.3, Longitude: -74 + rng.NormFloat64()*0.3,
			RadiusMiles: float64(1 + rng.IntN(30)), Limit: 1 + rng.IntN(60), LicenceVerified: n%2 == 0}
		all, _ := oracle(es, Query{Latitude: q.Latitude, Longitude: q.Longitude, RadiusMiles: q.RadiusMiles, Limit: MaxLimit * 100})
		var want []Hit
		for _, h := range all {
			if !q.LicenceVerified || flags[h.ID]&stores.LicenceVerified != 0 {
				want = append(want, h)
			}
		}
		band := func(h Hit) int { return int(h.Miles / BandMiles) }
		slices.SortStableFunc(want, func(a, b Hit) int {
			if c := band(a) - band(b); c != 0 {
				return c
			}
			da, db := flags[a.ID]&stores.LicenceDemoted, flags[b.ID]&stores.LicenceDemoted
			return int(da) - int(db)
		})
		more := len(want) > q.Limit
		if more {
			want = want[:q.Limit]
		}
		got, gotMore := ix.Nearest(q)
		if err := sameRanked(got, want); err != nil || gotMore != more {
			t.Fatalf("query %d %+v: %v (has_more %v, want %v)", n, q, err, gotMore, more)
		}
	}
}

// sameRanked compares two answers by id, allowing stores within 1 m of a
// band's edge or of each other to swap (float32 index against the float64 oracle).
func sameRanked(got, want []Hit) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d hits, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID {
			const slack = 2.0 / 1609.344
			if d := got[i].Miles - want[i].Miles; d > slack || d < -slack {
				return fmt.Errorf("hit %d: id %d at %.6f, want id %d at %.6f", i, got[i].ID, got[i].Miles, want[i].ID, want[i].Miles)
			}
		}
	}
	return nil
}

package bench

import (
	"fmt"
	"math"
	"sort"

	"locator/internal/search"
	"locator/internal/stores"
)

// Oracle answers searches by brute force in float64 haversine: the
// reference the index must match. Stores are kept sorted by latitude so a
// query only measures the stores of its latitude band; the band is exact, not
// an approximation: a great-circle path is never shorter than its change of
// latitude, so no store outside the band can be within the radius.
type Oracle struct {
	lat, lon []float64
	id       []int64
	flags    []uint8
}

// NewOracle indexes es (OpenNow is not supported: the mix never sets it).
func NewOracle(es []stores.Entry) *Oracle {
	order := make([]int, len(es))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return es[order[a]].Latitude < es[order[b]].Latitude })
	o := &Oracle{
		lat: make([]float64, len(es)), lon: make([]float64, len(es)),
		id: make([]int64, len(es)), flags: make([]uint8, len(es)),
	}
	for k, i := range order {
		e := &es[i]
		o.lat[k], o.lon[k], o.id[k] = e.Latitude, e.Longitude, e.ID
		o.flags[k] = flagsOf(e.Delivery, e.OrderOnline, e.Curbside)
	}
	return o
}

func flagsOf(delivery, online, curbside bool) uint8 {
	var f uint8
	if delivery {
		f |= 1
	}
	if online {
		f |= 2
	}
	if curbside {
		f |= 4
	}
	return f
}

// Nearest returns the nearest q.Limit matches within the radius, nearest
// first (ties by id), and whether more matched.
func (o *Oracle) Nearest(q search.Query) ([]search.Hit, bool) {
	all := o.all(q)
	if len(all) > q.Limit {
		return all[:q.Limit], true
	}
	return all, false
}

// all returns every match, nearest first.
func (o *Oracle) all(q search.Query) []search.Hit {
	// Band half-width in degrees, plus a hair for rounding.
	band := q.RadiusMiles/search.EarthRadiusMiles*180/math.Pi + 1e-9
	lo := sort.SearchFloat64s(o.lat, q.Latitude-band)
	want := flagsOf(q.Delivery, q.OrderOnline, q.Curbside)
	var all []search.Hit
	for k := lo; k < len(o.lat) && o.lat[k] <= q.Latitude+band; k++ {
		if o.flags[k]&want != want {
			continue
		}
		if d := search.DistanceMiles(q.Latitude, q.Longitude, o.lat[k], o.lon[k]); d <= q.RadiusMiles {
			all = append(all, search.Hit{ID: o.id[k], Miles: d})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Miles != all[j].Miles {
			return all[i].Miles < all[j].Miles
		}
		return all[i].ID < all[j].ID
	})
	return all
}

// Gate runs the correctness gate: the first n valid requests of the mix
// against the oracle. It returns the first mismatch.
func Gate(ix *search.Index, o *Oracle, rs []Request, n int) error {
	const slack = 1.0 / 1609.344
	checked := 0
	for _, r := range rs {
		if r.Invalid {
			continue
		}
		if checked == n {
			break
		}
		checked++
		q := r.Query
		got, more := ix.Nearest(q)
		all := o.all(q)
		want, wantMore := all, false
		if len(all) > q.Limit {
			want, wantMore = all[:q.Limit], true
		}
		if err := search.SameHits(got, want, q.RadiusMiles); err != nil {
			return fmt.Errorf("query %s: %w", r.RawURL, err)
		}
		// has_more may differ only when a store lies within 1 m of the
		// radius, where the float32 index may keep or drop it.
		if more != wantMore && !(len(all) > 0 && math.Abs(all[len(all)-1].Miles-q.RadiusMiles) <= slack) {
			return fmt.Errorf("query %s: has_more %v, want %v", r.RawURL, more, wantMore)
		}
	}
	if checked < n {
		return fmt.Errorf("only %d valid requests to check, want %d", checked, n)
	}
	return nil
}

package search

import "math"

// BandMiles is the width of the distance bands of the ranking rule: within
// a band, stores whose licence is expired or revoked or that are under a
// No-Tobacco-Sale Order come after the others (docs/product-rules.md,
// "Licences"). They are never left out.
const BandMiles = 0.5

// visitRanked is visit in the answer's order: a demoted store waits until
// the walk leaves its band (or ends), then follows the others of that band
// in distance order. Stores without the flag cost one bit test.
func (ix *Index) visitRanked(q *Query, fn func(r *record, miles float64) bool) {
	type held struct {
		r     *record
		miles float64
	}
	var store [8]held
	waiting := store[:0]
	band := -1.0
	stopped := false
	release := func() bool {
		for i, h := range waiting {
			if !fn(h.r, h.miles) {
				waiting = waiting[i+1:]
				return false
			}
		}
		waiting = waiting[:0]
		return true
	}
	ix.visit(q, func(r *record, miles float64) bool {
		if len(waiting) > 0 && math.Floor(miles/BandMiles) > band {
			if !release() {
				stopped = true
				return false
			}
		}
		if r.flags&flagDemoted != 0 {
			if len(waiting) == 0 {
				band = math.Floor(miles / BandMiles)
			}
			waiting = append(waiting, held{r, miles})
			return true
		}
		if !fn(r, miles) {
			stopped = true
			return false
		}
		return true
	})
	if !stopped {
		release()
	}
}

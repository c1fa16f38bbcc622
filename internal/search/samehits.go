package search

import (
	"fmt"
	"math"
)

// SameHits compares an answer with the oracle's: same ids in the same order,
// except that stores within 1 m of each other may swap and stores within 1 m
// of the radius may be present or not (float32 index, float64 oracle). The
// tests here and the SLB-1 correctness gate (internal/bench) judge answers
// by it.
func SameHits(got, want []Hit, radius float64) error {
	const slack = 1.0 / 1609.344 // 1 m in miles
	trim := func(h []Hit) []Hit {
		for len(h) > 0 && math.Abs(h[len(h)-1].Miles-radius) <= slack {
			h = h[:len(h)-1]
		}
		return h
	}
	g, w := trim(got), trim(want)
	if len(g) != len(w) {
		return fmt.Errorf("%d hits, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i].ID != w[i].ID && math.Abs(g[i].Miles-w[i].Miles) > slack {
			return fmt.Errorf("hit %d: id %d at %.6f mi, want id %d at %.6f mi", i, g[i].ID, g[i].Miles, w[i].ID, w[i].Miles)
		}
	}
	return nil
}

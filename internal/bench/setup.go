package bench

import (
	"fmt"
	"os"

	"locator/internal/search"
	"locator/internal/stores"
)

// Loaded is a data set with its entries, the index over them and the query
// mix: what the gate, the Go benchmarks and the harness start from.
type Loaded struct {
	Data    *Dataset
	Entries []stores.Entry
	Index   *search.Index
	Mix     []Request // 10,000 valid requests plus 1% invalid
}

// MixSize is the number of valid queries of the mix.
const MixSize = 10_000

// Load generates n stores of spread, indexes them and builds the mix.
func Load(n int, spread Spread) (*Loaded, error) {
	d, err := NewDataset(n, spread)
	if err != nil {
		return nil, err
	}
	es, err := d.Entries()
	if err != nil {
		return nil, fmt.Errorf("generate %d stores: %w", n, err)
	}
	ix := search.NewIndex()
	ix.PutAll(es)
	pts := make([][2]float64, len(es))
	for i := range es {
		pts[i] = [2]float64{es[i].Latitude, es[i].Longitude}
	}
	return &Loaded{Data: d, Entries: es, Index: ix, Mix: QueryMix(pts, MixSize)}, nil
}

// SizeFromEnv reads SLB_SIZE (S, M, L or a number); def when unset.
func SizeFromEnv(def int) (int, error) {
	v := os.Getenv("SLB_SIZE")
	if v == "" {
		return def, nil
	}
	return ParseSize(v)
}

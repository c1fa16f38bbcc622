package maptiles

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"locator/internal/places"
)

// MaxLabelZoom is the last zoom with its own choice of labels; the basemap's
// tiles stop there too (MapLibre enlarges them beyond).
const MaxLabelZoom = 14

// label is one place a tile may name.
type label struct {
	name  string
	kind  string
	size  int     // text size in CSS pixels, by kind and population
	x, y  float64 // world coordinates
	w, h  float64 // the label's box in CSS pixels, a generous estimate
	pop   int
	score int // higher first
}

// labeler chooses, for each zoom, the places to name so that their labels do
// not overlap (greedy by score on a collision grid). The choice does not
// depend on the tile, so labels near tile edges agree across tiles, and a
// label chosen at one zoom stays chosen at every higher zoom (the distances
// between places double at each zoom while the labels keep their size), so
// names do not flicker while zooming in. MapLibre and the preview then draw
// exactly the labels of the tile (text-allow-overlap).
type labeler struct {
	labels []label // by score, best first
	zooms  [MaxLabelZoom + 1]struct {
		once   sync.Once
		byTile map[uint64][]int32
	}
}

func newLabeler(ps []places.MapPlace) *labeler {
	l := &labeler{labels: make([]label, 0, len(ps))}
	for _, p := range ps {
		if p.Name == "" {
			continue
		}
		size := 11
		score := p.Population
		switch {
		case p.Kind == places.KindCapital:
			size, score = 15, score*4+1_000_000
		case p.Kind == places.KindCity && p.Population >= 1_000_000:
			size = 15
		case p.Kind == places.KindCity:
			size = 13
		case p.Kind == places.KindTown:
			size = 12
		}
		pt := worldPoint(p.Lon, p.Lat)
		n := float64(utf8.RuneCountInString(p.Name))
		l.labels = append(l.labels, label{
			name: p.Name, kind: p.Kind, size: size, x: pt[0], y: pt[1],
			// Average glyph advance of a sans-serif bold face is about 0.6 em;
			// the margin keeps neighbouring names apart.
			w: 0.62*float64(size)*n + 10, h: 1.3*float64(size) + 6,
			pop: p.Population, score: score,
		})
	}
	byScore(l.labels)
	return l
}

// byScore orders labels by score, highest first, then by name, places of
// equal score and name in their given order. It sorts positions, then
// moves each label once: a stable sort of the 80-byte labels themselves
// moved them around for a quarter of a second at start-up.
func byScore(ls []label) {
	order := make([]int32, len(ls))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &ls[i], &ls[j]
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	// Position k takes the label at order[k]: follow each cycle of the
	// permutation, marking a position done by pointing it at itself.
	for i := range order {
		if order[i] == int32(i) {
			continue
		}
		first := ls[i]
		j := i
		for {
			k := int(order[j])
			order[j] = int32(j)
			if k == i {
				ls[j] = first
				break
			}
			ls[j] = ls[k]
			j = k
		}
	}
}

// minPopulation is the smallest place named at a zoom (the grid leaves out
// more where places are dense); neighbourhoods are named from zoom 11 on.
func minPopulation(z int) int {
	switch {
	case z <= 2:
		return 2_000_000
	case z <= 12:
		return []int{3: 1_000_000, 4: 500_000, 5: 250_000, 6: 100_000, 7: 50_000, 8: 25_000, 9: 10_000, 10: 5_000, 11: 2_000, 12: 1_000}[z]
	}
	return 0
}

func eligible(lb *label, z int) bool {
	if lb.kind == places.KindNeighbourhood && z < 11 {
		return false
	}
	return lb.kind == places.KindCapital && z >= 2 || lb.pop >= minPopulation(z)
}

const gridCell = 256.0 // CSS pixels

// chosen returns the labels of zoom z by tile (key tileKey(x, y)).
func (l *labeler) chosen(z int) map[uint64][]int32 {
	zz := &l.zooms[z]
	zz.once.Do(func() {
		var keep []int32
		if z > 0 {
			for _, idx := range l.chosen(z - 1) {
				keep = append(keep, idx...)
			}
		}
		zz.byTile = l.choose(z, keep)
	})
	return zz.byTile
}

type box struct{ x0, y0, x1, y1 float64 }

func (l *labeler) choose(z int, keep []int32) map[uint64][]int32 {
	scale := tileSize * math.Exp2(float64(z)) // world units -> CSS pixels
	grid := map[uint64][]box{}
	cells := func(b box, fn func(k uint64) bool) bool {
		for cx := math.Floor(b.x0 / gridCell); cx <= math.Floor(b.x1/gridCell); cx++ {
			for cy := math.Floor(b.y0 / gridCell); cy <= math.Floor(b.y1/gridCell); cy++ {
				if !fn(uint64(int64(cx))<<32 | uint64(uint32(int64(cy)))) {
					return false
				}
			}
		}
		return true
	}
	free := func(b box) bool {
		return cells(b, func(k uint64) bool {
			for _, o := range grid[k] {
				if b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 {
					return false
				}
			}
			return true
		})
	}
	byTile := map[uint64][]int32{}
	n := math.Exp2(float64(z))
	place := func(i int32) {
		lb := &l.labels[i]
		px, py := lb.x*scale, lb.y*scale
		b := box{px - lb.w/2, py - lb.h/2, px + lb.w/2, py + lb.h/2}
		cells(b, func(k uint64) bool {
			grid[k] = append(grid[k], b)
			return true
		})
		k := tileKey(int(math.Min(n-1, lb.x*n)), int(math.Min(n-1, lb.y*n)))
		byTile[k] = append(byTile[k], i)
	}
	// The previous zoom's labels first (they cannot collide with each other),
	// then the rest by score; keep is in score order within each tile only,
	// so sort it back into global score order.
	slices.Sort(keep)
	taken := make(map[int32]bool, len(keep))
	for _, i := range keep {
		place(i)
		taken[i] = true
	}
	for i := range l.labels {
		lb := &l.labels[i]
		if taken[int32(i)] || !eligible(lb, z) {
			continue
		}
		px, py := lb.x*scale, lb.y*scale
		if free(box{px - lb.w/2, py - lb.h/2, px + lb.w/2, py + lb.h/2}) {
			place(int32(i))
		}
	}
	return byTile
}

func tileKey(x, y int) uint64 { return uint64(uint32(x))<<32 | uint64(uint32(y)) }

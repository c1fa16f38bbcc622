package places

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"locator/internal/places/fold"
)

// The name index serves FindCity, Geocode and Search. It holds every folded
// name of every current place and of every first-level region, sorted, so an
// exact name is a binary search and a typed prefix is a contiguous range; a
// max segment tree over the ranking of each entry finds the best entries of
// any range (however large: "s" matches 40k names) in O(k log n).
//
// Keys are Fold'ed and then canonical: "saint", "sainte", "fort" and "mount"
// become "st", "ste", "ft" and "mt", so "Saint Louis", "St. Louis" and
// "st louis" are one key.
//
// Measured on the 2-core development machine (see BenchmarkNameIndex): about
// 0.45 s to build (folding runs on both cores) and 17.6 MB of heap for
// 470k names.

// entry is one name of one place (idx < len(places)) or region (idx >=
// len(places): regions[idx-len(places)]).
type entry struct {
	off uint32 // key = index.keys[off : off+n]
	n   uint16
	alt bool // an alternate name, not the place's own
	idx int32
}

// region is a first-level region, searchable by name.
type region struct {
	country, code, name string
	lat, lon            float64 // mean of its places
	pop                 int     // sum of its places
}

type regionRef struct{ country, code string } // code "" is the whole country

// displaySuffix ends the display names of a region's places.
type displaySuffix struct {
	folded      string // Fold(region name)
	withRegion  string // ", New York, United States"
	countryOnly string // ", United States" (for "Washington" in "Washington, D.C.")
}

type nameIndex struct {
	keys    []byte
	entries []entry   // sorted by key, then idx
	score   []float32 // static rank of each entry (population, US bias, own name)
	// countryCell is the country of each 1° cell that has places: that of
	// its most populous place (the map centre's country, countryAt).
	countryCell map[[2]int16]string
	tree        []int32 // max segment tree over score: tree[n+i] = i
	regions     []region

	regionCodes  map[string]string      // "US.texas" (country + "." + folded name) -> "TX"
	regionByName map[string][]regionRef // folded region, state code or country name -> regions
	countryName  map[string]string      // "US" -> "United States"
	suffix       map[regionRef]displaySuffix
}

func (x *nameIndex) key(e entry) []byte { return x.keys[e.off : e.off+uint32(e.n)] }

// abbreviations are the words that canonical keys shorten.
var abbreviations = map[string]string{"saint": "st", "sainte": "ste", "fort": "ft", "mount": "mt"}

// canonical shortens the words of a folded name listed in abbreviations.
func canonical(folded string) string {
	if !strings.Contains(folded, "saint") && !strings.Contains(folded, "fort") && !strings.Contains(folded, "mount") {
		return folded
	}
	words := strings.Split(folded, " ")
	for i, w := range words {
		if a, ok := abbreviations[w]; ok {
			words[i] = a
		}
	}
	return strings.Join(words, " ")
}

// appendFold appends Fold(s) to dst without allocating for ASCII names (most
// of them); it must agree with Fold (TestAppendFoldMatchesFold).
func appendFold(dst []byte, s string) []byte {
	if !fold.IsASCII(s) {
		return append(dst, Fold(s)...)
	}
	start := len(dst)
	space := false
	for i := range len(s) {
		c := s[i]
		switch c {
		case '\'', '.':
			continue
		case ' ', '-', '\t', '\n', '\v', '\f', '\r':
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// staticScore ranks a place independently of the query: population on a log
// scale, a bias towards the United States (worth a 30 times larger
// population) and a bonus for a place's own name over an alternate one
// (worth a 100 times larger population: "Brooklyn" is the towns of that
// name before Oshkosh, which GeoNames also calls Brooklyn, while "NYC" and
// "Philly" still find their cities).
func staticScore(pop int, country string, alt bool) float32 {
	s := math.Log10(float64(max(pop, 1)))
	if country == "US" {
		s += 1.5
	}
	if !alt {
		s += ownNameBonus
	}
	return float32(s)
}

const ownNameBonus = 2

// countryAt is the country of the most populous place in the 1° cell of
// (lat, lon), or "" at sea and in empty land.
func (x *nameIndex) countryAt(lat, lon float64) string {
	return x.countryCell[degreeCell(lat, lon)]
}

func degreeCell(lat, lon float64) [2]int16 {
	return [2]int16{int16(math.Floor(lat)), int16(math.Floor(lon))}
}

// regionPenalty keeps a region below its main city of the same name ("New
// York" is the city first, the state second).
const regionPenalty = 3

// buildIndex runs once, on the first look-up or from BuildIndex.
func (g *Gazetteer) buildIndex() *nameIndex {
	g.indexOnce.Do(func() { g.index = g.newIndex() })
	return g.index
}

// BuildIndex builds the name index behind FindCity, Geocode and Search now
// rather than on the first look-up. The server calls it at start.
func (g *Gazetteer) BuildIndex() { g.buildIndex() }

func (g *Gazetteer) newIndex() *nameIndex {
	x := &nameIndex{
		regionCodes:  make(map[string]string, len(g.admin1)),
		regionByName: map[string][]regionRef{},
		countryName:  map[string]string{},
	}
	// The country of each 1° cell, by its most populous place.
	x.countryCell = map[[2]int16]string{}
	cellPop := map[[2]int16]int{}
	for i := range g.places {
		p := &g.places[i]
		c := degreeCell(p.Lat, p.Lon)
		if n, ok := cellPop[c]; !ok || p.Population > n {
			cellPop[c], x.countryCell[c] = p.Population, p.Country
		}
	}
	// Regions, with a centre and population from their places.
	regionAt := map[regionRef]int{}
	for k, name := range g.admin1 {
		country, code, _ := strings.Cut(k, ".")
		regionAt[regionRef{country, code}] = len(x.regions)
		x.regions = append(x.regions, region{country: country, code: code, name: name})
	}
	slices.SortFunc(x.regions, func(a, b region) int {
		return cmp.Or(strings.Compare(a.country, b.country), strings.Compare(a.code, b.code))
	})
	for i, r := range x.regions {
		regionAt[regionRef{r.country, r.code}] = i
	}
	counts := make([]int, len(x.regions))
	for i := range g.places {
		p := &g.places[i]
		if !isCurrent(p.Feature) {
			continue
		}
		if _, ok := x.countryName[p.Country]; !ok {
			x.countryName[p.Country] = countryName(p.Country)
		}
		if ri, ok := regionAt[regionRef{p.Country, p.Admin1}]; ok {
			r := &x.regions[ri]
			r.lat += p.Lat
			r.lon += p.Lon
			r.pop += p.Population
			counts[ri]++
		}
	}
	for i := range x.regions {
		if counts[i] > 0 {
			x.regions[i].lat /= float64(counts[i])
			x.regions[i].lon /= float64(counts[i])
		}
	}

	// Names, from the two halves of the places on two cores.
	half := len(g.places) / 2
	var lowKeys []byte
	var low []entry
	var wg sync.WaitGroup
	wg.Go(func() { lowKeys, low = g.placeNames(0, half) })
	highKeys, high := g.placeNames(half, len(g.places))
	wg.Wait()
	x.keys = append(lowKeys, highKeys...)
	for i := range high {
		high[i].off += uint32(len(lowKeys))
	}
	entries := append(low, high...)
	var scratch []byte
	var seen []string
	add := func(name string, idx int32, alt bool) {
		scratch = appendFold(scratch[:0], name)
		k := canonical(string(scratch))
		if k == "" || len(k) > math.MaxUint16 || slices.Contains(seen, k) {
			return
		}
		seen = append(seen, k)
		entries = append(entries, entry{off: uint32(len(x.keys)), n: uint16(len(k)), alt: alt, idx: idx})
		x.keys = append(x.keys, k...)
	}
	for i, r := range x.regions {
		seen = seen[:0]
		idx := int32(len(g.places) + i)
		add(r.name, idx, false)
		ref := regionRef{r.country, r.code}
		folded := Fold(r.name)
		x.regionCodes[r.country+"."+folded] = r.code
		x.regionByName[folded] = append(x.regionByName[folded], ref)
		if r.country == "US" && len(r.code) == 2 {
			add(r.code, idx, true) // "TX" finds Texas
			lc := strings.ToLower(r.code)
			x.regionByName[lc] = append(x.regionByName[lc], ref)
		}
	}
	x.suffix = make(map[regionRef]displaySuffix, len(x.regions))
	for _, r := range x.regions {
		c := x.countryName[r.country]
		if c == "" {
			continue // no current place in that country
		}
		d := displaySuffix{folded: Fold(r.name), withRegion: ", " + r.name + ", " + c, countryOnly: ", " + c}
		if d.folded == Fold(c) {
			d.withRegion = d.countryOnly
		}
		x.suffix[regionRef{r.country, r.code}] = d
	}
	for code, name := range x.countryName {
		k := Fold(name)
		x.regionByName[k] = append(x.regionByName[k], regionRef{country: code})
	}
	for _, a := range []string{"usa", "us", "united states of america", "america"} {
		x.regionByName[a] = append(x.regionByName[a], regionRef{country: "US"})
	}
	for _, a := range []string{"uk", "great britain", "britain"} {
		x.regionByName[a] = append(x.regionByName[a], regionRef{country: "GB"})
	}
	x.entries = x.sortEntries(entries)

	x.score = make([]float32, len(x.entries))
	for i, e := range x.entries {
		if int(e.idx) < len(g.places) {
			p := &g.places[e.idx]
			x.score[i] = staticScore(p.Population, p.Country, e.alt)
		} else {
			r := &x.regions[int(e.idx)-len(g.places)]
			x.score[i] = staticScore(r.pop, r.country, e.alt) - regionPenalty
		}
	}
	x.tree = buildMaxTree(x.score)
	return x
}

// placeNames folds the names of places [from, to) into one buffer.
func (g *Gazetteer) placeNames(from, to int) ([]byte, []entry) {
	keys := make([]byte, 0, (to-from)*24)
	entries := make([]entry, 0, (to-from)*5/2)
	var start int // this place's first entry
	add := func(name string, idx int32, alt bool) {
		off := len(keys)
		keys = appendFold(keys, name)
		k := canonicalBytes(keys[off:])
		keys = keys[:off+len(k)]
		if len(k) == 0 || len(k) > math.MaxUint16 {
			keys = keys[:off]
			return
		}
		for _, e := range entries[start:] {
			if bytes.Equal(keys[e.off:e.off+uint32(e.n)], k) {
				keys = keys[:off]
				return
			}
		}
		entries = append(entries, entry{off: uint32(off), n: uint16(len(k)), alt: alt, idx: idx})
	}
	for i := from; i < to; i++ {
		p := &g.places[i]
		if !isCurrent(p.Feature) {
			continue
		}
		start = len(entries)
		add(p.Name, int32(i), false)
		if p.ASCIIName != p.Name {
			add(p.ASCIIName, int32(i), false)
		}
		for _, a := range p.AltNames {
			add(a, int32(i), true)
		}
	}
	return keys, entries
}

// canonicalBytes is canonical in place: the result shares b's memory.
func canonicalBytes(b []byte) []byte {
	if !bytes.Contains(b, []byte("saint")) && !bytes.Contains(b, []byte("fort")) && !bytes.Contains(b, []byte("mount")) {
		return b
	}
	return append(b[:0], canonical(string(b))...)
}

// sortEntries sorts by key, then idx. A stable radix sort on the first 8
// bytes of the key (entries arrive in idx order) does most of the work in
// four linear passes; runs sharing those 8 bytes are then sorted by the whole
// key. This is several times faster than a comparison sort of 500k keys.
func (x *nameIndex) sortEntries(entries []entry) []entry {
	type item struct {
		prefix uint64
		e      entry
	}
	items := make([]item, len(entries))
	for i, e := range entries {
		var p uint64
		k := x.key(e)
		for j := range 8 {
			p <<= 8
			if j < len(k) {
				p |= uint64(k[j])
			}
		}
		items[i] = item{p, e}
	}
	tmp := make([]item, len(items))
	var count [1 << 16]int
	for shift := 0; shift < 64; shift += 16 {
		clear(count[:])
		for _, it := range items {
			count[(it.prefix>>shift)&0xffff]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, it := range items {
			d := (it.prefix >> shift) & 0xffff
			tmp[count[d]] = it
			count[d]++
		}
		items, tmp = tmp, items
	}
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && items[hi].prefix == items[lo].prefix {
			hi++
		}
		if hi-lo > 1 {
			slices.SortStableFunc(items[lo:hi], func(a, b item) int { return bytes.Compare(x.key(a.e), x.key(b.e)) })
		}
		lo = hi
	}
	out := entries[:0]
	for _, it := range items {
		out = append(out, it.e)
	}
	return slices.Clip(out)
}

// buildMaxTree builds a bottom-up segment tree whose node holds the position
// of the highest score below it (ties: the lower position).
func buildMaxTree(score []float32) []int32 {
	n := len(score)
	t := make([]int32, 2*n)
	for i := range n {
		t[n+i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		a, b := t[2*i], t[2*i+1]
		if score[b] > score[a] {
			a = b
		}
		t[i] = a
	}
	return t
}

// argmax returns the position of the best score in [lo, hi), which must not
// be empty.
func (x *nameIndex) argmax(lo, hi int) int32 {
	n := len(x.score)
	best := int32(-1)
	better := func(c int32) {
		if best < 0 || x.score[c] > x.score[best] || (x.score[c] == x.score[best] && c < best) {
			best = c
		}
	}
	for l, r := lo+n, hi+n; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			better(x.tree[l])
			l++
		}
		if r&1 == 1 {
			r--
			better(x.tree[r])
		}
	}
	return best
}

// rangeOf returns the entries whose key starts with prefix: [lo, hi), and
// eq, the end of those equal to it ([lo, eq)).
func (x *nameIndex) rangeOf(prefix string) (lo, eq, hi int) {
	n := len(x.entries)
	lo = sort.Search(n, func(i int) bool { return string(x.key(x.entries[i])) >= prefix })
	eq = lo + sort.Search(n-lo, func(i int) bool { return string(x.key(x.entries[lo+i])) != prefix })
	hi = eq + sort.Search(n-eq, func(i int) bool { return !bytes.HasPrefix(x.key(x.entries[eq+i]), []byte(prefix)) })
	return lo, eq, hi
}

// best calls fn with the entries of [lo, hi) from the highest score down
// until fn returns false or budget entries were visited.
func (x *nameIndex) best(lo, hi, budget int, fn func(pos int) bool) {
	if lo >= hi {
		return
	}
	type span struct {
		lo, hi int
		top    int32
	}
	h := []span{{lo, hi, x.argmax(lo, hi)}}
	less := func(a, b span) bool { return x.score[a.top] > x.score[b.top] }
	push := func(s span) {
		h = append(h, s)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !less(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
	}
	pop := func() span {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if r < len(h) && less(h[r], h[m]) {
				m = r
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
		return top
	}
	for ; len(h) > 0 && budget > 0; budget-- {
		s := pop()
		if !fn(int(s.top)) {
			return
		}
		if int(s.top) > s.lo {
			push(span{s.lo, int(s.top), x.argmax(s.lo, int(s.top))})
		}
		if int(s.top)+1 < s.hi {
			push(span{int(s.top) + 1, s.hi, x.argmax(int(s.top)+1, s.hi)})
		}
	}
}

// countryName is the English short name of an ISO 3166-1 country code.
func countryName(code string) string {
	r, err := language.ParseRegion(code)
	if err != nil {
		return code
	}
	if n := display.English.Regions().Name(r); n != "" {
		return n
	}
	return code
}

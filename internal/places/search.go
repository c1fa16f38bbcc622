package places

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxQueryLength is the longest place search query, in characters.
const MaxQueryLength = 200

// Result kinds.
const (
	KindCity          = "city"
	KindNeighbourhood = "neighbourhood" // a section of a city (GeoNames PPLX)
	KindRegion        = "region"        // a state or other first-level region
	KindPostalCode    = "postal_code"
	KindAddress       = "address" // from the upstream geocoder
)

// Result is one place search answer.
type Result struct {
	DisplayName string // "Brooklyn, New York, United States"
	Lat, Lon    float64
	Kind        string
}

// Search finds up to limit places for what a person types in a search box,
// best first: a city with or without its state or country ("Austin, TX",
// "austin texas", "Munich Germany"), a neighbourhood ("Williamsburg"), a
// state ("Texas"), a US ZIP code or ZIP prefix ("10001", "100"), common
// abbreviations and alternate names ("NYC", "St. Louis", "Ft Worth"), with
// or without accents ("Munchen", "München"). The last word may be typed in
// part ("brookl"). Places rank by population with a bias towards the United
// States; an exact name beats a prefix. A street address ("350 5th Ave, New
// York, NY 10118") is answered from its ZIP code or its city. Empty or
// unknown queries answer nothing; queries over MaxQueryLength characters too.
func (g *Gazetteer) Search(q string, limit int) []Result { return g.SearchNear(q, limit, nil) }

// Near is the centre of the map a search is made from.
type Near struct{ Lat, Lon float64 }

// SearchNear is Search with the map's centre as a tie-breaker: of places
// that rank about the same, the nearer comes first (see nearBonus).
func (g *Gazetteer) SearchNear(q string, limit int, near *Near) []Result {
	if limit <= 0 {
		return nil
	}
	toks := queryTokens(q)
	if len(toks) == 0 || len(toks) > 16 || utf8.RuneCountInString(q) > MaxQueryLength {
		return nil
	}
	if res, ok := g.searchZIP(toks, limit); ok {
		return res
	}
	if looksLikeAddress(toks) {
		return g.searchAddress(toks, limit, near)
	}
	return g.searchNames(toks, limit, false, near)
}

// queryTokens folds a query and splits it into words; commas and the like
// separate words.
func queryTokens(q string) []string {
	q = strings.Map(func(r rune) rune {
		switch r {
		case ',', ';', '/', '(', ')', '"', '|':
			return ' '
		}
		return r
	}, q)
	f := Fold(q)
	if f == "" {
		return nil
	}
	return strings.Split(f, " ")
}

// looksLikeAddress: a house number first, then words ("123 main st").
func looksLikeAddress(toks []string) bool {
	if len(toks) < 2 || toks[0][0] < '0' || toks[0][0] > '9' {
		return false
	}
	for _, t := range toks[1:] {
		if t[0] < '0' || t[0] > '9' {
			return true
		}
	}
	return false
}

// LooksLikeAddress reports whether a query starts with a house number
// followed by words: a street address, which only an upstream geocoder can
// place exactly.
func LooksLikeAddress(q string) bool { return looksLikeAddress(queryTokens(q)) }

// searchZIP answers digit-only queries: a ZIP code ("10001", "10001-1234")
// or a ZIP prefix of 3 or 4 digits ("100": 10001, 10002, ... in code order).
// ok is false for queries that are not digits.
func (g *Gazetteer) searchZIP(toks []string, limit int) ([]Result, bool) {
	for _, t := range toks {
		if !allDigits(t) {
			return nil, false
		}
	}
	code := strings.Join(toks, "")
	switch {
	case len(toks) == 1 && (len(code) == 3 || len(code) == 4):
		i := sort.Search(len(g.zips), func(i int) bool { return g.zips[i].Code >= code })
		var out []Result
		for ; i < len(g.zips) && len(out) < limit && strings.HasPrefix(g.zips[i].Code, code); i++ {
			out = append(out, g.zipResult(g.zips[i]))
		}
		return out, true
	case len(code) == 5 || (len(code) == 9 && len(toks) <= 2):
		if z, ok := g.ZIP(code); ok {
			return []Result{g.zipResult(z)}, true
		}
	}
	return nil, true
}

func (g *Gazetteer) zipResult(z ZIP) Result {
	name := z.Code
	if z.Place != "" {
		name += ", " + z.Place
	}
	if z.State != "" {
		name += ", " + z.State
	}
	return Result{DisplayName: name + ", United States", Lat: z.Lat, Lon: z.Lon, Kind: KindPostalCode}
}

// searchAddress answers a street address offline: its ZIP code if it has a
// known one, else the place its last words name ("... austin tx").
func (g *Gazetteer) searchAddress(toks []string, limit int, near *Near) []Result {
	for i := len(toks) - 1; i > 0; i-- {
		if len(toks[i]) == 5 && allDigits(toks[i]) {
			if z, ok := g.ZIP(toks[i]); ok {
				return []Result{g.zipResult(z)}
			}
		}
	}
	for i := 1; i < len(toks); i++ {
		if allDigits(toks[i]) {
			continue
		}
		rest := toks[i:]
		for len(rest) > 0 && allDigits(rest[len(rest)-1]) {
			rest = rest[:len(rest)-1] // an unknown ZIP
		}
		if len(rest) == 0 {
			break
		}
		if res := g.searchNames(rest, limit, true, near); len(res) > 0 {
			return res
		}
	}
	return nil
}

// interpretation is one reading of a query: the words naming the place, and
// the regions the remaining words named.
type interpretation struct {
	name   []string
	filter []regionRef
	bonus  float32
}

// exactBonus ranks an exact name above names it is a prefix of.
const exactBonus = 2

// exactOwnBonus ranks a place whose own name is what was typed above one of
// a like size that GeoNames also calls so (worth a 3 times larger
// population): Williamsburg, Colorado before Rockville, Maryland, once
// Williamsburg (m3). Small, so that "new york" is still the city before
// the state and "Brook" Brooklyn before Brook, Indiana.
const exactOwnBonus = 0.5

// regionBonus ranks places in the region a query named above other readings.
const regionBonus = 3

// fuzzyPenalty is taken off a name per typing error ("brookyln") when no
// name starts with what was typed.
const fuzzyPenalty = 1.5

// Distance from the map's centre breaks near-ties: a place at the centre
// gains nearWeight (as much as 30 times the population), falling to nothing
// at nearRadiusKm.
const (
	nearWeight   = 1.5
	nearRadiusKm = 500
)

// homeBonus lifts the places in the country of the map's centre (worth a
// 30 times larger population, on top of the US bias of staticScore).
const homeBonus = 1.5

// scored is a candidate's best score and whether it came from the place's
// own name (not an alternate one).
type scored struct {
	s   float32
	own bool
}

func (g *Gazetteer) searchNames(toks []string, limit int, exactOnly bool, near *Near) []Result {
	x := g.buildIndex()
	interps := []interpretation{{name: toks}}
	for t := 1; t <= 3 && t < len(toks); t++ {
		phrase := strings.Join(toks[len(toks)-t:], " ")
		if refs := x.regionByName[phrase]; len(refs) > 0 {
			interps = append(interps, interpretation{name: toks[:len(toks)-t], filter: refs, bonus: regionBonus})
		}
	}
	scores := map[int32]scored{}
	want := 3*limit + 5
	for _, in := range interps {
		raw := strings.Join(in.name, " ")
		keys := []string{canonical(raw)}
		if keys[0] != raw {
			keys = append(keys, raw) // "fort" is also the start of "fortaleza"
		}
		for _, k := range keys {
			g.collect(x, k, in, exactOnly, want, scores)
		}
	}
	if len(scores) == 0 && !exactOnly {
		// Nothing starts with what was typed: a typing error, perhaps.
		for _, in := range interps {
			g.collectFuzzy(x, canonical(strings.Join(in.name, " ")), in, scores)
		}
	}
	if near != nil {
		home := x.countryAt(near.Lat, near.Lon)
		for idx, sc := range scores {
			// The shopper's country first: "Hoboken" from New York is
			// Hoboken, Georgia before Hoboken, Belgium (m3).
			if home != "" && g.countryOf(x, idx) == home {
				sc.s += homeBonus
			}
			// Being near lifts a place found by its own name only: Rockville,
			// Maryland, once called Williamsburg, is not nearer "Williamsburg"
			// for being near New York.
			lat, lon := g.coords(x, idx)
			if d := haversine(near.Lat, near.Lon, lat, lon) * 6371; d < nearRadiusKm && sc.own {
				sc.s += float32(nearWeight * (1 - d/nearRadiusKm))
			}
			scores[idx] = sc
		}
	}
	type cand struct {
		idx   int32
		score float32
	}
	cands := make([]cand, 0, len(scores))
	for idx, s := range scores {
		cands = append(cands, cand{idx, s.s})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.idx, b.idx))
	})
	out := make([]Result, 0, min(limit, len(cands)))
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		r := g.result(x, c.idx)
		if !slices.ContainsFunc(out, func(o Result) bool { return o.DisplayName == r.DisplayName }) {
			out = append(out, r)
		}
	}
	return out
}

// collect adds the best entries for key under one interpretation to scores
// (place or region -> best score).
func (g *Gazetteer) collect(x *nameIndex, key string, in interpretation, exactOnly bool, want int, scores map[int32]scored) {
	if key == "" {
		return
	}
	lo, eq, hi := x.rangeOf(key)
	if exactOnly {
		hi = eq
	}
	found := 0
	visit := func(pos int) bool {
		e := x.entries[pos]
		if in.filter != nil && !g.inRegions(x, e.idx, in.filter) {
			return true
		}
		s := x.score[pos] + in.bonus
		if pos < eq {
			s += exactBonus
			if !e.alt && int(e.idx) < len(g.places) { // a place, not a region
				s += exactOwnBonus
			}
		}
		if old, ok := scores[e.idx]; !ok || s > old.s {
			scores[e.idx] = scored{s, !e.alt}
		}
		found++
		return found < want
	}
	if in.filter != nil && hi-lo <= 4096 {
		// Filtered and small enough: every entry is looked at.
		for pos := lo; pos < hi; pos++ {
			visit(pos)
		}
		return
	}
	// Exact names first, then prefixes, each from the best down. A filter
	// over a huge range ("s tx") looks at the best 200 names only, which
	// keeps such queries near 100 us; one more letter narrows the range
	// enough for the full scan above.
	budget := 4 * want
	if in.filter != nil {
		budget = 200
	}
	x.best(lo, eq, budget, visit)
	found = 0
	x.best(eq, hi, budget, visit)
}

// collectFuzzy adds to scores the names one typing error away from key (two
// for keys of 8 letters or more): a letter missing, extra, wrong or two
// swapped. Only names that begin with key's first three letters are looked
// at (a few hundred at most for real words; nothing for "asdfghjkl"), which
// keeps this fallback to tens of microseconds.
func (g *Gazetteer) collectFuzzy(x *nameIndex, key string, in interpretation, scores map[int32]scored) {
	if len(key) < 4 {
		return
	}
	maxEdits := 1
	if len(key) >= 8 {
		maxEdits = 2
	}
	scan := func(lo, hi int) {
		for pos := lo; pos < hi; pos++ {
			e := x.entries[pos]
			if n := int(e.n); n < len(key)-maxEdits || n > len(key)+maxEdits {
				continue
			}
			d := editDistance(key, x.key(e), maxEdits)
			if d > maxEdits || (in.filter != nil && !g.inRegions(x, e.idx, in.filter)) {
				continue
			}
			s := x.score[pos] + in.bonus + exactBonus - fuzzyPenalty*float32(d)
			if old, ok := scores[e.idx]; !ok || s > old.s {
				scores[e.idx] = scored{s, !e.alt}
			}
		}
	}
	lo, _, hi := x.rangeOf(key[:3])
	scan(lo, hi)
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of neighbours), or limit+1
// once it exceeds limit.
func editDistance(a string, b []byte, limit int) int {
	var rows [3][32]int
	if len(a) >= len(rows[0]) || len(b) >= len(rows[0]) {
		return limit + 1
	}
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// countryOf is a place's or region's country code.
func (g *Gazetteer) countryOf(x *nameIndex, idx int32) string {
	if int(idx) >= len(g.places) {
		return x.regions[int(idx)-len(g.places)].country
	}
	return g.places[idx].Country
}

// coords is where a place or region is.
func (g *Gazetteer) coords(x *nameIndex, idx int32) (lat, lon float64) {
	if int(idx) >= len(g.places) {
		r := &x.regions[int(idx)-len(g.places)]
		return r.lat, r.lon
	}
	return g.places[idx].Lat, g.places[idx].Lon
}

func (g *Gazetteer) inRegions(x *nameIndex, idx int32, refs []regionRef) bool {
	if int(idx) >= len(g.places) {
		r := &x.regions[int(idx)-len(g.places)]
		for _, ref := range refs {
			if ref.code == "" && ref.country == r.country {
				return true
			}
		}
		return false
	}
	p := &g.places[idx]
	for _, ref := range refs {
		if ref.country == p.Country && (ref.code == "" || ref.code == p.Admin1) {
			return true
		}
	}
	return false
}

// result describes a place or region: "Brooklyn, New York, United States".
func (g *Gazetteer) result(x *nameIndex, idx int32) Result {
	if int(idx) >= len(g.places) {
		r := &x.regions[int(idx)-len(g.places)]
		return Result{DisplayName: r.name + ", " + x.countryName[r.country], Lat: r.lat, Lon: r.lon, Kind: KindRegion}
	}
	p := &g.places[idx]
	name := p.Name
	if sfx, ok := x.suffix[regionRef{p.Country, p.Admin1}]; ok {
		fn := Fold(p.Name)
		if sfx.folded != fn && !strings.HasPrefix(sfx.folded, fn+" ") {
			name += sfx.withRegion
		} else {
			name += sfx.countryOnly
		}
	} else if c := x.countryName[p.Country]; c != "" && c != p.Name {
		name += ", " + c
	}
	kind := KindCity
	if p.Feature == "PPLX" {
		kind = KindNeighbourhood
	}
	return Result{DisplayName: name, Lat: p.Lat, Lon: p.Lon, Kind: kind}
}

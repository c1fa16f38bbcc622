package licences

import (
	"cmp"
	"math"
	"slices"

	"locator/internal/search"
)

// Matching a registry row to stores: a store is a candidate when its
// normalised address equals the row's (and the ZIP codes agree where both
// have one), or when the row has a position within NearMetres of the
// store's. The confidence then adds how alike the names are (the legal or
// the trade name, whichever is closer). A sure match applies at once; a
// doubtful one waits for a moderator (docs/licences.md, "Matching").
const (
	NearMetres = 75
	Sure       = 0.85 // at or above: applied
	Doubtful   = 0.5  // at or above: queued for a moderator; below: no match
	// Two candidates of one row closer than this are ambiguous: both wait.
	ambiguity = 0.1
)

// StoreRef is what matching needs of a store.
type StoreRef struct {
	ID       int64
	Name     string
	Address  string
	Zip      string
	Lat, Lon float64
	addrKey  string
}

// Candidate is a store a row may belong to.
type Candidate struct {
	StoreID    int64
	Confidence float64
}

// Sure reports whether the candidate applies without a moderator.
func (c Candidate) Sure() bool { return c.Confidence >= Sure }

type cell struct{ lat, lon int32 }

// cellDeg is the grid's cell size: 0.001° is 111 m of latitude, so the
// cells around a point's own hold everything within NearMetres.
const cellDeg = 0.001

func cellOf(lat, lon float64) cell {
	return cell{int32(math.Floor(lat / cellDeg)), int32(math.Floor(lon / cellDeg))}
}

// Stores finds the candidate stores of registry rows.
type Stores struct {
	refs   []StoreRef
	byAddr map[string][]int
	byCell map[cell][]int
}

// NewStores indexes stores for matching.
func NewStores(refs []StoreRef) *Stores {
	s := &Stores{refs: refs, byAddr: map[string][]int{}, byCell: map[cell][]int{}}
	for i := range s.refs {
		r := &s.refs[i]
		r.addrKey = AddressKey(r.Address)
		r.Zip = zip5(r.Zip)
		if r.addrKey != "" {
			s.byAddr[r.addrKey] = append(s.byAddr[r.addrKey], i)
		}
		c := cellOf(r.Lat, r.Lon)
		s.byCell[c] = append(s.byCell[c], i)
	}
	return s
}

// Candidates returns the stores row may belong to, most confident first,
// at or above Doubtful; when two are too close to tell apart, none is sure.
func (s *Stores) Candidates(row *Row) []Candidate {
	seen := map[int]bool{}
	var out []Candidate
	try := func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		if c, ok := score(row, &s.refs[i]); ok {
			out = append(out, Candidate{StoreID: s.refs[i].ID, Confidence: c})
		}
	}
	if k := AddressKey(row.Address); k != "" {
		for _, i := range s.byAddr[k] {
			try(i)
		}
	}
	if row.Lat != nil {
		c := cellOf(*row.Lat, *row.Lon)
		for dl := int32(-1); dl <= 1; dl++ {
			for dn := int32(-1); dn <= 1; dn++ {
				for _, i := range s.byCell[cell{c.lat + dl, c.lon + dn}] {
					try(i)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Candidate) int {
		if c := cmp.Compare(b.Confidence, a.Confidence); c != 0 {
			return c
		}
		return cmp.Compare(a.StoreID, b.StoreID)
	})
	if len(out) > 1 && out[0].Confidence-out[1].Confidence < ambiguity {
		for i := range out {
			out[i].Confidence = min(out[i].Confidence, Sure-0.01)
		}
	}
	return out
}

// score is the confidence that row is store st's, false when st is no
// candidate at all.
func score(row *Row, st *StoreRef) (float64, bool) {
	key := AddressKey(row.Address)
	sameAddr := key != "" && key == st.addrKey
	zip := zip5(row.Zip)
	zipAgrees := zip == "" || st.Zip == "" || zip == st.Zip
	near := row.Lat != nil && metres(*row.Lat, *row.Lon, st.Lat, st.Lon) <= NearMetres
	var base float64
	switch {
	case sameAddr && zipAgrees && near:
		base = 0.7
	case sameAddr && zipAgrees:
		base = 0.6
	case near && zipAgrees:
		base = 0.45
	case near:
		base = 0.35
	default:
		return 0, false
	}
	name := max(NameSimilarity(row.Name, st.Name), NameSimilarity(row.TradeName, st.Name))
	c := math.Round(min(1, base+0.4*name)*100) / 100
	return c, c >= Doubtful
}

// metres is the great-circle distance between two points.
func metres(lat1, lon1, lat2, lon2 float64) float64 {
	return search.DistanceMiles(lat1, lon1, lat2, lon2) * 1609.344
}

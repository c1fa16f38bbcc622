package places

// Kinds of MapPlace besides KindCity (100,000 inhabitants or more, or a
// region's seat, PPLA) and KindNeighbourhood (a section of a city, PPLX:
// "Williamsburg", "Harlem"), from the GeoNames feature code and population.
const (
	KindCapital = "capital" // a country's capital (PPLC)
	KindTown    = "town"    // 10,000 inhabitants or more
	KindVillage = "village" // the rest of the towns in their own right
)

// MapPlace is a place as a map labels it: a name at a point, a kind and a
// population to rank it by.
type MapPlace struct {
	Name       string
	Kind       string
	Population int
	Lat, Lon   float64
}

// MapPlaces returns the places a map may label: towns in their own right
// and sections of cities, without localities (PPLL) and places that no
// longer exist. The result is a new slice, in the gazetteer's order.
func (g *Gazetteer) MapPlaces() []MapPlace {
	out := make([]MapPlace, 0, len(g.places))
	for i := range g.places {
		p := &g.places[i]
		kind := mapKind(p.Feature, p.Population)
		if kind == "" {
			continue
		}
		out = append(out, MapPlace{Name: p.Name, Kind: kind, Population: p.Population, Lat: p.Lat, Lon: p.Lon})
	}
	return out
}

func mapKind(feature string, population int) string {
	switch {
	case !isCurrent(feature) || feature == "PPLL":
		return ""
	case feature == "PPLX":
		return KindNeighbourhood
	case feature == "PPLC":
		return KindCapital
	case population >= 100_000 || feature == "PPLA":
		return KindCity
	case population >= 10_000:
		return KindTown
	}
	return KindVillage
}

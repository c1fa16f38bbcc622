package insights

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/places"
)

// Periods an owner may ask for, in days.
var Periods = []int{7, 30, 90}

// MaxDemandDays bounds an operator's period: the retention.
const MaxDemandDays = 800

// Counts are a store's events of a period (or a day), by kind.
type Counts struct {
	Impression  int64 `json:"impression"`
	Panel       int64 `json:"panel"`
	Page        int64 `json:"page"`
	Call        int64 `json:"call"`
	Directions  int64 `json:"directions"`
	Website     int64 `json:"website"`
	OnlineStore int64 `json:"online_store"`
	Share       int64 `json:"share"`
	Favourite   int64 `json:"favourite"`
}

func (c *Counts) add(k Kind, n int64) {
	p := [...]*int64{&c.Impression, &c.Panel, &c.Page, &c.Call, &c.Directions, &c.Website, &c.OnlineStore, &c.Share, &c.Favourite}
	if k < numKinds {
		*p[k] += n
	}
}

// DayCounts are one day's counts.
type DayCounts struct {
	Day string `json:"day"`
	Counts
}

// StoreReport is what an owner sees of one store: each day of the period,
// the period's totals and uniques, and the totals of the period before.
type StoreReport struct {
	StoreID  int64       `json:"store_id"`
	Days     int         `json:"days"`
	From     string      `json:"from"` // first day, UTC
	To       string      `json:"to"`   // last day (today), UTC
	Series   []DayCounts `json:"series"`
	Current  Counts      `json:"current"`
	Previous Counts      `json:"previous"`
	Uniques  Counts      `json:"uniques"` // visitors per kind, summed per day (docs/insights.md)
}

// periodOf is the days-long period ending today and the one before it.
func periodOf(now time.Time, days int) (prevFrom, from, to day) {
	to = dayOf(now)
	from = to - day(days) + 1
	return from - day(days), from, to
}

// ReadStoreReport reads a store's report for a period of days (7, 30 or 90).
func ReadStoreReport(ctx context.Context, q db.Querier, store int64, days int, now time.Time) (*StoreReport, error) {
	if !slices.Contains(Periods, days) {
		return nil, apperr.Invalidf("days must be 7, 30 or 90")
	}
	prevFrom, from, to := periodOf(now, days)
	rep := &StoreReport{StoreID: store, Days: days, From: from.String(), To: to.String(), Series: make([]DayCounts, days)}
	for i := range rep.Series {
		rep.Series[i].Day = (from + day(i)).String()
	}
	rows, err := q.Query(ctx, `SELECT day, kind, events, uniques FROM insight_store_days
		WHERE store_id = $1 AND day >= $2 AND day <= $3`, store, prevFrom.String(), to.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d, kind string
		var events, uniques int64
		if err := rows.Scan(&d, &kind, &events, &uniques); err != nil {
			return nil, err
		}
		k, ok := ParseKind(kind)
		if !ok {
			continue
		}
		t, err := time.Parse(time.DateOnly, d)
		if err != nil {
			continue
		}
		dd := dayOf(t)
		if dd < from {
			rep.Previous.add(k, events)
			continue
		}
		rep.Current.add(k, events)
		rep.Uniques.add(k, uniques)
		rep.Series[dd-from].add(k, events)
	}
	return rep, rows.Err()
}

// Cell is the searches of one ~1 km cell over a period.
type Cell struct {
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	Searches    int64   `json:"searches"`
	ZeroResults int64   `json:"zero_results"`
}

// Area is a place or a postal code with its searches.
type Area struct {
	Name        string  `json:"name"`
	Region      string  `json:"region,omitempty"` // state or region of a place; the place of a postal code
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	Searches    int64   `json:"searches"`
	ZeroResults int64   `json:"zero_results"`
}

// FilterUse is how many searches used a filter.
type FilterUse struct {
	Filter   string `json:"filter"`
	Searches int64  `json:"searches"`
}

// Demand is what operators see: where shoppers searched and found nothing.
type Demand struct {
	Days        int         `json:"days"`
	From        string      `json:"from"`
	To          string      `json:"to"`
	Searches    int64       `json:"searches"`
	ZeroResults int64       `json:"zero_results"`
	Visitors    int64       `json:"visitors"` // daily uniques summed over the period
	Cells       []Cell      `json:"cells"`
	Places      []Area      `json:"places"`       // by zero-result searches, most first
	PostalCodes []Area      `json:"postal_codes"` // the same by nearest US ZIP code
	Filters     []FilterUse `json:"filters"`      // most used first
}

// MaxCells bounds the cells a demand answer holds (the busiest).
const MaxCells = 5000

// namedCells is how many zero-result cells are named (nearest place and
// ZIP): the busiest; the others are rarely worth recruiting for.
const namedCells = 200

// topAreas is how many places and postal codes an answer lists.
const topAreas = 20

// DemandReport reads the searches of the last days (1 to MaxDemandDays)
// and names the busiest zero-result cells with gaz (nil: unnamed).
func DemandReport(ctx context.Context, q db.Querier, gaz *places.Gazetteer, days int, now time.Time) (*Demand, error) {
	if days < 1 || days > MaxDemandDays {
		return nil, apperr.Invalidf("days must be from 1 to %d", MaxDemandDays)
	}
	_, from, to := periodOf(now, days)
	d := &Demand{Days: days, From: from.String(), To: to.String(), Cells: []Cell{}, Places: []Area{}, PostalCodes: []Area{}, Filters: []FilterUse{}}
	rows, err := q.Query(ctx, `SELECT cell_lat, cell_lon, filters, SUM(searches), SUM(zero_results) FROM insight_search_days
		WHERE day >= $1 AND day <= $2 GROUP BY cell_lat, cell_lon, filters`, from.String(), to.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type ll struct{ lat, lon int32 }
	cells := map[ll]*Cell{}
	var byFilter [numFilters]int64
	for rows.Next() {
		var lat, lon int32
		var filters int
		var searches, zero int64
		if err := rows.Scan(&lat, &lon, &filters, &searches, &zero); err != nil {
			return nil, err
		}
		c := cells[ll{lat, lon}]
		if c == nil {
			c = &Cell{Latitude: CellCentre(lat), Longitude: CellCentre(lon)}
			cells[ll{lat, lon}] = c
		}
		c.Searches += searches
		c.ZeroResults += zero
		d.Searches += searches
		d.ZeroResults += zero
		for i := range byFilter {
			if filters&(1<<i) != 0 {
				byFilter[i] += searches
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if err := q.QueryRow(ctx, `SELECT COALESCE(SUM(visitors), 0) FROM insight_days WHERE day >= $1 AND day <= $2`,
		from.String(), to.String()).Scan(&d.Visitors); err != nil {
		return nil, err
	}
	for _, c := range cells {
		d.Cells = append(d.Cells, *c)
	}
	slices.SortFunc(d.Cells, func(a, b Cell) int {
		return cmp.Or(cmp.Compare(b.Searches, a.Searches), cmp.Compare(b.ZeroResults, a.ZeroResults),
			cmp.Compare(a.Latitude, b.Latitude), cmp.Compare(a.Longitude, b.Longitude))
	})
	if len(d.Cells) > MaxCells {
		d.Cells = d.Cells[:MaxCells]
	}
	for i, n := range byFilter {
		if n > 0 {
			d.Filters = append(d.Filters, FilterUse{Filter: FilterNames[i], Searches: n})
		}
	}
	slices.SortStableFunc(d.Filters, func(a, b FilterUse) int { return cmp.Compare(b.Searches, a.Searches) })
	d.Places, d.PostalCodes = nameCells(gaz, d.Cells)
	return d, nil
}

// nameCells groups the busiest zero-result cells by their nearest place
// and nearest US ZIP code (within maxZIPKm), most zero results first.
func nameCells(gaz *places.Gazetteer, cells []Cell) (byPlace, byZIP []Area) {
	byPlace, byZIP = []Area{}, []Area{}
	if gaz == nil {
		return
	}
	zero := make([]Cell, 0, len(cells))
	for _, c := range cells {
		if c.ZeroResults > 0 {
			zero = append(zero, c)
		}
	}
	slices.SortStableFunc(zero, func(a, b Cell) int { return cmp.Compare(b.ZeroResults, a.ZeroResults) })
	if len(zero) > namedCells {
		zero = zero[:namedCells]
	}
	placeAt, zipAt := map[string]int{}, map[string]int{}
	pl, zs := gaz.Places(), gaz.ZIPs()
	addTo := func(list *[]Area, at map[string]int, key string, a Area, c Cell) {
		i, ok := at[key]
		if !ok {
			i = len(*list)
			at[key] = i
			*list = append(*list, a)
		}
		(*list)[i].Searches += c.Searches
		(*list)[i].ZeroResults += c.ZeroResults
	}
	for _, c := range zero {
		if i := nearest(len(pl), func(i int) (float64, float64) { return pl[i].Lat, pl[i].Lon }, c); i >= 0 {
			p := pl[i]
			region := gaz.Admin1Name(p.Country, p.Admin1)
			if region == "" {
				region = p.Country
			}
			addTo(&byPlace, placeAt, p.Country+"|"+p.Admin1+"|"+p.Name, Area{Name: p.Name, Region: region, Latitude: p.Lat, Longitude: p.Lon}, c)
		}
		if i := nearest(len(zs), func(i int) (float64, float64) { return zs[i].Lat, zs[i].Lon }, c); i >= 0 &&
			kmBetween(c.Latitude, c.Longitude, zs[i].Lat, zs[i].Lon) <= maxZIPKm {
			z := zs[i]
			addTo(&byZIP, zipAt, z.Code, Area{Name: z.Code, Region: z.Place, Latitude: z.Lat, Longitude: z.Lon}, c)
		}
	}
	order := func(a, b Area) int {
		return cmp.Or(cmp.Compare(b.ZeroResults, a.ZeroResults), cmp.Compare(b.Searches, a.Searches), cmp.Compare(a.Name, b.Name))
	}
	slices.SortStableFunc(byPlace, order)
	slices.SortStableFunc(byZIP, order)
	return byPlace[:min(len(byPlace), topAreas)], byZIP[:min(len(byZIP), topAreas)]
}

// maxZIPKm: a cell farther than this from every ZIP code's centre (outside
// the US) gets no postal code.
const maxZIPKm = 25

// nearest is the index of the point nearest c by an equirectangular
// distance (no trigonometry per point: 200k places in well under a
// millisecond), or -1.
func nearest(n int, at func(i int) (lat, lon float64), c Cell) int {
	k := math.Cos(c.Latitude * math.Pi / 180)
	best, bestD := -1, math.Inf(1)
	for i := range n {
		lat, lon := at(i)
		dy := lat - c.Latitude
		if dy*dy >= bestD {
			continue
		}
		dx := lon - c.Longitude
		if dx > 180 {
			dx -= 360
		} else if dx < -180 {
			dx += 360
		}
		dx *= k
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

func kmBetween(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * 6371 * math.Asin(math.Min(1, math.Sqrt(a)))
}

package search

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// randomEntries spreads n stores over a few clusters and the continental US.
func randomEntries(rng *rand.Rand, n int) []stores.Entry {
	centres := [][2]float64{{40.71, -74.0}, {34.05, -118.24}, {41.88, -87.63}, {29.76, -95.37}, {61.2, -149.9}}
	es := make([]stores.Entry, n)
	for i := range es {
		var lat, lon float64
		if i%5 == 0 {
			lat, lon = 25+rng.Float64()*24, -124+rng.Float64()*57
		} else {
			c := centres[rng.IntN(len(centres))]
			lat, lon = c[0]+rng.NormFloat64()*0.3, c[1]+rng.NormFloat64()*0.3
		}
		var hours []schedule.WorkingHour
		if i%3 != 0 {
			hours = []schedule.WorkingHour{{WeekDay: time.Weekday(i % 7), Start: "09:00", End: "17:00"}, {WeekDay: time.Weekday((i + 3) % 7), Start: "18:00", End: "02:00"}}
		}
		id := int64(i + 1)
		es[i] = stores.Entry{
			ID: id, Latitude: lat, Longitude: lon,
			Delivery: rng.IntN(10) < 4, OrderOnline: rng.IntN(10) < 6, Curbside: rng.IntN(10) < 3,
			TimeZone: []string{"America/New_York", "America/Los_Angeles", "America/Chicago"}[i%3],
			Schedule: schedule.EncodeSchedule(hours),
			Doc:      []byte(fmt.Sprintf(`{"id":%d,"name":"Store %d"}`, id, id)),
		}
	}
	return es
}

// oracle answers a query by brute force in float64.
func oracle(es []stores.Entry, q Query) ([]Hit, bool) {
	var all []Hit
	zones := map[string]*time.Location{}
	for _, e := range es {
		if q.Delivery && !e.Delivery || q.OrderOnline && !e.OrderOnline || q.Curbside && !e.Curbside {
			continue
		}
		if q.OpenNow {
			loc, ok := zones[e.TimeZone]
			if !ok {
				loc, _ = time.LoadLocation(e.TimeZone)
				zones[e.TimeZone] = loc
			}
			if !schedule.NewSchedule(schedule.DecodeSchedule(e.Schedule)).OpenAt(q.Now.In(loc)) {
				continue
			}
		}
		d := DistanceMiles(q.Latitude, q.Longitude, e.Latitude, e.Longitude)
		if d <= q.RadiusMiles {
			all = append(all, Hit{ID: e.ID, Miles: d})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Miles < all[j].Miles })
	if len(all) > q.Limit {
		return all[:q.Limit], true
	}
	return all, false
}

func TestNearestMatchesOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	es := randomEntries(rng, 20000)
	ix := NewIndex()
	ix.PutAll(es)
	now := time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC)
	for i := 0; i < 400; i++ {
		e := es[rng.IntN(len(es))]
		q := Query{
			Latitude: e.Latitude + rng.NormFloat64()*0.05, Longitude: e.Longitude + rng.NormFloat64()*0.05,
			RadiusMiles: []float64{5, 10, 30, 50}[i%4], Limit: []int{1, 20, 50, 200}[i%4],
			Delivery: i%5 == 1, OrderOnline: i%7 == 2, Curbside: i%11 == 3, OpenNow: i%6 == 4, Now: now,
		}
		if i%10 == 9 { // anywhere, often empty
			q.Latitude, q.Longitude = -80+rng.Float64()*160, -180+rng.Float64()*360
		}
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		got, more := ix.Nearest(q)
		want, wantMore := oracle(es, q)
		if err := SameHits(got, want, q.RadiusMiles); err != nil {
			t.Fatalf("query %d %+v: %v", i, q, err)
		}
		if more != wantMore && len(want) == q.Limit {
			t.Fatalf("query %d: has_more %v, want %v", i, more, wantMore)
		}
	}
}

func TestAppendJSONAndUpdates(t *testing.T) {
	t.Parallel()
	ix := NewIndex()
	ix.PutAll([]stores.Entry{
		{ID: 1, Latitude: 40.7128, Longitude: -74.0060, TimeZone: "America/New_York", Doc: []byte(`{"id":1,"name":"A"}`)},
		{ID: 2, Latitude: 40.73, Longitude: -73.99, Delivery: true, TimeZone: "America/New_York", Doc: []byte(`{"id":2,"name":"B"}`)},
		{ID: 3, Latitude: 34.05, Longitude: -118.24, TimeZone: "America/Los_Angeles", Doc: []byte(`{"id":3,"name":"C"}`)},
	})
	var ans struct {
		Stores []struct {
			ID       int64   `json:"id"`
			Name     string  `json:"name"`
			Distance float64 `json:"distance"`
		} `json:"physical_stores"`
		HasMore bool `json:"has_more"`
	}
	q := Query{Latitude: 40.7128, Longitude: -74.0060, RadiusMiles: 30, Limit: 1}
	if err := json.Unmarshal(ix.AppendJSON(nil, q), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Stores) != 1 || ans.Stores[0].ID != 1 || ans.Stores[0].Distance != 0 || !ans.HasMore {
		t.Fatalf("limit 1: %+v", ans)
	}
	q.Limit, q.Delivery = 10, true
	if err := json.Unmarshal(ix.AppendJSON(nil, q), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Stores) != 1 || ans.Stores[0].ID != 2 || ans.HasMore || ans.Stores[0].Distance < 1.4 || ans.Stores[0].Distance > 1.5 {
		t.Fatalf("delivery: %+v", ans)
	}
	// Move store 2 to Los Angeles, remove store 1: New York is empty.
	ix.Put(stores.Entry{ID: 2, Latitude: 34.06, Longitude: -118.25, Delivery: true, TimeZone: "America/Los_Angeles", Doc: []byte(`{"id":2,"name":"B2"}`)})
	ix.Remove(1)
	q.Delivery = false
	if err := json.Unmarshal(ix.AppendJSON(nil, q), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Stores) != 0 || ix.Len() != 2 {
		t.Fatalf("after updates: %+v, len %d", ans, ix.Len())
	}
	q.Latitude, q.Longitude = 34.05, -118.24
	if err := json.Unmarshal(ix.AppendJSON(nil, q), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Stores) != 2 || ans.Stores[0].ID != 3 || ans.Stores[1].Name != "B2" {
		t.Fatalf("Los Angeles: %+v", ans)
	}
}

func TestQueryValidate(t *testing.T) {
	t.Parallel()
	bad := []Query{
		{Latitude: 91, RadiusMiles: 30},
		{Longitude: -181, RadiusMiles: 30},
		{RadiusMiles: 0},
		{RadiusMiles: MaxRadiusMile + 1},
		{RadiusMiles: math.NaN()},
		{Latitude: math.NaN(), RadiusMiles: 1},
		{RadiusMiles: 30, Limit: MaxLimit + 1},
	}
	for _, q := range bad {
		if q.Validate() == nil {
			t.Errorf("%+v accepted", q)
		}
	}
	q := Query{Latitude: 40, Longitude: -74, RadiusMiles: 30}
	if err := q.Validate(); err != nil || q.Limit != DefaultLimit {
		t.Fatalf("valid query: %v, limit %d", err, q.Limit)
	}
}

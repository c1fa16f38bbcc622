package search

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"locator/internal/stores"
)

func ruleEntry(t *testing.T, id int64, city, state, zip string, lat, lon float64, adult bool) stores.Entry {
	t.Helper()
	s := &stores.Store{ID: id, StoreID: city, Name: city + " store", CountryCode: "US", State: state, City: city,
		PostalCode: zip, Latitude: lat, Longitude: lon, TimeZone: "America/New_York", AdultOnly: adult}
	doc, err := stores.RenderDoc(s)
	if err != nil {
		t.Fatal(err)
	}
	return stores.Entry{ID: id, Latitude: lat, Longitude: lon, TimeZone: s.TimeZone, Schedule: stores.EncodeStoreSchedule(s), Doc: doc}
}

type ruleAnswer struct {
	PhysicalStores []struct {
		ID    int64 `json:"id"`
		Rules []struct {
			ID, Summary, Citation, URL, CheckedOn string
		} `json:"rules"`
	} `json:"physical_stores"`
}

// The list answer carries each store's rules of its place; stores share
// interned sets.
func TestAnswerCarriesRulesOfThePlace(t *testing.T) {
	ix := NewIndex()
	ix.PutAll([]stores.Entry{
		ruleEntry(t, 1, "Boston", "MA", "02108", 42.358, -71.06, false),
		ruleEntry(t, 2, "Boston", "Massachusetts", "02109", 42.36, -71.055, false),
		ruleEntry(t, 3, "Brooklyn", "NY", "11211", 40.71, -73.95, false),
		ruleEntry(t, 4, "Austin", "TX", "78701", 30.27, -97.74, false),
	})
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	got := map[int64][]string{}
	for _, at := range [][2]float64{{42.358, -71.06}, {40.71, -73.95}, {30.27, -97.74}} {
		var a ruleAnswer
		q := Query{Latitude: at[0], Longitude: at[1], RadiusMiles: 5, Limit: 10, Now: now}
		if err := json.Unmarshal(ix.AppendJSON(nil, q), &a); err != nil {
			t.Fatal(err)
		}
		for _, s := range a.PhysicalStores {
			got[s.ID] = []string{}
			for _, r := range s.Rules {
				if r.Citation == "" || r.URL == "" || r.Summary == "" {
					t.Errorf("store %d: rule without its source %+v", s.ID, r)
				}
				got[s.ID] = append(got[s.ID], r.ID)
			}
		}
	}
	want := map[int64]string{1: "[ma-flavoured-vapes ma-flavoured-tobacco]", 2: "[ma-flavoured-vapes ma-flavoured-tobacco]",
		3: "[ny-flavoured-vapes nyc-flavoured-e-cigarettes]", 4: "[]"}
	for id, w := range want {
		if g := fmt.Sprint(got[id]); g != w {
			t.Errorf("store %d: rules %s, want %s", id, g, w)
		}
	}
	if n := len(ix.ruleSets); n != 3 {
		t.Errorf("%d interned sets for three places, want 3", n)
	}
	// Before California's law took effect, none; the store page's read
	// (Get) carries the set too.
	ix.Put(ruleEntry(t, 5, "Los Angeles", "CA", "90012", 34.05, -118.24, false))
	sd, _ := ix.Get(5)
	if sd.Rules == nil || len(sd.Rules.Rules(20221220)) != 0 || len(sd.Rules.Rules(20221221)) != 1 {
		t.Error("a Los Angeles store's rules by date")
	}
}

func TestWithRules(t *testing.T) {
	e := ruleEntry(t, 1, "Boston", "MA", "02108", 42.358, -71.06, false)
	var a struct {
		ID    int64             `json:"id"`
		Rules []json.RawMessage `json:"rules"`
	}
	if err := json.Unmarshal(WithRules(e.Doc, time.Now()), &a); err != nil || a.ID != 1 || len(a.Rules) != 2 {
		t.Fatalf("%s: %v", WithRules(e.Doc, time.Now()), err)
	}
}

package search

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

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
		ID      int64    `json:"id"`
		RuleIDs []string `json:"rule_ids"`
	} `json:"physical_stores"`
	Rules []struct {
		ID, Summary, Citation, URL string
		CheckedOn                  string `json:"checked_on"`
	} `json:"rules"`
}

// The list answer names each store's rules of its place by id and carries
// each rule once, with its source; stores share interned sets.
func TestAnswerCarriesRulesOfThePlace(t *testing.T) {
	t.Parallel()
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
		inAnswer := map[string]bool{}
		for _, r := range a.Rules {
			if r.Citation == "" || r.URL == "" || r.Summary == "" || r.CheckedOn == "" || inAnswer[r.ID] {
				t.Errorf("rule without its source, or twice: %+v", r)
			}
			inAnswer[r.ID] = true
		}
		named := map[string]bool{}
		for _, s := range a.PhysicalStores {
			got[s.ID] = s.RuleIDs
			for _, id := range s.RuleIDs {
				if !inAnswer[id] {
					t.Errorf("store %d names rule %s, which the answer does not carry", s.ID, id)
				}
				named[id] = true
			}
		}
		if len(named) != len(inAnswer) {
			t.Errorf("the answer carries %d rules, its stores name %d", len(inAnswer), len(named))
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
	t.Parallel()
	e := ruleEntry(t, 1, "Boston", "MA", "02108", 42.358, -71.06, false)
	var a struct {
		ID    int64             `json:"id"`
		Rules []json.RawMessage `json:"rules"`
	}
	if err := json.Unmarshal(WithRules(e.Doc, time.Now()), &a); err != nil || a.ID != 1 || len(a.Rules) != 2 {
		t.Fatalf("%s: %v", WithRules(e.Doc, time.Now()), err)
	}
}

// One answer over two places carries each of their rules once; a store's
// list part leaves its detail out, and the record keeps its size.
func TestListAnswerRulesOnceAndListPart(t *testing.T) {
	t.Parallel()
	ix := NewIndex()
	ix.PutAll([]stores.Entry{
		ruleEntry(t, 1, "Boston", "MA", "02108", 42.358, -71.06, false),
		ruleEntry(t, 2, "Boston", "MA", "02109", 42.36, -71.055, false),
		ruleEntry(t, 3, "Brooklyn", "NY", "11211", 40.71, -73.95, false),
		ruleEntry(t, 4, "Brooklyn", "NY", "11211", 40.711, -73.951, true),
	})
	q := Query{Latitude: 41.5, Longitude: -72.5, RadiusMiles: 300, Limit: 10, Now: time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)}
	out := ix.AppendJSON(nil, q)
	var a ruleAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range a.Rules {
		ids = append(ids, r.ID)
	}
	if len(a.PhysicalStores) != 4 || fmt.Sprint(ids) != "[ma-flavoured-vapes ma-flavoured-tobacco ny-flavoured-vapes nyc-flavoured-e-cigarettes]" &&
		fmt.Sprint(ids) != "[ny-flavoured-vapes nyc-flavoured-e-cigarettes ma-flavoured-vapes ma-flavoured-tobacco]" {
		t.Fatalf("rules %v: %s", ids, out)
	}
	for _, detail := range []string{`"adult_only"`, `"licence"`, `"enforcement"`, `"last_verified_at"`, `"permanently_closed"`, `"citation"`} {
		if n := strings.Count(string(out), detail); n > 0 && (detail != `"citation"` || n != len(a.Rules)) {
			t.Errorf("%s %d times in the list answer", detail, n)
		}
	}
	if n := unsafe.Sizeof(record{}); n != 80 {
		t.Errorf("record is %d bytes, want 80", n)
	}
}

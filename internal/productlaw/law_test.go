package productlaw

import (
	"fmt"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/rules"
)

// on is a day as the rulebook counts them.
func on(s string) int {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return rules.DayOf(t)
}

// storeRules are the rules in force on day for a store open to all at
// place, as the search index hands them to Judge.
func storeRules(t *testing.T, p rules.Place, day string) []*rules.Rule {
	t.Helper()
	return rules.MustLoad().Set(p, false).Rules(on(day))
}

var (
	nyc    = rules.Place{Country: "US", State: "NY", City: "New York", ZIP: "10001"}
	albany = rules.Place{Country: "US", State: "NY", City: "Albany", ZIP: "12207"}
	newark = rules.Place{Country: "US", State: "NJ", City: "Newark", ZIP: "07102"}
	boston = rules.Place{Country: "US", State: "MA", City: "Boston", ZIP: "02108"}
	la     = rules.Place{Country: "US", State: "CA", City: "Los Angeles", ZIP: "90012"}
	austin = rules.Place{Country: "US", State: "TX", City: "Austin", ZIP: "78701"}
)

func product(kind, flavour string) Product {
	return Product{ID: kind + "-" + flavour, Brand: "Nimbus", Name: "Bar " + flavour, Kind: kind, Flavour: flavour}
}

func TestJudgeByTheRulebook(t *testing.T) {
	t.Parallel()
	const today = "2026-12-02"
	for _, c := range []struct {
		name     string
		place    rules.Place
		day      string
		p        Product
		rule     string // "" lawful
		citation string
	}{
		{"fruit disposable in NYC", nyc, today, product("disposable", "fruit"), "ny-flavoured-vapes", "NY Public Health Law 1399-mm-1"},
		{"tobacco disposable in NYC", nyc, today, product("disposable", "tobacco"), "", ""},
		{"unflavoured e-liquid in NYC", nyc, today, product("e_liquid", "unflavoured"), "", ""},
		{"menthol pods in NYC", nyc, today, product("pods", "menthol"), "ny-flavoured-vapes", "NY Public Health Law 1399-mm-1"},
		{"mint pods upstate", albany, today, product("pods", "mint"), "ny-flavoured-vapes", "NY Public Health Law 1399-mm-1"},
		{"zero-nicotine fruit e-liquid in NY", albany, today, Product{Kind: "e_liquid", Flavour: "fruit", ZeroNicotine: true}, "ny-flavoured-vapes", "NY Public Health Law 1399-mm-1"},
		// New York's ban is on vapour products: a mint pouch is not one.
		{"mint pouch in NYC", nyc, today, product("nicotine_pouch", "mint"), "", ""},
		{"fruit accessory in NYC", nyc, today, product("accessory", "fruit"), "", ""},
		{"fruit disposable in NJ", newark, today, product("disposable", "fruit"), "nj-flavoured-vapes", "N.J. P.L.2019, c.425"},
		{"tobacco disposable in NJ", newark, today, product("disposable", "tobacco"), "", ""},
		{"dessert open system in NJ", newark, today, product("open_system", "dessert"), "nj-flavoured-vapes", "N.J. P.L.2019, c.425"},
		{"fruit disposable in MA", boston, today, product("disposable", "fruit"), "ma-flavoured-vapes", "Mass. G.L. c.270 §28"},
		{"tobacco disposable in MA", boston, today, product("disposable", "tobacco"), "", ""},
		{"menthol pouch in MA", boston, today, product("nicotine_pouch", "menthol"), "ma-flavoured-tobacco", "Mass. G.L. c.270 §28"},
		{"menthol heated tobacco in MA", boston, today, product("heated_tobacco", "menthol"), "ma-flavoured-tobacco", "Mass. G.L. c.270 §28"},
		{"tobacco pouch in MA", boston, today, product("nicotine_pouch", "tobacco"), "", ""},
		{"zero-nicotine mint pouch in MA", boston, today, Product{Kind: "nicotine_pouch", Flavour: "mint", ZeroNicotine: true}, "", ""},
		// The menthol part of the Massachusetts law began on 1 June 2020.
		{"menthol pouch in MA before June 2020", boston, "2020-05-31", product("nicotine_pouch", "menthol"), "", ""},
		{"menthol pouch in MA on 1 June 2020", boston, "2020-06-01", product("nicotine_pouch", "menthol"), "ma-flavoured-tobacco", "Mass. G.L. c.270 §28"},
		{"fruit disposable in NYC before the ban", nyc, "2019-06-01", product("disposable", "fruit"), "", ""},
		{"menthol pod in CA", la, today, product("pods", "menthol"), "ca-flavoured-tobacco", "Cal. Health & Safety Code 104559.5"},
		{"mint pouch in CA", la, today, product("nicotine_pouch", "mint"), "ca-flavoured-tobacco", "Cal. Health & Safety Code 104559.5"},
		{"tobacco heated tobacco in CA", la, today, product("heated_tobacco", "tobacco"), "", ""},
		{"fruit disposable in Texas", austin, today, product("disposable", "fruit"), "", ""},
	} {
		v := Judge(storeRules(t, c.place, c.day), nil, c.place.State, c.p)
		switch {
		case c.rule == "" && (!v.Lawful || v.Rule != nil):
			t.Errorf("%s: not lawful by %+v", c.name, v.Rule)
		case c.rule != "" && (v.Lawful || v.Rule == nil):
			t.Errorf("%s: lawful, want forbidden by %s", c.name, c.rule)
		case c.rule != "" && (v.Rule.ID != c.rule || v.Rule.Citation != c.citation || v.Rule.URL == "" || v.Rule.CheckedOn == ""):
			t.Errorf("%s: forbidden by %+v, want %s cited as %q with its url and check date", c.name, *v.Rule, c.rule, c.citation)
		}
	}
}

// The age rule and shipping rules are in a place's rules (rules.Book.At)
// but forbid no product in a store: Judge passes over them.
func TestJudgeIgnoresAgeAndShippingRules(t *testing.T) {
	t.Parallel()
	all := rules.MustLoad().At(albany, false, on("2026-12-02"))
	if len(all) < 3 {
		t.Fatalf("want the age, flavour and shipping rules of New York, got %d rules", len(all))
	}
	if v := Judge(all, nil, "NY", product("disposable", "tobacco")); !v.Lawful {
		t.Errorf("a tobacco disposable in New York is forbidden by %+v (the age rule and the shipping ban are all_tobacco)", v.Rule)
	}
	if v := Judge(all, nil, "NY", product("disposable", "fruit")); v.Lawful || v.Rule.ID != "ny-flavoured-vapes" {
		t.Errorf("a fruit disposable in New York: %+v", v)
	}
}

// Each class, kind by kind and flavour by flavour, against rules made for
// the test (the book has no in-store all_tobacco rule).
func TestCovers(t *testing.T) {
	t.Parallel()
	kinds := []string{"disposable", "pod_system", "pods", "open_system", "e_liquid", "nicotine_pouch", "heated_tobacco", "accessory"}
	flavours := []string{"tobacco", "menthol", "mint", "fruit", "dessert", "other", "unflavoured"}
	vapour := map[string]bool{"disposable": true, "pod_system": true, "pods": true, "open_system": true, "e_liquid": true}
	for _, k := range kinds {
		for _, f := range flavours {
			for _, zero := range []bool{false, true} {
				p := Product{Kind: k, Flavour: f, ZeroNicotine: zero}
				isFlavoured := f != "tobacco" && f != "unflavoured"
				tobacco := vapour[k] || k == "heated_tobacco" || (k == "nicotine_pouch" && !zero)
				for class, want := range map[string]bool{
					rules.FlavouredECigarettes: vapour[k] && isFlavoured,
					rules.FlavouredTobacco:     tobacco && isFlavoured,
					rules.AllTobacco:           tobacco,
				} {
					if got := Covers(&rules.Rule{Product: class}, p); got != want {
						t.Errorf("Covers(%s, %+v) = %v, want %v", class, p, got, want)
					}
				}
			}
		}
	}
	if Covers(&rules.Rule{Product: rules.AllTobacco}, Product{Kind: "gift_card", Flavour: "fruit"}) {
		t.Error("an unknown kind is covered")
	}
	if Covers(&rules.Rule{Product: rules.FlavouredTobacco}, Product{Kind: "disposable"}) {
		t.Error("a product without a flavour family is judged flavoured")
	}
}

// A rule that binds delivery only does not forbid in-store sale.
func TestJudgeOnlyInStoreRules(t *testing.T) {
	t.Parallel()
	delivery := &rules.Rule{ID: "x-delivery", Product: rules.AllTobacco, Channels: []string{rules.Delivery}}
	inStore := &rules.Rule{ID: "x-store", Product: rules.AllTobacco, Channels: []string{rules.InStore}, Citation: "X 1"}
	p := product("disposable", "tobacco")
	if v := Judge([]*rules.Rule{delivery}, nil, "TX", p); !v.Lawful {
		t.Errorf("a delivery-only rule forbids in-store sale: %+v", v.Rule)
	}
	v := Judge([]*rules.Rule{delivery, inStore}, nil, "TX", p)
	if v.Lawful || v.Rule.ID != "x-store" || v.Rule.Citation != "X 1" {
		t.Errorf("an in-store all_tobacco rule: %+v", v)
	}
	if v2 := Judge([]*rules.Rule{inStore}, nil, "TX", p); v2.Rule != v.Rule {
		t.Error("each verdict on the same rule allocates its own Public")
	}
	if v := Judge([]*rules.Rule{inStore}, nil, "TX", product("accessory", "")); !v.Lawful {
		t.Errorf("an accessory is forbidden by %+v", v.Rule)
	}
}

func TestOf(t *testing.T) {
	t.Parallel()
	p := Of(&catalog.Product{ProductID: "nx-1", GTIN: "00840000100016", Brand: "Nimbus", Name: "Bar", Kind: catalog.Pods, Flavour: catalog.Mint, IsZeroNicApplicable: true})
	want := Product{ID: "nx-1", GTIN: "00840000100016", Brand: "Nimbus", Name: "Bar", Kind: "pods", Flavour: "mint", ZeroNicotine: true}
	if p != want {
		t.Errorf("Of = %+v, want %+v", p, want)
	}
}

// A state's directory forbids vapour products it does not list, by GTIN
// or by brand and name; other kinds and other states are not its business.
func TestJudgeByADirectory(t *testing.T) {
	t.Parallel()
	rule := rules.Public{ID: "dir-ky", Summary: "Not in Kentucky's directory of vapour products that may be sold", Citation: "KRS 438.335", URL: "https://example.gov/ky", CheckedOn: "2026-12-02"}
	dirs := &Directories{states: map[string]*directory{"KY": {
		rule:  rule,
		gtins: map[string]struct{}{"00840000100016": {}},
		names: map[string]struct{}{nameKey("Kestrel", "Pods Classic Tobacco"): {}},
	}}}
	listed := Product{GTIN: "00840000100016", Brand: "Nimbus", Name: "Bar", Kind: "disposable", Flavour: "tobacco"}
	byName := Product{Brand: "KESTREL", Name: "Kestrel Pods — Classic Tobacco", Kind: "pods", Flavour: "tobacco"}
	unlisted := Product{GTIN: "04000001000012", Brand: "Nimbus", Name: "Bar 2", Kind: "disposable", Flavour: "tobacco"}
	for _, c := range []struct {
		name  string
		dirs  *Directories
		state string
		p     Product
		rule  string
	}{
		{"listed by GTIN", dirs, "KY", listed, ""},
		{"listed by brand and name", dirs, "KY", byName, ""},
		{"not listed", dirs, "KY", unlisted, "dir-ky"},
		{"not listed, state by name", dirs, "Kentucky", unlisted, "dir-ky"},
		{"a pouch is no vapour product", dirs, "KY", Product{Brand: "P", Name: "P", Kind: "nicotine_pouch", Flavour: "mint"}, ""},
		{"an accessory", dirs, "KY", Product{Brand: "P", Name: "P", Kind: "accessory"}, ""},
		{"a state without a directory", dirs, "TX", unlisted, ""},
		{"no directories", nil, "KY", unlisted, ""},
	} {
		v := Judge(nil, c.dirs, c.state, c.p)
		if c.rule == "" && !v.Lawful || c.rule != "" && (v.Lawful || v.Rule.ID != c.rule || *v.Rule != rule) {
			t.Errorf("%s: %+v", c.name, v)
		}
	}
	// The rulebook speaks first: a fruit disposable in a state with both.
	ban := &rules.Rule{ID: "x-flavour", Product: rules.FlavouredECigarettes, Channels: []string{rules.InStore}}
	if v := Judge([]*rules.Rule{ban}, dirs, "KY", Product{Brand: "X", Name: "Y", Kind: "disposable", Flavour: "fruit"}); v.Rule == nil || v.Rule.ID != "x-flavour" {
		t.Errorf("a product both banned and unlisted: %+v", v)
	}
}

// Search replicas judge from many goroutines at once: the shared Public of
// each rule and the remembered name keys are safe for that (go test -race).
func TestJudgeConcurrently(t *testing.T) {
	t.Parallel()
	rs := storeRules(t, boston, "2026-12-02")
	dirs := &Directories{states: map[string]*directory{"WI": {
		rule: rules.Public{ID: "dir-wi"}, gtins: map[string]struct{}{}, names: map[string]struct{}{nameKey("Kestrel", "Device"): {}},
	}}}
	done := make(chan string)
	for g := range 8 {
		go func() {
			bad := ""
			for i := range 200 {
				p := Product{Brand: "Kestrel", Name: "Kestrel Device", Kind: "pod_system", Flavour: "unflavoured"}
				if i%2 == 1 {
					p.Name = fmt.Sprintf("Kestrel Device %d-%d", g, i) // a new key each time
				}
				if v := Judge(nil, dirs, "WI", p); v.Lawful != (i%2 == 0) {
					bad = fmt.Sprintf("%s: %+v", p.Name, v)
				}
				if v := Judge(rs, nil, "MA", product("pods", "mint")); v.Rule == nil || v.Rule.ID != "ma-flavoured-vapes" {
					bad = fmt.Sprintf("mint pods in MA: %+v", v)
				}
			}
			done <- bad
		}()
	}
	for range 8 {
		if bad := <-done; bad != "" {
			t.Error(bad)
		}
	}
}

package productlaw

import (
	"testing"

	"locator/internal/rules"
)

// Judge runs once per store of a product search: a store under New York
// City's rules, and a Wisconsin store with a loaded directory and a
// product found by GTIN or only by its name.
func BenchmarkJudge(b *testing.B) {
	nycRules := rules.MustLoad().Set(nyc, false).Rules(on("2026-12-02"))
	dirs := &Directories{states: map[string]*directory{"WI": {
		rule:  rules.Public{ID: "dir-wi"},
		gtins: map[string]struct{}{"04000001000012": {}},
		names: map[string]struct{}{nameKey("Kestrel", "Device"): {}},
	}}}
	for _, c := range []struct {
		name  string
		rs    []*rules.Rule
		state string
		p     Product
	}{
		{"nyc-fruit", nycRules, "NY", product("disposable", "fruit")},
		{"nyc-tobacco", nycRules, "NY", product("disposable", "tobacco")},
		{"wi-gtin", nil, "WI", kestrelClassic},
		{"wi-name", nil, "WI", kestrelDevice},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Judge(c.rs, dirs, c.state, c.p)
			}
		})
	}
}

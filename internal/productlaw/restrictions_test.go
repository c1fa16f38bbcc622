package productlaw

import (
	"strings"
	"testing"

	"locator/internal/rules"
)

// Restrictions lists the rulebook's jurisdictions whose in-store rules
// forbid a product (broad to narrow, one line each) and the states whose
// directory does not list it; a tobacco-flavoured pod listed in the
// directory has none, and a rule not yet in force does not count.
func TestRestrictionsOfAProduct(t *testing.T) {
	t.Parallel()
	book := rules.MustLoad()
	dirs := &Directories{states: map[string]*directory{"KY": {
		rule:  rules.Public{ID: "dir-ky", Summary: "Not in Kentucky's directory", Citation: "KRS 438.335", URL: "https://example.gov/ky", CheckedOn: "2026-12-02"},
		gtins: map[string]struct{}{"04000001000012": {}},
	}}}
	lines := func(p Product, day int) string {
		var out []string
		for _, r := range Restrictions(book, dirs, p, day) {
			out = append(out, r.Place+"/"+r.Level+"/"+r.Rule.ID)
		}
		return strings.Join(out, " ")
	}
	fruit := Product{GTIN: "00840000100016", Brand: "Nimbus", Name: "Bar Mango", Kind: "disposable", Flavour: "fruit"}
	if got, want := lines(fruit, 20261203), "California/state/ca-flavoured-tobacco Massachusetts/state/ma-flavoured-vapes New Jersey/state/nj-flavoured-vapes New York State/state/ny-flavoured-vapes New York City/city/nyc-flavoured-e-cigarettes KY/state/dir-ky"; got != want {
		t.Errorf("fruit disposable:\n%s\nwant:\n%s", got, want)
	}
	pod := Product{GTIN: "04000001000012", Brand: "Kestrel", Name: "Pods Classic", Kind: "pods", Flavour: "tobacco"}
	if got := lines(pod, 20261203); got != "" {
		t.Errorf("a listed tobacco pod: %s", got)
	}
	if got := lines(fruit, 19990101); got != "KY/state/dir-ky" {
		t.Errorf("before the bans: %s", got)
	}
}

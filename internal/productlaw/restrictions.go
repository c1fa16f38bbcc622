package productlaw

import "locator/internal/rules"

// Restriction is one place where the law forbids selling a product in
// stores: a jurisdiction of the rulebook (a state, a county, a city) whose
// rule covers it, or a state whose product directory does not list it.
type Restriction struct {
	Place string // the jurisdiction's name ("New York City"), or the state's USPS code for a directory
	Level string // "country", "state", "county", "city"; "state" for a directory
	// Directory is true when the restriction is a state's product
	// directory (the product is not listed there).
	Directory bool
	// AdultOnlyExempt is true when the rule does not bind adult-only
	// stores (they may still sell it).
	AdultOnlyExempt bool
	Rule            rules.Public
}

// Restrictions lists where p may not be sold in stores on day (rules.DayOf):
// the rulebook's jurisdictions, broad to narrow, whose rules in force
// that day forbid it (as Judge reads them: in-store sale, not an age rule),
// one entry per jurisdiction (its first such rule); then the states of
// dirs (nil: none) whose directory does not list p, by state code.
func Restrictions(book *rules.Book, dirs *Directories, p Product, day int) []Restriction {
	var out []Restriction
	for _, j := range book.Jurisdictions() {
		for i := range j.Rules {
			r := &j.Rules[i]
			if r.InForce(day) && r.MinAge == 0 && r.Has(rules.InStore) && Covers(r, p) {
				out = append(out, Restriction{Place: j.Name, Level: j.Level, AdultOnlyExempt: !r.Binds(true), Rule: *publicOf(r)})
				break
			}
		}
	}
	for _, st := range dirs.States() {
		if pub := dirs.forbids(st, p); pub != nil {
			out = append(out, Restriction{Place: st, Level: "state", Directory: true, Rule: *pub})
		}
	}
	return out
}

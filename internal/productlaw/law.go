// Package productlaw says whether a product may be sold at a store: the
// flavour bans of the rulebook (internal/rules) that bind the store's
// in-store sales, and the state directories of vapour products that may be
// sold (docs/products.md, "The law").
package productlaw

import (
	"slices"
	"sync"

	"locator/internal/catalog"
	"locator/internal/rules"
)

// Product is what the law looks at in a product (built from
// catalog.Product by Of).
type Product struct {
	ID, GTIN, Brand, Name string
	// Kind is the catalogue's kind: disposable, pod_system, pods,
	// open_system, e_liquid, nicotine_pouch, heated_tobacco, accessory.
	Kind string
	// Flavour is the catalogue's flavour family: tobacco, menthol, mint,
	// fruit, dessert, other, unflavoured.
	Flavour      string
	ZeroNicotine bool
}

// Of is the law's view of a catalogue product.
func Of(p *catalog.Product) Product {
	return Product{
		ID: p.ProductID, GTIN: p.GTIN, Brand: p.Brand, Name: p.Name,
		Kind: string(p.Kind), Flavour: string(p.Flavour), ZeroNicotine: p.IsZeroNicApplicable,
	}
}

// Verdict is whether a product may be sold at a store and, when not, the
// rule that forbids it.
type Verdict struct {
	Lawful bool
	// Rule is nil when lawful. It is shared between verdicts: read it,
	// never change it.
	Rule *rules.Public
}

// vapourKinds are the catalogue kinds that are vapour products: devices
// that make an aerosol to inhale and the liquids they hold. They are what
// the e-cigarette flavour bans and the state directories speak of.
var vapourKinds = []string{
	string(catalog.Disposable), string(catalog.PodSystem), string(catalog.Pods),
	string(catalog.OpenSystem), string(catalog.ELiquid),
}

// IsVapour reports whether kind is a vapour product.
func IsVapour(kind string) bool { return slices.Contains(vapourKinds, kind) }

// tobaccoKind reports whether a product of that kind is a tobacco product
// in the broad sense of the flavour and sales bans (made or derived from
// tobacco or containing nicotine): vapour products whatever their nicotine
// (the laws' definitions take in devices that deliver "nicotine or other
// substances"), heated tobacco always, a nicotine pouch unless it holds no
// nicotine (a zero-nicotine pouch is neither tobacco nor nicotine).
// Accessories and unknown kinds are never covered.
func tobaccoKind(p Product) bool {
	switch {
	case IsVapour(p.Kind), p.Kind == string(catalog.HeatedTobacco):
		return true
	case p.Kind == string(catalog.NicotinePouch):
		return !p.ZeroNicotine
	}
	return false
}

// flavoured reports whether the flavour family counts as a flavour for the
// bans: every family but tobacco and unflavoured. Menthol and mint are
// flavours (New York's law names mint, wintergreen and menthol among them;
// the others ban every flavour but tobacco). An empty family (a product
// built outside the catalogue, which requires one) is not judged
// flavoured: the locator does not claim a ban it cannot see.
func flavoured(f string) bool {
	return f != "" && f != string(catalog.Tobacco) && f != string(catalog.Unflavoured)
}

// Covers says whether a rulebook rule's product class takes in p:
//   - rules.FlavouredECigarettes: a flavoured vapour product (kinds
//     disposable, pod_system, pods, open_system, e_liquid), nicotine or not;
//   - rules.FlavouredTobacco: every flavoured tobacco product, menthol
//     included: vapour products, heated tobacco and nicotine pouches (a
//     zero-nicotine pouch is not one);
//   - rules.AllTobacco: every tobacco product in that sense, flavoured or not.
//
// Accessories are never covered. Covers looks at the class only: whether
// the rule binds a store's sales (its channels, age rules) is Judge's.
func Covers(r *rules.Rule, p Product) bool {
	switch r.Product {
	case rules.FlavouredECigarettes:
		return IsVapour(p.Kind) && flavoured(p.Flavour)
	case rules.FlavouredTobacco:
		return tobaccoKind(p) && flavoured(p.Flavour)
	case rules.AllTobacco:
		return tobaccoKind(p)
	}
	return false
}

// Judge says whether p may be sold in the store whose rules in force that
// day are rs (e.g. rules.Set.Rules(day): the caller has judged the date and
// the store's kind) in state (USPS code or name). The first rule of rs that
// binds in-store sale (channel in_store; not an age rule, which limits who
// buys rather than what is sold) and covers p forbids it; else the state's
// product directory in dirs (nil: none loaded) when the state has one and p
// is a vapour product not listed in it; else p is lawful.
func Judge(rs []*rules.Rule, dirs *Directories, state string, p Product) Verdict {
	for _, r := range rs {
		if r.MinAge == 0 && r.Has(rules.InStore) && Covers(r, p) {
			return Verdict{Rule: publicOf(r)}
		}
	}
	if pub := dirs.forbids(state, p); pub != nil {
		return Verdict{Rule: pub}
	}
	return Verdict{Lawful: true}
}

// publics holds one Public per rule of the book, so that judging every
// store of a search answer allocates nothing.
var publics sync.Map // *rules.Rule -> *rules.Public

func publicOf(r *rules.Rule) *rules.Public {
	if p, ok := publics.Load(r); ok {
		return p.(*rules.Public)
	}
	pub := rules.PublicOf(r)
	p, _ := publics.LoadOrStore(r, &pub)
	return p.(*rules.Public)
}

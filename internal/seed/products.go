package seed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"locator/internal/catalog"
	"locator/internal/inventory"
	"locator/internal/slug"
	"locator/internal/storegen"
	"locator/internal/stores"
)

// The demo catalogue and stock are a step after the stores, from random
// streams of their own: the stores (storegen's golden data set) stay as
// they are whatever this step makes.

// demoBrands are invented names, none a real brand; each makes products of
// its kinds (the first is its main line).
var demoBrands = []struct {
	name  string
	kinds []catalog.Kind
}{
	{"Zephyrine", []catalog.Kind{catalog.Disposable}},
	{"Cloudwright", []catalog.Kind{catalog.Disposable, catalog.Accessory}},
	{"Puffington", []catalog.Kind{catalog.Disposable}},
	{"Mistlark", []catalog.Kind{catalog.Disposable, catalog.ELiquid}},
	{"Orbidrift", []catalog.Kind{catalog.Disposable}},
	{"Glimmerpod", []catalog.Kind{catalog.Pods, catalog.PodSystem}},
	{"Quillby", []catalog.Kind{catalog.Pods, catalog.PodSystem}},
	{"Tidewick", []catalog.Kind{catalog.Pods, catalog.PodSystem, catalog.Accessory}},
	{"Velvetine", []catalog.Kind{catalog.ELiquid}},
	{"Copperkettle", []catalog.Kind{catalog.ELiquid}},
	{"Fablewood", []catalog.Kind{catalog.ELiquid, catalog.OpenSystem}},
	{"Saltmarsh", []catalog.Kind{catalog.ELiquid}},
	{"Kettlebloom", []catalog.Kind{catalog.ELiquid, catalog.Disposable}},
	{"Frostfang", []catalog.Kind{catalog.NicotinePouch}},
	{"Northwhist", []catalog.Kind{catalog.NicotinePouch}},
	{"Pebblebrook", []catalog.Kind{catalog.NicotinePouch}},
	{"Snapdrift", []catalog.Kind{catalog.NicotinePouch, catalog.Disposable}},
	{"Emberly", []catalog.Kind{catalog.HeatedTobacco}},
	{"Halcyheat", []catalog.Kind{catalog.HeatedTobacco, catalog.Accessory}},
	{"Moonquarry", []catalog.Kind{catalog.OpenSystem, catalog.Accessory}},
	{"Wickerby", []catalog.Kind{catalog.Accessory, catalog.OpenSystem}},
	{"Corvidae", []catalog.Kind{catalog.OpenSystem, catalog.ELiquid}},
	{"Lumenleaf", []catalog.Kind{catalog.Disposable, catalog.Pods}},
	{"Brambleton", []catalog.Kind{catalog.ELiquid, catalog.Pods}},
	{"Thistledown", []catalog.Kind{catalog.Disposable}},
	{"Driftglass", []catalog.Kind{catalog.PodSystem, catalog.Pods}},
	{"Marrowind", []catalog.Kind{catalog.Pods}},
	{"Sproutwell", []catalog.Kind{catalog.ELiquid, catalog.NicotinePouch}},
	{"Ashgrove", []catalog.Kind{catalog.HeatedTobacco, catalog.Disposable}},
	{"Juniperlane", []catalog.Kind{catalog.Disposable, catalog.Accessory}},
}

// DemoProductsPerBrand times the brands is the catalogue's size.
const DemoProductsPerBrand = 10

// demoFlavours are the flavour names of each family.
var demoFlavours = map[catalog.Flavour][]string{
	catalog.Fruit:       {"Mango Ice", "Watermelon Chill", "Blue Razz", "Strawberry Kiwi", "Peach Rings", "Grape Burst", "Pineapple Coconut", "Lychee", "Cherry Lime", "Triple Berry"},
	catalog.Dessert:     {"Vanilla Custard", "Cinnamon Roll", "Banana Cream", "Caramel Tobacco Pie", "Strawberry Cheesecake"},
	catalog.Mint:        {"Cool Mint", "Spearmint", "Wintergreen", "Peppermint Frost"},
	catalog.Menthol:     {"Menthol", "Arctic Menthol", "Menthol Crisp"},
	catalog.Tobacco:     {"Classic Tobacco", "Virginia Blend", "Smooth Tobacco", "Golden Leaf"},
	catalog.OtherFlavor: {"Cola", "Energy", "Coffee", "Honey Chai"},
}

// flavourWeights: fruit and dessert are most of what is sold, the
// flavours the rulebook's bans take in; tobacco and menthol next.
var flavourOrder = []catalog.Flavour{catalog.Fruit, catalog.Dessert, catalog.Mint, catalog.Menthol, catalog.Tobacco, catalog.OtherFlavor}
var flavourWeights = []int{40, 12, 14, 12, 16, 6}

// DemoGTIN is the GTIN-14 of the demo catalogue's product k (from 0): an
// EAN-13 in GS1's 20-29 range of restricted circulation numbers, which no
// trade item outside a company carries, so a demo barcode never names a
// real product: "299" then "00", the product number and its check digit.
func DemoGTIN(k int) string {
	body := fmt.Sprintf("29900%07d", k+1)
	sum := 0
	for i := range len(body) {
		v := int(body[len(body)-1-i] - '0')
		if i%2 == 0 {
			v *= 3
		}
		sum += v
	}
	return "0" + body + string(rune('0'+(10-sum%10)%10))
}

// DemoProducts makes the demo catalogue: DemoProductsPerBrand products of
// each invented brand, over every kind, flavour family and strength unit,
// each with a GTIN, a handle and an FDA status (mostly none, a few
// authorised, denied or pending). The same seed makes the same products.
func DemoProducts(seedValue uint64) []*catalog.Product {
	rng := rand.New(rand.NewPCG(seedValue, 0x70726f6475637473)) // "products"
	var ps []*catalog.Product
	handles := map[string]bool{}
	for _, b := range demoBrands {
		for j := range DemoProductsPerBrand {
			kind := b.kinds[0]
			if j >= 6 && len(b.kinds) > 1 { // the main line, then the others
				kind = b.kinds[1+(j-6)%(len(b.kinds)-1)]
			}
			p := demoProduct(rng, b.name, kind, j)
			base := p.Handle
			for n := 2; handles[p.Handle]; n++ {
				p.Handle = fmt.Sprintf("%s-%d", base, n)
			}
			handles[p.Handle] = true
			p.ProductID = "demo-" + p.Handle
			if len(p.ProductID) > 100 {
				p.ProductID = fmt.Sprintf("demo-%d", len(ps)+1)
			}
			p.GTIN = DemoGTIN(len(ps))
			switch r := rng.IntN(100); {
			case r < 5:
				p.FDAStatus = catalog.FDAAuthorised
			case r < 9:
				p.FDAStatus = catalog.FDADenied
			case r < 15:
				p.FDAStatus = catalog.FDAPending
			default:
				p.FDAStatus = catalog.FDANone
			}
			ps = append(ps, p)
		}
	}
	return ps
}

func demoProduct(rng *rand.Rand, brand string, kind catalog.Kind, j int) *catalog.Product {
	p := &catalog.Product{Brand: brand, Kind: kind, Flavour: catalog.Unflavoured}
	flavoured := func() string {
		f := flavourOrder[storegen.Pick(rng, flavourWeights)]
		if kind == catalog.NicotinePouch && f == catalog.Dessert {
			f = catalog.Mint
		}
		if kind == catalog.HeatedTobacco {
			f = []catalog.Flavour{catalog.Tobacco, catalog.Tobacco, catalog.Menthol, catalog.Fruit}[rng.IntN(4)]
		}
		p.Flavour = f
		names := demoFlavours[f]
		return names[rng.IntN(len(names))]
	}
	strength := func(values ...string) {
		s := values[rng.IntN(len(values))]
		p.Nicotine, p.NicotineUnit = parseStrength(s)
	}
	switch kind {
	case catalog.Disposable:
		line := []string{"Bar 6000", "Stick 800", "Max 12K", "Mini 1500"}[rng.IntN(4)]
		p.Name = fmt.Sprintf("%s %s %s", brand, line, flavoured())
		strength("50 mg/mL", "50 mg/mL", "5%", "20 mg/mL", "30 mg/mL")
	case catalog.PodSystem:
		colour := []string{"Graphite", "Ocean Blue", "Rose Gold", "Forest Green", "Pearl White"}[rng.IntN(5)]
		p.Name = fmt.Sprintf("%s Pod Kit %s", brand, colour)
	case catalog.Pods:
		p.Name = fmt.Sprintf("%s Pods %s (4 pack)", brand, flavoured())
		strength("5%", "3%", "5%", "50 mg/mL", "35 mg/mL")
	case catalog.OpenSystem:
		w := []int{40, 80, 100, 200}[rng.IntN(4)]
		p.Name = fmt.Sprintf("%s Mod Kit %dW", brand, w)
	case catalog.ELiquid:
		size := []string{"30 mL", "60 mL", "100 mL"}[rng.IntN(3)]
		p.Name = fmt.Sprintf("%s %s %s", brand, flavoured(), size)
		strength("3 mg/mL", "6 mg/mL", "12 mg/mL", "35 mg/mL", "50 mg/mL")
		if j%5 == 4 { // a zero-nicotine bottle in each e-liquid brand
			zero := 0.0
			p.Nicotine, p.NicotineUnit, p.IsZeroNicApplicable = &zero, catalog.MgPerML, true
			p.Name += " Zero"
		}
	case catalog.NicotinePouch:
		p.Name = fmt.Sprintf("%s %s Pouches", brand, flavoured())
		strength("3 mg/pouch", "6 mg/pouch", "9 mg/pouch", "12 mg/pouch")
	case catalog.HeatedTobacco:
		p.Name = fmt.Sprintf("%s Heat Sticks %s", brand, flavoured())
	case catalog.Accessory:
		p.Name = brand + " " + []string{"USB-C Charger", "Replacement Coils 0.8 ohm (5 pack)", "Carry Case", "Drip Tips (3 pack)",
			"18650 Battery", "Lanyard"}[rng.IntN(6)]
	}
	p.Handle = slug.Make(p.Name)
	return p
}

// parseStrength turns a strength the demo writes into the catalogue's
// value and unit.
func parseStrength(s string) (*float64, catalog.Unit) {
	unit := catalog.MgPerML
	switch {
	case strings.HasSuffix(s, "%"):
		unit = catalog.Percent
	case strings.HasSuffix(s, " mg/pouch"):
		unit = catalog.MgPerPouch
	}
	v, err := strconv.ParseFloat(strings.Fields(strings.TrimSuffix(s, "%"))[0], 64)
	if err != nil { // the demo's own constants: a test catches a typo
		panic(fmt.Sprintf("demo strength %q: %v", s, err))
	}
	return &v, unit
}

// DemoStock is one demo store's stock of one demo product: Store and
// Product index the stores and products it was made from; the row's
// StoreID and ProductID are set when they are written.
type DemoStock struct {
	Store, Product int
	Row            inventory.Row
}

// lawStates are the states where more stores carry products: New York
// (with New York City's flavour ban), New Jersey and Massachusetts ban
// flavoured vapes, and the demo shows their stores' flavoured stock as not
// for sale by law.
var lawStates = map[string]bool{"NY": true, "NJ": true, "MA": true}

// The shares of stores that carry products, in lawStates and elsewhere:
// enough for a product to be found near any city, few enough that the
// stock adds little to the seeding time.
const (
	DemoCarryShareLaw = 0.3
	DemoCarryShare    = 0.1
)

// StaleAfter is the age past which a stock report reads as unknown
// (docs/products.md).
const StaleAfter = 7 * 24 * time.Hour

// priceRange is the usual shelf price of each kind, in cents.
var priceRange = map[catalog.Kind][2]int64{
	catalog.Disposable: {1499, 2499}, catalog.PodSystem: {2499, 3999}, catalog.Pods: {1299, 2199},
	catalog.OpenSystem: {4999, 8999}, catalog.ELiquid: {1499, 2999}, catalog.NicotinePouch: {549, 799},
	catalog.HeatedTobacco: {899, 1299}, catalog.Accessory: {499, 2999},
}

// MakeDemoStock makes the demo stores' stock: 30% of the stores of New York,
// New Jersey and Massachusetts and 10% of the others carry 20 to 150 of
// the products, flavoured ones among them, in stock (about 60%), limited,
// on display to order or out of stock, with quantities, USD prices (a
// store's own, near the kind's usual price, some on sale) and a report
// time in the 10 days before now (a store's feed reports its rows
// together), so about a third are stale. The same seed, stores and
// products make the same stock.
func MakeDemoStock(ss []*stores.Store, ps []*catalog.Product, now time.Time, seedValue uint64) []DemoStock {
	rng := rand.New(rand.NewPCG(seedValue, 0x73746f636b)) // "stock"
	base := make([]int64, len(ps))
	var flavoured []int
	for k, p := range ps {
		r := priceRange[p.Kind]
		base[k] = r[0] + rng.Int64N(r[1]-r[0]+1)
		if p.Flavour != catalog.Unflavoured && p.Flavour != catalog.Tobacco {
			flavoured = append(flavoured, k)
		}
	}
	perm := make([]int, len(ps))
	var out []DemoStock
	for i, s := range ss {
		share, r := DemoCarryShare, rng.Float64()
		if lawStates[s.State] {
			share = DemoCarryShareLaw
		}
		if r >= share || len(ps) == 0 {
			continue
		}
		n := min(20+rng.IntN(131), len(ps))
		for k := range perm {
			perm[k] = k
		}
		for k := range n { // the first n of a shuffle
			j := k + rng.IntN(len(perm)-k)
			perm[k], perm[j] = perm[j], perm[k]
		}
		picked := perm[:n]
		if len(flavoured) > 0 && !hasAny(picked, ps) {
			picked[0] = flavoured[rng.IntN(len(flavoured))]
		}
		reported := now.Add(-time.Duration(rng.Int64N(int64(10 * 24 * time.Hour))))
		markup := 0.9 + rng.Float64()*0.25
		for _, k := range picked {
			w := inventory.Row{ReportedAt: reported.Add(-time.Duration(rng.Int64N(int64(6 * time.Hour)))).UTC().Truncate(time.Second)}
			var qty int64
			switch r := rng.IntN(100); {
			case r < 60:
				w.Availability, qty = inventory.InStock, 5+rng.Int64N(56)
			case r < 75:
				w.Availability, qty = inventory.LimitedAvailability, 1+rng.Int64N(4)
			case r < 85:
				w.Availability = inventory.OnDisplayToOrder
			default:
				w.Availability = inventory.OutOfStock
			}
			if w.Availability != inventory.OnDisplayToOrder && rng.IntN(10) > 0 { // a tenth of feeds give no count
				w.Quantity = &qty
			}
			price := int64(float64(base[k])*markup)/100*100 + 99
			w.Price = &inventory.Price{Amount: price, Currency: "USD"}
			if rng.IntN(100) < 12 {
				off := price * int64(10+rng.IntN(16)) / 100
				w.SalePrice = &inventory.Price{Amount: (price-off)/100*100 + 49, Currency: "USD"}
			}
			out = append(out, DemoStock{Store: i, Product: k, Row: w})
		}
	}
	return out
}

func hasAny(picked []int, ps []*catalog.Product) bool {
	for _, k := range picked {
		if f := ps[k].Flavour; f != catalog.Unflavoured && f != catalog.Tobacco {
			return true
		}
	}
	return false
}

// ProductResult counts the demo products and stock rows written.
type ProductResult struct {
	Products, Stock int
}

// WriteProducts writes the demo catalogue and the stock of the demo
// stores ss (written before; a store without its database id is looked up
// by its store id), stock reported in the 10 days before now. The
// catalogue is one transaction and the stock another; both replace rows
// of the same ids, so writing again (a resumed first start) ends the same.
func WriteProducts(ctx context.Context, sr *stores.Repo, ss []*stores.Store, now time.Time, seedValue uint64) (ProductResult, error) {
	var res ProductResult
	cat := catalog.NewRepo(sr.DB())
	ps := DemoProducts(seedValue)
	if err := cat.Put(ctx, ps); err != nil {
		return res, fmt.Errorf("seed products: %w", err)
	}
	res.Products = len(ps)
	idx, err := cat.Index(ctx)
	if err != nil {
		return res, err
	}
	keys := make([]int64, len(ps))
	for k, p := range ps {
		id, _, ok := idx.ByID(p.ProductID)
		if !ok {
			return res, fmt.Errorf("seed stock: product %q is not in the catalogue", p.ProductID)
		}
		keys[k] = id
	}
	stock := MakeDemoStock(ss, ps, now, seedValue)
	rows := make([]inventory.Row, len(stock))
	for i, d := range stock {
		s := ss[d.Store]
		if s.ID == 0 {
			if s.ID, err = sr.IDByStoreID(ctx, s.StoreID); err != nil {
				return res, err
			}
			if s.ID == 0 {
				return res, fmt.Errorf("seed stock: store %s is not in the database", s.StoreID)
			}
		}
		rows[i] = d.Row
		rows[i].StoreID, rows[i].ProductID = s.ID, keys[d.Product]
	}
	if err := inventory.NewRepo(sr, cat).Put(ctx, rows); err != nil {
		return res, fmt.Errorf("seed stock: %w", err)
	}
	res.Stock = len(rows)
	return res, nil
}

package httpapi_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/catalog/catalogtest"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/partners"
	"locator/internal/productlaw"
	"locator/internal/stores"
)

type brandProductsReply struct {
	Brand    string `json:"brand"`
	Products []struct {
		ID     string `json:"id"`
		Brand  string `json:"brand"`
		Stores int    `json:"stores"`
	} `json:"products"`
}

// A brand's button (docs/embed.md), on both engines: /embed takes brand=
// when it is one of a brand partner's brands (any brand for a partner
// without a brand list) and refuses another with the one-line page; the
// chooser's call lists the brand's products, the partner's own first,
// then by how many stores carry them, and answers bad input with a 400.
func TestEmbedBrand(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		cat := catalogtest.Imported(t, d)
		rep, err := cat.ImportRecords(ctx, []catalog.Record{
			{"id": "kp-menthol-5", "brand": "Kestrel", "name": "Kestrel Pods Menthol (4 pack)", "kind": "pods", "flavour": "menthol"},
			{"id": "kp-starter", "brand": "kestrel ", "name": "Kestrel Starter Kit", "kind": "pod_system", "flavour": "unflavoured"},
		})
		dbtest.Must(t, err, "more Kestrel products")
		if rep.Created != 2 {
			t.Fatalf("more Kestrel products: %+v", rep)
		}
		idx, err := cat.Index(ctx)
		dbtest.Must(t, err, "catalogue keys")
		key := func(pid string) int64 {
			k, _, ok := idx.ByID(pid)
			if !ok {
				t.Fatalf("no product %s", pid)
			}
			return k
		}
		now := time.Now().UTC()
		stock := inventory.NewRepo(stores.NewRepo(d), cat)
		dbtest.Must(t, stock.Put(ctx, []inventory.Row{
			{StoreID: f.nearID, ProductID: key("kp-menthol-5"), Availability: inventory.InStock, ReportedAt: now},
			{StoreID: f.deliveryID, ProductID: key("kp-menthol-5"), Availability: inventory.OutOfStock, ReportedAt: now},
			{StoreID: f.curbsideID, ProductID: key("kp-classic-5"), Availability: inventory.InStock, ReportedAt: now},
			// A hidden store counts for no product.
			{StoreID: f.hiddenID, ProductID: key("kp-classic-5"), Availability: inventory.InStock, ReportedAt: now},
			{StoreID: f.hiddenID, ProductID: key("kp-starter"), Availability: inventory.InStock, ReportedAt: now},
		}), "stock")
		f.sy.WithProducts(stock, cat, productlaw.NewRepo(d))
		dbtest.Must(t, f.sy.Poll(ctx), "poll")

		widgetPartners(t, d, f) // acme: a brand without a brand list
		ps := partners.New(d, clock.System())
		_, err = ps.Create(ctx, partners.Input{Name: "Kestrel Co", Slug: "kestrel-co", Kind: "brand",
			AllowedOrigins: []string{"https://kestrel.example"}, Brands: []string{"Kestrel", "Frostline"}, ProductIDs: []string{"kp-starter"}})
		dbtest.Must(t, err, "partner")
		_, err = ps.Create(ctx, partners.Input{Name: "Chain", Slug: "a-chain", Kind: "chain",
			AllowedOrigins: []string{"https://chain.example"}, Brands: []string{"Frostline"}})
		dbtest.Must(t, err, "partner")

		// /embed: the partner's brand, in any case; another brand is refused in place.
		for _, c := range []struct {
			query string
			code  int
			says  string
		}{
			{"partner=kestrel-co&brand=Kestrel", 200, ""},
			{"partner=kestrel-co&brand=frostline&view=list", 200, ""},
			{"partner=kestrel-co&brand=Nimbus", 400, "brand must be one of the partner&#39;s brands: Frostline, Kestrel"},
			{"partner=acme&brand=Nimbus", 200, ""},
			{"partner=a-chain&brand=Nimbus", 200, ""},
			{"partner=kestrel-co&brand=%20", 400, "brand must name a brand"},
			{"partner=kestrel-co&brand=" + strings.Repeat("k", 101), 400, "brand must be text of at most 100 characters"},
			{"partner=kestrel-co&brand=Kestrel&brand=Frostline", 400, "brand is given more than once"},
		} {
			rec := getPage(t, f, "/embed?"+c.query)
			if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.says) {
				t.Errorf("/embed?%s: %d %.300s, want %d %q", c.query, rec.Code, rec.Body, c.code, c.says)
			}
			if c.code == 200 && rec.Header().Get("X-Frame-Options") != "" {
				t.Errorf("/embed?%s: not framable by the partner", c.query)
			}
		}

		list := func(query string) brandProductsReply {
			t.Helper()
			rec := do(t, f.srv, "GET", "/api/store/brand-products?"+query, nil, true)
			if rec.Code != 200 {
				t.Fatalf("%s: %d %s", query, rec.Code, rec.Body)
			}
			return decodeInto[brandProductsReply](t, rec.Body.Bytes())
		}
		ids := func(a brandProductsReply) (out []string) {
			for _, p := range a.Products {
				out = append(out, p.ID)
			}
			return out
		}
		// By how many listed stores carry each, then by name; the brand as the
		// catalogue spells it (its first product's).
		a := list("brand=KESTREL")
		if a.Brand != "Kestrel" || !slices.Equal(ids(a), []string{"kp-menthol-5", "kp-classic-5", "coil-mesh-08", "kp-starter"}) ||
			a.Products[0].Stores != 2 || a.Products[1].Stores != 1 || a.Products[2].Stores != 0 || a.Products[3].Stores != 0 {
			t.Errorf("Kestrel: %+v", a)
		}
		// The partner's own products first.
		if a := list("brand=Kestrel&partner=kestrel-co"); !slices.Equal(ids(a), []string{"kp-starter", "kp-menthol-5", "kp-classic-5", "coil-mesh-08"}) {
			t.Errorf("Kestrel for kestrel-co: %+v", a)
		}
		if a := list("brand=Kestrel&partner=kestrel-co&limit=2"); !slices.Equal(ids(a), []string{"kp-starter", "kp-menthol-5"}) {
			t.Errorf("limit 2: %+v", a)
		}
		// An unknown partner changes nothing; a brand without products lists none.
		if a := list("brand=Kestrel&partner=nobody"); !slices.Equal(ids(a), []string{"kp-menthol-5", "kp-classic-5", "coil-mesh-08", "kp-starter"}) {
			t.Errorf("unknown partner: %+v", a)
		}
		if a := list("brand=Nobody%20Vapes"); a.Brand != "Nobody Vapes" || len(a.Products) != 0 {
			t.Errorf("no such brand: %+v", a)
		}
		if a := list("brand=Nimbus&partner=acme"); !slices.Equal(ids(a), []string{"nx-mango-5"}) {
			t.Errorf("acme, no brand list: %+v", a)
		}

		for _, c := range []struct{ query, says string }{
			{"", "brand is required"},
			{"brand=%20%20", "brand is required"},
			{"brand=" + strings.Repeat("k", 101), "brand must be text of at most 100 characters"},
			{"brand=Kestrel&limit=0", "limit must be a whole number from 1 to 100"},
			{"brand=Kestrel&limit=101", "limit must be a whole number from 1 to 100"},
			{"brand=Kestrel&partner=Kestrel%20Co", "partner must be a partner"},
			{"brand=Nimbus&partner=kestrel-co", "brand must be one of the partner's brands: Frostline, Kestrel"},
			{"brand=Kestrel&brand=Nimbus", "brand is given more than once"},
		} {
			rec := do(t, f.srv, "GET", "/api/store/brand-products?"+c.query, nil, false)
			m := decodeInto[struct{ Message string }](t, rec.Body.Bytes())
			if rec.Code != 400 || !strings.Contains(m.Message, c.says) {
				t.Errorf("%q: %d %s, want 400 %q", c.query, rec.Code, rec.Body, c.says)
			}
		}
	})
}

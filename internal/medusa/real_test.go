package medusa

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/stores"
)

// admin is a bare client of a real Medusa's admin API, to seed it.
type admin struct {
	t     *testing.T
	base  string
	token string
}

func (a *admin) call(method, path string, body any, out any) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			a.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	res, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		a.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			a.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	if dir := os.Getenv("LOCATOR_TEST_MEDUSA_RECORD"); dir != "" && method == http.MethodGet {
		name := strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_", "[", "", "]", "", "*", "", ",", "_").Replace(strings.TrimPrefix(path, "/admin/"))
		_ = os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644)
	}
}

type idOf struct {
	ID string `json:"id"`
}

// TestRealMedusa seeds a real Medusa v2 server through its admin API (a
// collection, a product type, a product with two variants, a stock
// location and its levels) and syncs it on both engines: the catalogue
// with its GTINs, the mapped location's stock by the availability rule, a
// variant's change read incrementally, a level's change. make test-medusa
// (tools/medusa/medusa.sh test) starts the server and sets the variables.
func TestRealMedusa(t *testing.T) {
	base := os.Getenv("LOCATOR_TEST_MEDUSA_URL")
	if base == "" {
		t.Skip("no real Medusa server: make test-medusa starts one (tools/medusa/medusa.sh) and sets LOCATOR_TEST_MEDUSA_URL")
	}
	email, password := os.Getenv("LOCATOR_TEST_MEDUSA_EMAIL"), os.Getenv("LOCATOR_TEST_MEDUSA_PASSWORD")
	a := &admin{t: t, base: base}
	var tok struct {
		Token string `json:"token"`
	}
	a.call("POST", "/auth/user/emailpass", map[string]string{"email": email, "password": password}, &tok)
	a.token = tok.Token

	// Seed. A run's own suffix keeps handles and SKUs apart on a server
	// that was seeded before.
	run := fmt.Sprint(time.Now().UnixNano() % 1_000_000)
	var col struct {
		Collection idOf `json:"collection"`
	}
	a.call("POST", "/admin/collections", map[string]any{"title": "Nimbus", "handle": "nimbus-" + run}, &col)
	// A product type's value is unique: the one a seeded server has, else a new one.
	var types struct {
		ProductTypes []idOf `json:"product_types"`
	}
	a.call("GET", "/admin/product-types?value=disposable", nil, &types)
	var typ struct {
		ProductType idOf `json:"product_type"`
	}
	if len(types.ProductTypes) > 0 {
		typ.ProductType = types.ProductTypes[0]
	} else {
		a.call("POST", "/admin/product-types", map[string]any{"value": "disposable"}, &typ)
	}
	mango, blue := "NB5K-MANGO-"+run, "NB5K-BLUE-"+run
	var prod struct {
		Product struct {
			ID       string `json:"id"`
			Variants []struct {
				ID  string `json:"id"`
				SKU string `json:"sku"`
			} `json:"variants"`
		} `json:"product"`
	}
	a.call("POST", "/admin/products", map[string]any{
		"title": "Nimbus Bar 5000", "handle": "nimbus-bar-5000-" + run, "status": "published",
		"thumbnail": "https://cdn.example.com/nimbus.jpg", "collection_id": col.Collection.ID, "type_id": typ.ProductType.ID,
		"metadata": map[string]any{"flavour": "fruit", "nicotine": "50 mg/mL"},
		"options":  []map[string]any{{"title": "Flavour", "values": []string{"Mango Ice", "Blue Razz"}}},
		"variants": []map[string]any{
			{"title": "Mango Ice", "sku": mango, "ean": "0840000100016", "manage_inventory": true,
				"options": map[string]string{"Flavour": "Mango Ice"}, "prices": []map[string]any{{"currency_code": "usd", "amount": 21.99}}},
			{"title": "Blue Razz", "sku": blue, "upc": "840000100023", "manage_inventory": true,
				"options": map[string]string{"Flavour": "Blue Razz"}, "prices": []map[string]any{{"currency_code": "usd", "amount": 19.5}}},
		},
	}, &prod)
	var loc struct {
		StockLocation idOf `json:"stock_location"`
	}
	a.call("POST", "/admin/stock-locations", map[string]any{"name": "Empire Vapes Midtown " + run,
		"address": map[string]any{"address_1": "350 5th Ave", "city": "New York", "postal_code": "10118", "country_code": "us", "province": "NY"}}, &loc)
	items := map[string]string{}
	for _, sku := range []string{mango, blue} {
		var inv struct {
			InventoryItems []idOf `json:"inventory_items"`
		}
		a.call("GET", "/admin/inventory-items?sku="+url.QueryEscape(sku), nil, &inv)
		if len(inv.InventoryItems) != 1 {
			t.Fatalf("inventory items of %s: %+v", sku, inv)
		}
		items[sku] = inv.InventoryItems[0].ID
		a.call("POST", "/admin/inventory-items/"+items[sku]+"/location-levels",
			map[string]any{"location_id": loc.StockLocation.ID, "stocked_quantity": 0}, nil)
	}
	setLevel := func(sku string, n int) {
		a.call("POST", "/admin/inventory-items/"+items[sku]+"/location-levels/"+loc.StockLocation.ID, map[string]any{"stocked_quantity": n}, nil)
	}
	if os.Getenv("LOCATOR_TEST_MEDUSA_RECORD") != "" {
		a.call("GET", "/admin/products?fields="+url.QueryEscape(productFields)+"&id[]="+prod.Product.ID, nil, nil)
		a.call("GET", "/admin/stock-locations?fields=id,name,*address&id[]="+loc.StockLocation.ID, nil, nil)
		a.call("GET", "/admin/inventory-items?fields=id,sku,*location_levels&location_levels[location_id]="+loc.StockLocation.ID, nil, nil)
	}

	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		sr := stores.NewRepo(d)
		st := &stores.Store{Name: "Empire Vapes", Address: "350 Fifth Avenue", City: "New York", State: "NY", PostalCode: "10118",
			CountryCode: "US", CountryName: "United States", Latitude: 40.7484, Longitude: -73.9857, TimeZone: "America/New_York", Status: stores.Published}
		dbtest.Must(t, sr.Create(ctx, st), "store")
		cat := catalog.NewRepo(d)
		stock := inventory.NewRepo(sr, cat)
		c, err := NewClient(Settings{URL: base, Email: email, Password: password})
		dbtest.Must(t, err, "client")
		s := NewSyncer(c, d, cat, stock)
		// Each engine's run starts from the same Medusa.
		a.call("POST", "/admin/products/"+prod.Product.ID+"/variants/"+variantOf(t, prod.Product.Variants, mango), map[string]any{"title": "Mango Ice"}, nil)
		setLevel(mango, 12)
		setLevel(blue, 3)

		rep, err := s.Run(ctx)
		dbtest.Must(t, err, "first sync")
		if rep.Failed != 0 || rep.Written < 2 {
			t.Fatalf("first sync: %+v", rep)
		}
		p, err := cat.Get(ctx, mango)
		dbtest.Must(t, err, "mango")
		if p.Name != "Nimbus Bar 5000 - Mango Ice" || p.Brand != "Nimbus" || p.Kind != catalog.Disposable || p.GTIN != "00840000100016" ||
			p.Handle != "nimbus-bar-5000-"+run || p.Flavour != catalog.Fruit {
			t.Fatalf("mango from Medusa: %+v", p)
		}
		if p, err := cat.Get(ctx, blue); err != nil || p.GTIN != "00840000100023" {
			t.Fatalf("blue from Medusa: %+v %v", p, err)
		}
		// The location, proposed by its address, mapped.
		locs := NewLocations(d)
		ps, err := locs.Propose(ctx, loc.StockLocation.ID)
		dbtest.Must(t, err, "propose")
		if len(ps) == 0 || ps[0].Store.ID != st.ID || !ps[0].SameAddress {
			t.Fatalf("proposals: %+v", ps)
		}
		_, err = locs.Map(ctx, loc.StockLocation.ID, st.ID, "test")
		dbtest.Must(t, err, "map")

		rep, err = s.Run(ctx)
		dbtest.Must(t, err, "second sync")
		if rep.Stock != 2 || rep.Written != 0 {
			t.Fatalf("second sync: %+v", rep)
		}
		rows, err := stock.ForStore(ctx, st.ID)
		dbtest.Must(t, err, "stock")
		got := map[string]inventory.Row{}
		for _, r := range rows {
			got[r.Product] = r
		}
		if r := got[mango]; r.Availability != inventory.InStock || *r.Quantity != 12 || r.Price == nil || r.Price.String() != "21.99 USD" {
			t.Fatalf("mango's stock: %+v", r)
		}
		if r := got[blue]; r.Availability != inventory.LimitedAvailability || *r.Quantity != 3 || r.Price.String() != "19.50 USD" {
			t.Fatalf("blue's stock: %+v", r)
		}

		// A variant renamed (its product's updated_at does not move) and a
		// level sold out: exactly those are written.
		a.call("POST", "/admin/products/"+prod.Product.ID+"/variants/"+variantOf(t, prod.Product.Variants, mango),
			map[string]any{"title": "Mango Ice " + t.Name()[len(t.Name())-6:]}, nil)
		setLevel(mango, 0)
		rep, err = s.Run(ctx)
		dbtest.Must(t, err, "third sync")
		if rep.Written != 1 || rep.Stock != 1 {
			t.Fatalf("third sync: %+v", rep)
		}
		if p, _ := cat.Get(ctx, mango); !strings.HasPrefix(p.Name, "Nimbus Bar 5000 - Mango Ice ") {
			t.Fatalf("renamed: %+v", p)
		}
		rows, _ = stock.ForStore(ctx, st.ID)
		for _, r := range rows {
			if r.Product == mango && (r.Availability != inventory.OutOfStock || *r.Quantity != 0) {
				t.Fatalf("sold out: %+v", r)
			}
		}
	})
}

func variantOf(t *testing.T, vs []struct {
	ID  string `json:"id"`
	SKU string `json:"sku"`
}, sku string) string {
	t.Helper()
	for _, v := range vs {
		if v.SKU == sku {
			return v.ID
		}
	}
	t.Fatalf("no variant %s", sku)
	return ""
}

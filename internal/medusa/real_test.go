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
	var prod createdProduct
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
		items[sku] = a.itemOf(sku)
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
		realDeletions(t, a, run, s, d, st, loc.StockLocation.ID, items[mango])
	})
}

// realDeletions deletes in the real Medusa a variant, a product and a
// stock location, each synced first, and checks what the sync withdraws:
// a product of two variants stocked at loc (mapped to st), an owner of a
// second store stocking one of them, and a second location mapped to a
// third store stocking mangoItem. Each engine creates its own.
func realDeletions(t *testing.T, a *admin, run string, s *Syncer, d *db.DB, st *stores.Store, loc, mangoItem string) {
	ctx := context.Background()
	cat, stock, locs := s.cat, s.stock, NewLocations(d)
	tag := run + "-" + t.Name()[strings.LastIndex(t.Name(), "/")+1:]
	one, two := "DEL-ONE-"+tag, "DEL-TWO-"+tag
	var prod createdProduct
	a.call("POST", "/admin/products", map[string]any{
		"title": "Deleted Soon " + tag, "handle": "deleted-soon-" + strings.ToLower(tag), "status": "published",
		"metadata": map[string]any{"brand": "Nimbus", "kind": "disposable", "flavour": "tobacco"},
		"options":  []map[string]any{{"title": "Size", "values": []string{"One", "Two"}}},
		"variants": []map[string]any{
			{"title": "One", "sku": one, "manage_inventory": true, "options": map[string]string{"Size": "One"},
				"prices": []map[string]any{{"currency_code": "usd", "amount": 10}}},
			{"title": "Two", "sku": two, "manage_inventory": true, "options": map[string]string{"Size": "Two"},
				"prices": []map[string]any{{"currency_code": "usd", "amount": 12}}},
		},
	}, &prod)
	for sku, n := range map[string]int{one: 8, two: 2} {
		a.call("POST", "/admin/inventory-items/"+a.itemOf(sku)+"/location-levels",
			map[string]any{"location_id": loc, "stocked_quantity": n}, nil)
	}
	var loc2 struct {
		StockLocation idOf `json:"stock_location"`
	}
	a.call("POST", "/admin/stock-locations", map[string]any{"name": "Closing Soon " + tag,
		"address": map[string]any{"address_1": "1 Main St", "city": "Albany", "postal_code": "12207", "country_code": "us", "province": "NY"}}, &loc2)
	a.call("POST", "/admin/inventory-items/"+mangoItem+"/location-levels", map[string]any{"location_id": loc2.StockLocation.ID, "stocked_quantity": 5}, nil)
	sr := stores.NewRepo(d)
	mk := func(name string) *stores.Store {
		o := *st
		o.ID, o.Name, o.Address = 0, name, "1 Main St"
		dbtest.Must(t, sr.Create(ctx, &o), "store")
		return &o
	}
	owner, closing := mk("Owner's Own"), mk("Closing Soon")
	_, err := s.Run(ctx)
	dbtest.Must(t, err, "sync before the deletions")
	_, err = locs.Map(ctx, loc2.StockLocation.ID, closing.ID, "test")
	dbtest.Must(t, err, "map the second location")
	rep, err := s.Run(ctx)
	dbtest.Must(t, err, "sync the second location")
	twoP, err := cat.Get(ctx, two)
	dbtest.Must(t, err, "the second variant's product")
	qty := int64(4)
	dbtest.Must(t, stock.Set(ctx, owner.ID, twoP.ID, inventory.Row{Availability: inventory.InStock, Quantity: &qty}), "owner's row")
	has := func(store int64, pid string) bool {
		rows, err := stock.ForStore(ctx, store)
		dbtest.Must(t, err, "stock")
		for _, r := range rows {
			if r.Product == pid {
				return true
			}
		}
		return false
	}
	if !has(st.ID, one) || !has(st.ID, two) || !has(closing.ID, itemProduct(t, d, mangoItem)) {
		t.Fatalf("stock before the deletions: %+v", rep)
	}

	// A variant deleted: its row leaves the store, its product the catalogue.
	a.call("DELETE", "/admin/products/"+prod.Product.ID+"/variants/"+variantOf(t, prod.Product.Variants, one), nil, nil)
	rep, err = s.Run(ctx)
	dbtest.Must(t, err, "sync after a variant's deletion")
	if rep.Withdrawn != 1 || rep.StockRemoved != 1 || rep.ProductsRemoved != 1 || has(st.ID, one) {
		t.Fatalf("a variant deleted: %+v", rep)
	}
	if _, err := cat.Get(ctx, one); !catalog.IsNotFound(err) {
		t.Fatalf("the deleted variant's product: %v", err)
	}
	// The product deleted: its other variant's row leaves the store; the
	// owner's own row stays, and so does the catalogue entry it names.
	a.call("DELETE", "/admin/products/"+prod.Product.ID, nil, nil)
	rep, err = s.Run(ctx)
	dbtest.Must(t, err, "sync after a product's deletion")
	if rep.Withdrawn != 1 || rep.StockRemoved != 1 || rep.ProductsRemoved != 0 || has(st.ID, two) || !has(owner.ID, two) {
		t.Fatalf("a product deleted: %+v", rep)
	}
	// The second location deleted (Medusa keeps its levels): flagged, its
	// store's rows removed, and not read again.
	a.call("DELETE", "/admin/stock-locations/"+loc2.StockLocation.ID, nil, nil)
	rep, err = s.Run(ctx)
	dbtest.Must(t, err, "sync after a location's deletion")
	if rep.LocationsGone != 1 || rep.StockRemoved != 1 || rep.Mapped != 1 {
		t.Fatalf("a location deleted: %+v", rep)
	}
	if rows, _ := stock.ForStore(ctx, closing.ID); len(rows) != 0 {
		t.Fatalf("the gone location's store: %+v", rows)
	}
	views, err := locs.List(ctx)
	dbtest.Must(t, err, "locations")
	for _, v := range views {
		if (v.ID == loc2.StockLocation.ID) != (v.GoneAt != nil) {
			t.Fatalf("location %s gone at %v", v.ID, v.GoneAt)
		}
	}
	st2, err := s.State(ctx)
	dbtest.Must(t, err, "state")
	if st2.LastLocationsGone != 1 || st2.LastStockRemoved != 1 {
		t.Fatalf("state: %+v", st2)
	}
}

// itemProduct is the catalogue product id of the variant using inventory item item.
func itemProduct(t *testing.T, d *db.DB, item string) string {
	t.Helper()
	var pid string
	dbtest.Must(t, d.QueryRow(context.Background(), `SELECT product_id FROM medusa_variants WHERE inventory_item_id = $1`, item).Scan(&pid), "item's product")
	return pid
}

// createdProduct is the answer of POST /admin/products: the product's id
// and its variants'.
type createdProduct struct {
	Product struct {
		ID       string       `json:"id"`
		Variants []variantRef `json:"variants"`
	} `json:"product"`
}

type variantRef struct {
	ID  string `json:"id"`
	SKU string `json:"sku"`
}

// itemOf is the inventory item of the variant with SKU sku.
func (a *admin) itemOf(sku string) string {
	a.t.Helper()
	var inv struct {
		InventoryItems []idOf `json:"inventory_items"`
	}
	a.call("GET", "/admin/inventory-items?sku="+url.QueryEscape(sku), nil, &inv)
	if len(inv.InventoryItems) != 1 {
		a.t.Fatalf("inventory items of %s: %+v", sku, inv)
	}
	return inv.InventoryItems[0].ID
}

func variantOf(t *testing.T, vs []variantRef, sku string) string {
	t.Helper()
	for _, v := range vs {
		if v.SKU == sku {
			return v.ID
		}
	}
	t.Fatalf("no variant %s", sku)
	return ""
}

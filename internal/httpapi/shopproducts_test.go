package httpapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog/catalogtest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/stores"
)

type productListReply struct {
	Stores []struct {
		ID      int64 `json:"id"`
		Product *struct {
			ID           string   `json:"id"`
			Availability string   `json:"availability"`
			Price        *float64 `json:"price"`
			Currency     *string  `json:"currency_code"`
			Lawful       bool     `json:"lawful"`
			Stale        bool     `json:"stale"`
			Rule         *struct {
				ID       string `json:"id"`
				Citation string `json:"citation"`
			} `json:"rule"`
		} `json:"product"`
	} `json:"physical_stores"`
	HasMore bool `json:"has_more"`
}

type productSummaryReply struct {
	ID        string  `json:"id"`
	GTIN      *string `json:"gtin"`
	Brand     string  `json:"brand"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Nicotine  *string `json:"nicotine"`
	Handle    *string `json:"handle"`
	Thumbnail *string `json:"thumbnail"`
	FDA       string  `json:"fda_status"`
	// A store's products only.
	Availability string `json:"availability"`
	Lawful       bool   `json:"lawful"`
}

func decodeInto[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}

// The shoppers' product calls on both engines, every answer checked
// against api/openapi.yaml: the list call with a product (by id or GTIN)
// lists the stores that carry it with their stock and the law's verdict,
// in_stock keeps the lawful fresh in-stock ones, a stock change shows
// after the next poll; suggestions, one product, a store's products; and
// bad input is a 4xx with a message.
func TestShopperProductAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		cat := catalogtest.Imported(t, d)
		idx, err := cat.Index(ctx)
		dbtest.Must(t, err, "catalogue keys")
		mango, _, _ := idx.ByID("nx-mango-5")
		pods, _, _ := idx.ByID("kp-classic-5")
		sr := stores.NewRepo(d)
		stock := inventory.NewRepo(sr, cat)
		now := time.Now().UTC()
		dbtest.Must(t, stock.Put(ctx, []inventory.Row{
			{StoreID: f.nearID, ProductID: mango, Availability: inventory.InStock, Price: &inventory.Price{Amount: 2199, Currency: "USD"}, ReportedAt: now},
			{StoreID: f.nearID, ProductID: pods, Availability: inventory.OutOfStock, ReportedAt: now},
			{StoreID: f.deliveryID, ProductID: pods, Availability: inventory.LimitedAvailability, ReportedAt: now},
			{StoreID: f.curbsideID, ProductID: pods, Availability: inventory.InStock, ReportedAt: now.Add(-10 * 24 * time.Hour)},
			{StoreID: f.hiddenID, ProductID: pods, Availability: inventory.InStock, ReportedAt: now},
		}), "stock")
		f.sy.WithProducts(stock, cat, productlaw.NewRepo(d))
		dbtest.Must(t, f.sy.Poll(ctx), "poll")

		list := func(query string, status int) productListReply {
			t.Helper()
			rec := do(t, f.srv, "GET", "/api/store/physical-store/list-physical-store/?latitude=40.7130&longitude=-74.0060&radius=30&"+query, nil, status == 200)
			if rec.Code != status {
				t.Fatalf("%s: %d %s, want %d", query, rec.Code, rec.Body, status)
			}
			if status != 200 {
				m := decodeInto[struct{ Message string }](t, rec.Body.Bytes())
				if m.Message == "" {
					t.Errorf("%s: %d without a message: %s", query, status, rec.Body)
				}
				return productListReply{}
			}
			return decodeInto[productListReply](t, rec.Body.Bytes())
		}
		// The mango: only Near carries it; New York's flavour ban makes it
		// unlawful there, with the rule; by id or any form of its GTIN.
		for _, ref := range []string{"nx-mango-5", "840000100016", "00840000100016"} {
			a := list("product="+ref, 200)
			if len(a.Stores) != 1 || a.Stores[0].ID != f.nearID || a.Stores[0].Product == nil {
				t.Fatalf("%s: %+v", ref, a)
			}
			p := a.Stores[0].Product
			if p.ID != "nx-mango-5" || p.Lawful || p.Rule == nil || p.Rule.Citation == "" || *p.Price != 21.99 || *p.Currency != "usd" {
				t.Errorf("%s at Near: %+v", ref, p)
			}
		}
		if a := list("product=nx-mango-5&in_stock=true", 200); len(a.Stores) != 0 {
			t.Errorf("an unlawful product in stock: %+v", a)
		}
		// The pods: Near (out), Delivery (limited), Curbside (stale); not the
		// hidden store. Within the first band the limited one comes first.
		a := list("product=kp-classic-5", 200)
		var ids []int64
		for _, s := range a.Stores {
			ids = append(ids, s.ID)
		}
		if len(ids) != 3 || ids[0] != f.deliveryID || ids[1] != f.nearID || ids[2] != f.curbsideID || !a.Stores[2].Product.Stale || a.Stores[0].Product.Stale {
			t.Errorf("pods: %v (near %d, delivery %d, curbside %d)", ids, f.nearID, f.deliveryID, f.curbsideID)
		}
		if a := list("product=kp-classic-5&in_stock=true", 200); len(a.Stores) != 1 || a.Stores[0].ID != f.deliveryID {
			t.Errorf("pods in stock: %+v", a)
		}
		if a := list("product=kp-classic-5&is_delivery_available=true&limit=1", 200); len(a.Stores) != 1 || a.Stores[0].ID != f.deliveryID || a.HasMore {
			t.Errorf("pods with delivery: %+v", a)
		}
		if a := list("", 200); len(a.Stores) == 0 || a.Stores[0].Product != nil {
			t.Errorf("without a product, stores carry no product: %+v", a)
		}
		// An owner marks Near's pods in stock: after a poll it ranks first.
		dbtest.Must(t, stock.Set(ctx, f.nearID, pods, inventory.Row{Availability: inventory.InStock}), "set")
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		if a := list("product=kp-classic-5&in_stock=true", 200); len(a.Stores) != 2 || a.Stores[0].ID != f.nearID {
			t.Errorf("pods in stock after Near's change: %+v", a)
		}

		// Bad input.
		list("product=no-such-product", 404)
		list("product=840000100017", 404) // a wrong check digit is no product either
		list("product=%00", 400)
		list("product=nx%00", 400)
		list("product="+strings.Repeat("x", 101), 400)
		list("product=", 400)
		list("product=nx-mango-5&in_stock=maybe", 400)
		list("in_stock=true", 400)
		list("product=a&product=b", 400)

		// Suggestions.
		suggest := func(query string, status int) []productSummaryReply {
			t.Helper()
			rec := do(t, f.srv, "GET", "/api/store/products/suggest?"+query, nil, status == 200)
			if rec.Code != status {
				t.Fatalf("suggest %s: %d %s, want %d", query, rec.Code, rec.Body, status)
			}
			if status != 200 {
				return nil
			}
			return decodeInto[struct {
				Products []productSummaryReply `json:"products"`
			}](t, rec.Body.Bytes()).Products
		}
		if got := suggest("q=nimbis", 200); len(got) != 1 || got[0].ID != "nx-mango-5" || *got[0].GTIN != "00840000100016" ||
			*got[0].Nicotine != "50 mg/mL" || *got[0].Handle != "nimbus-bar-5000-mango-ice" || got[0].Thumbnail == nil {
			t.Errorf("nimbis: %+v", got)
		}
		if got := suggest("q="+url.QueryEscape("KESTREL classic")+"&limit=20", 200); len(got) != 1 || got[0].ID != "kp-classic-5" {
			t.Errorf("kestrel classic: %+v", got)
		}
		if got := suggest("q=zzzz", 200); got == nil || len(got) != 0 {
			t.Errorf("zzzz: %+v", got)
		}
		for _, bad := range []string{"", "q=", "q=%20", "q=%00", "q=" + strings.Repeat("a", 101), "q=a&limit=0", "q=a&limit=21", "q=a&limit=x"} {
			suggest(bad, 400)
		}

		// One product.
		get := func(target string, status int) *httptestBody {
			t.Helper()
			rec := do(t, f.srv, "GET", target, nil, status == 200)
			if rec.Code != status {
				t.Fatalf("%s: %d %s, want %d", target, rec.Code, rec.Body, status)
			}
			if status != 200 && decodeInto[struct{ Message string }](t, rec.Body.Bytes()).Message == "" {
				t.Errorf("%s: no message", target)
			}
			return &httptestBody{rec.Body.Bytes()}
		}
		for _, ref := range []string{"kp-classic-5", "4000001000012", "04000001000012"} {
			p := decodeInto[struct{ Product productSummaryReply }](t, get("/api/store/products/"+ref, 200).b).Product
			if p.ID != "kp-classic-5" || p.FDA != "authorised" || p.Kind != "pods" {
				t.Errorf("%s: %+v", ref, p)
			}
		}
		get("/api/store/products/no-such", 404)
		get("/api/store/products/nx%00", 400)
		get("/api/store/products/"+strings.Repeat("x", 101), 400)

		// A store's products, by kind.
		ps := decodeInto[struct{ Products []productSummaryReply }](t, get("/api/store/physical-store/"+strconv.FormatInt(f.nearID, 10)+"/products", 200).b).Products
		if len(ps) != 2 || ps[0].ID != "nx-mango-5" || ps[0].Lawful || ps[1].ID != "kp-classic-5" || !ps[1].Lawful || ps[1].Availability != "in_stock" {
			t.Errorf("Near's products: %+v", ps)
		}
		ps = decodeInto[struct{ Products []productSummaryReply }](t, get("/api/store/physical-store/"+strconv.FormatInt(f.allDayID, 10)+"/products", 200).b).Products
		if ps == nil || len(ps) != 0 {
			t.Errorf("a store without stock: %+v", ps)
		}
		get("/api/store/physical-store/"+strconv.FormatInt(f.hiddenID, 10)+"/products", 404)
		get("/api/store/physical-store/999999/products", 404)
		get("/api/store/physical-store/x/products", 400)
	})
}

type httptestBody struct{ b []byte }

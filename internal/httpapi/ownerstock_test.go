package httpapi_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/ownerstock"
	"locator/internal/stores"
)

// An owner finds a product, marks it carried, out of stock, removes it
// and uploads a feed in /business; another account reaches none of it.
func TestOwnerStockCalls(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		inv := posSetup(t, d, s, 0)
		s.srv.OwnerStock = ownerstock.New(stores.NewRepo(d), s.srv.Catalog, inv, nil)
		rec, out := s.owner.call("GET", "/api/business/products?q=840000100016", nil)
		if rec.Code != 200 || out["total"] != 1.0 || !strings.Contains(rec.Body.String(), `"id":"nx-mango-5"`) {
			t.Fatalf("find by a scanned UPC-A: %d %s", rec.Code, rec.Body)
		}
		if rec, out := s.owner.call("GET", "/api/business/products?q=kestrel&limit=5", nil); rec.Code != 200 || out["total"] != 2.0 {
			t.Fatalf("find by brand: %d %s", rec.Code, rec.Body)
		}
		stock := fmt.Sprintf("/api/business/stores/%d/stock", s.ownStore)
		rec, _ = s.owner.call("PUT", stock+"/nx-mango-5", map[string]any{"availability": "in_stock", "quantity": 6, "price": "21.99 USD"})
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"lawful":true`) || !strings.Contains(rec.Body.String(), `"price":"21.99 USD"`) {
			t.Fatalf("mark carried: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.owner.call("PUT", stock+"/nx-mango-5", map[string]any{"availability": "out_of_stock", "quantity": 0}); rec.Code != 200 {
			t.Fatalf("out of stock: %d %s", rec.Code, rec.Body)
		}
		if got := stockLines(t, inv, s.ownStore); got != "nx-mango-5 out_of_stock 0;" {
			t.Errorf("stock %q", got)
		}
		// Another account: not found, nothing changed.
		for _, c := range []struct{ method, target string }{{"GET", stock}, {"PUT", stock + "/nx-mango-5"}, {"DELETE", stock + "/nx-mango-5"}} {
			if rec, _ := s.other.call(c.method, c.target, map[string]any{"availability": "in_stock"}); rec.Code != 404 {
				t.Errorf("other account %s %s: %d %s", c.method, c.target, rec.Code, rec.Body)
			}
		}
		// Bad values.
		for _, body := range []any{map[string]any{"availability": "sold_out"}, map[string]any{"availability": "in_stock", "quantity": -1},
			map[string]any{"availability": "in_stock", "price": "12 dollars"}, map[string]any{"availability": "in_stock", "quantity": "x"}, "[]"} {
			if rec, out := s.owner.call("PUT", stock+"/nx-mango-5", body); rec.Code != 400 || out["message"] == "" {
				t.Errorf("PUT %v: %d %s", body, rec.Code, rec.Body)
			}
		}
		if rec, _ := s.owner.call("PUT", stock+"/no-such", map[string]any{"availability": "in_stock"}); rec.Code != 404 {
			t.Errorf("unknown product: %d", rec.Code)
		}
		rec, out = s.owner.call("GET", stock, nil)
		if rec.Code != 200 || len(out["items"].([]any)) != 1 {
			t.Fatalf("list: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.owner.call("DELETE", stock+"/nx-mango-5", nil); rec.Code != 200 {
			t.Fatalf("remove: %d %s", rec.Code, rec.Body)
		}
		if got := stockLines(t, inv, s.ownStore); got != "" {
			t.Errorf("after remove: %q", got)
		}
		// A feed upload: the account's store written, the other's refused.
		feed := fmt.Sprintf("store_code,id,availability,quantity\n%d,kp-classic-5,in_stock,4\n%d,kp-classic-5,in_stock,4\n", s.ownStore, s.nearID)
		rec = upload(t, s, "/api/business/stock/import?file_name=feed.csv", feed)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"rows":1`) || !strings.Contains(rec.Body.String(), "is not one of your stores") {
			t.Fatalf("upload: %d %s", rec.Code, rec.Body)
		}
		if got := stockLines(t, inv, s.nearID); got != "" {
			t.Errorf("the other business's store got stock: %q", got)
		}
		if got := stockLines(t, inv, s.ownStore); got != "kp-classic-5 in_stock 4;" {
			t.Errorf("own store after upload: %q", got)
		}
		for _, c := range []struct {
			target, body string
			status       int
		}{
			{"/api/business/stock/import", "store,item\nx,y\n", 400},
			{"/api/business/stock/import", "", 400},
			{"/api/business/stock/import?replace=maybe", feed, 400},
			{"/api/business/stock/import", "store_code,id,availability\n" + strings.Repeat("1,kp-classic-5,in_stock\n", (21<<20)/24), 413},
		} {
			if rec := upload(t, s, c.target, c.body); rec.Code != c.status || !strings.Contains(rec.Body.String(), `"message"`) {
				t.Errorf("upload %s (%d bytes): %d %.200s, want %d", c.target, len(c.body), rec.Code, rec.Body, c.status)
			}
		}
	})
}

func upload(t *testing.T, s *bizSetup, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", target, strings.NewReader(body))
	req.Header.Set("Content-Type", "text/csv")
	for _, ck := range s.owner.cookies {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	checkContract(t, req, []byte(body), rec, false)
	return rec
}

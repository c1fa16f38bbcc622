package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/catalog/catalogtest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// adminProductReply is the typed reply of GET/PATCH /api/admin/products/{id}.
type adminProductReply struct {
	Product adminProductItem `json:"product"`
}

type adminProductItem struct {
	ID       string  `json:"id"`
	GTIN     *string `json:"gtin"`
	Brand    string  `json:"brand"`
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Flavour  string  `json:"flavour"`
	Nicotine *string `json:"nicotine"`
	Handle   *string `json:"handle"`
	FDA      string  `json:"fda_status"`
}

type adminProductList struct {
	Products []adminProductItem `json:"products"`
	Total    int                `json:"total"`
}

// A moderator finds a product by name, brand or GTIN, opens it, edits it
// with the catalogue's rules (each refused field a 400 naming it, a GTIN
// another product holds a 409), and the edit is in the audit log; nobody
// else may look.
func TestAdminProductsAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		cat := catalogtest.Imported(t, d)
		f.srv.Catalog = cat
		dbtest.Must(t, newClaims(d, nil, nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")

		anon := &client{t: t, h: f.srv}
		anon.runEach([]step{
			{name: "the list without a moderator", method: "GET", target: "/api/admin/products", status: 401},
			{name: "a product without a moderator", method: "GET", target: "/api/admin/products/nx-mango-5", status: 401},
			{name: "an edit without a moderator", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"name": "x"}, status: 401},
		})
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		list := func(want int, first string) replyCheck {
			return reply(func(t *testing.T, l adminProductList) {
				if l.Total != want || (first != "" && (len(l.Products) == 0 || l.Products[0].ID != first)) {
					t.Errorf("list: %+v; want %d, first %q", l, want, first)
				}
			})
		}
		mod.runEach([]step{
			{name: "the catalogue", method: "GET", target: "/api/admin/products", status: 200, reply: list(6, "ht-amber")},
			{name: "a page", method: "GET", target: "/api/admin/products?limit=2&offset=2", status: 200, reply: reply(func(t *testing.T, l adminProductList) {
				if l.Total != 6 || len(l.Products) != 2 {
					t.Errorf("page: %+v", l)
				}
			})},
			{name: "by brand", method: "GET", target: "/api/admin/products?q=kestrel", status: 200, reply: list(2, "coil-mesh-08")},
			{name: "by UPC-A", method: "GET", target: "/api/admin/products?q=840000100016", status: 200, reply: list(1, "nx-mango-5")},
			{name: "a long query", method: "GET", target: "/api/admin/products?q=" + strings.Repeat("x", 101), status: 400},
			{name: "a bad limit", method: "GET", target: "/api/admin/products?limit=0", status: 400},
			{name: "a bad offset", method: "GET", target: "/api/admin/products?offset=-1", status: 400},
			{name: "one product", method: "GET", target: "/api/admin/products/kp-classic-5", status: 200, reply: reply(func(t *testing.T, r adminProductReply) {
				p := r.Product
				if p.GTIN == nil || *p.GTIN != "04000001000012" || p.Nicotine == nil || *p.Nicotine != "5%" || p.Kind != "pods" || p.FDA != "authorised" {
					t.Errorf("kp-classic-5: %+v", p)
				}
			})},
			{name: "an unknown product", method: "GET", target: "/api/admin/products/nope", status: 404},
		})
		mod.run([]step{
			{name: "the edit", method: "PATCH", target: "/api/admin/products/nx-mango-5",
				body: map[string]any{"name": "Nimbus Bar 6000 Mango", "nicotine": "3%", "gtin": nil}, status: 200,
				reply: reply(func(t *testing.T, r adminProductReply) {
					p := r.Product
					if p.Name != "Nimbus Bar 6000 Mango" || p.Nicotine == nil || *p.Nicotine != "3%" || p.GTIN != nil || p.Brand != "Nimbus" {
						t.Errorf("edited: %+v", p)
					}
				})},
			{name: "read back", method: "GET", target: "/api/admin/products/nx-mango-5", status: 200, reply: reply(func(t *testing.T, r adminProductReply) {
				if r.Product.Name != "Nimbus Bar 6000 Mango" {
					t.Errorf("read back: %+v", r.Product)
				}
			})},
		})
		mod.runEach([]step{
			{name: "an empty name", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"name": " "}, status: 400, message: "name is empty"},
			{name: "a bad check digit", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"gtin": "840000100017"},
				status: 400, message: `GTIN "840000100017" has the check digit 7; its digits give 6`},
			{name: "a strength without unit", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"nicotine": "50"},
				status: 400, message: `nicotine "50" has no unit (mg/mL, % or mg/pouch)`},
			{name: "an unknown kind", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"kind": "cigar"}, status: 400},
			{name: "an unknown field", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"colour": "red"}, status: 400},
			{name: "a field of the wrong type", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"name": []int{1}}, status: 400},
			{name: "not an object", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: "[1]", status: 400},
			{name: "nothing to change", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{}, status: 400},
			{name: "a NUL", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: `{"name":"a\u0000b"}`, status: 400},
			{name: "another's GTIN", method: "PATCH", target: "/api/admin/products/nx-mango-5", body: map[string]any{"gtin": "4000001000012"},
				status: 409, message: `gtin 04000001000012 belongs to product "kp-classic-5"`},
			{name: "an unknown product", method: "PATCH", target: "/api/admin/products/nope", body: map[string]any{"name": "x"}, status: 404},
		})
		var actor, details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT actor, details FROM audit_log WHERE action = 'product.edit'").Scan(&actor, &details), "audit")
		if !strings.HasPrefix(actor, "moderator:") || !strings.Contains(actor, "mod@example.com") ||
			!strings.Contains(details, `"product":"nx-mango-5"`) || !strings.Contains(details, `"name":{"old":"Nimbus Bar 5000, Mango Ice","new":"Nimbus Bar 6000 Mango"}`) {
			t.Fatalf("audit: %s %s", actor, details)
		}
	})
}

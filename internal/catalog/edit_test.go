package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Put checks each product with the file's rules and writes all or none;
// writing the same products again updates them.
func TestPut(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r := NewRepo(d)
		five := 5.0
		ps := []*Product{
			{ProductID: "a-1", GTIN: "840000100016", Brand: "Acme", Name: "Acme Bar Mango", Kind: Disposable, Flavour: Fruit, Nicotine: &five, NicotineUnit: Percent, Handle: "acme-bar-mango", FDAStatus: FDANone},
			{ProductID: "a-2", Brand: "Acme", Name: "Acme Charger", Kind: Accessory, Flavour: Unflavoured, FDAStatus: FDAPending},
		}
		dbtest.Must(t, r.Put(ctx, ps), "put")
		dbtest.Must(t, r.Put(ctx, ps), "put again")
		p, err := r.GetByGTIN(ctx, "0840000100016")
		if err != nil || p.ProductID != "a-1" || p.NicotineText() != "5%" || p.GTIN != "00840000100016" {
			t.Fatalf("a-1: %+v %v", p, err)
		}
		bad := &Product{ProductID: "a-3", Brand: "Acme", Name: "Acme Pouch", Kind: NicotinePouch, Flavour: Mint, Nicotine: &five, NicotineUnit: MgPerPouch, IsZeroNicApplicable: true, FDAStatus: FDANone}
		err = r.Put(ctx, []*Product{{ProductID: "a-4", Brand: "B", Name: "B", Kind: Accessory, Flavour: Unflavoured, FDAStatus: FDANone}, bad})
		if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), `product "a-3"`) {
			t.Fatalf("a product breaking a rule: %v", err)
		}
		if n, _ := r.Count(ctx); n != 2 {
			t.Fatalf("%d products after a refused Put, want 2", n)
		}
	})
}

// Search finds products by name, brand, id or any GTIN form's digits, a
// page at a time, and counts them all.
func TestSearch(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r := NewRepo(d)
		importFile(t, r, "catalogue.csv")
		for _, c := range []struct {
			q     string
			total int
			first string
		}{
			{"", 6, "ht-amber"},
			{"kestrel", 2, "coil-mesh-08"},
			{"MANGO", 1, "nx-mango-5"},
			{"840000100016", 1, "nx-mango-5"},
			{"84000010", 2, "nx-mango-5"},
			{"pouch-cool", 1, "pouch-cool-6"},
			{"50%", 0, ""},
			{"no such thing", 0, ""},
		} {
			ps, total, err := r.Search(ctx, c.q, 10, 0)
			dbtest.Must(t, err, "search %q", c.q)
			if total != c.total || len(ps) != c.total || (c.first != "" && ps[0].ProductID != c.first) {
				ids := []string{}
				for _, p := range ps {
					ids = append(ids, p.ProductID)
				}
				t.Errorf("search %q: %d in all, %v; want %d, first %q", c.q, total, ids, c.total, c.first)
			}
		}
		page, total, err := r.Search(ctx, "", 2, 4)
		if err != nil || total != 6 || len(page) != 2 {
			t.Fatalf("the last page: %d of %d, %v", len(page), total, err)
		}
		for _, bad := range []struct {
			q             string
			limit, offset int
		}{{strings.Repeat("x", 101), 10, 0}, {"", 0, 0}, {"", 101, 0}, {"", 10, -1}} {
			if _, _, err := r.Search(ctx, bad.q, bad.limit, bad.offset); apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("search %q limit %d offset %d: %v, want invalid", bad.q, bad.limit, bad.offset, err)
			}
		}
	})
}

// An edit passes the file's rules field by field, names the field it
// refuses, refuses an id or GTIN another product holds, and records what
// it changed in its own transaction (a failing record undoes it).
func TestUpdate(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r := NewRepo(d)
		importFile(t, r, "catalogue.csv")
		var changes map[string]Change
		record := func(_ context.Context, _ db.Querier, before, after *Product) error {
			changes = Changes(before, after)
			return nil
		}
		p, err := r.Update(ctx, "nx-mango-5", map[string]any{"name": "  Nimbus Bar 6000 Mango  ", "nicotine": "3%", "flavor": "Dessert", "upc": nil}, record)
		dbtest.Must(t, err, "update")
		if p.Name != "Nimbus Bar 6000 Mango" || p.NicotineText() != "3%" || p.Flavour != Dessert || p.GTIN != "" || p.Brand != "Nimbus" {
			t.Fatalf("updated: %+v", p)
		}
		if len(changes) != 4 || changes["name"].Old != "Nimbus Bar 5000, Mango Ice" || changes["gtin"].New != "" {
			t.Fatalf("changes: %+v", changes)
		}
		got, err := r.Get(ctx, "nx-mango-5")
		if err != nil || got.Name != p.Name || got.GTIN != "" {
			t.Fatalf("read back: %+v %v", got, err)
		}
		for _, c := range []struct {
			patch map[string]any
			code  apperr.Code
			msg   string
		}{
			{map[string]any{"name": ""}, apperr.Invalid, "name is empty"},
			{map[string]any{"brand": strings.Repeat("b", 101)}, apperr.Invalid, "brand is longer than 100"},
			{map[string]any{"kind": "cigar"}, apperr.Invalid, `kind "cigar" is not one of`},
			{map[string]any{"gtin": "840000100017"}, apperr.Invalid, "check digit"},
			{map[string]any{"nicotine": "50"}, apperr.Invalid, "has no unit"},
			{map[string]any{"handle": "Not A Handle"}, apperr.Invalid, "is not a marketplace handle"},
			{map[string]any{"image": "ftp://x"}, apperr.Invalid, "is not an http(s) URL"},
			{map[string]any{"fda_status": "maybe"}, apperr.Invalid, "fda_status"},
			{map[string]any{"is_zero_nic_applicable": true}, apperr.Invalid, "is_zero_nic_applicable is true"},
			{map[string]any{"id": ""}, apperr.Invalid, "id is empty"},
			{map[string]any{"colour": "red"}, apperr.Invalid, "colour is not a product field"},
			{map[string]any{"name": []any{1}}, apperr.Invalid, "name is not a string"},
			{map[string]any{}, apperr.Invalid, "changes no field"},
			{map[string]any{"gtin": "4000001000012"}, apperr.Conflict, `belongs to product "kp-classic-5"`},
			{map[string]any{"id": "kp-classic-5"}, apperr.Conflict, "belongs to another product"},
		} {
			_, err := r.Update(ctx, "nx-mango-5", c.patch, record)
			if apperr.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("patch %v: %v, want %s %q", c.patch, err, c.code, c.msg)
			}
		}
		if _, err := r.Update(ctx, "nope", map[string]any{"name": "x"}, nil); !IsNotFound(err) {
			t.Errorf("unknown product: %v", err)
		}
		failed := errors.New("audit failed")
		_, err = r.Update(ctx, "nx-mango-5", map[string]any{"name": "Lost"}, func(context.Context, db.Querier, *Product, *Product) error { return failed })
		if !errors.Is(err, failed) {
			t.Fatalf("failing record: %v", err)
		}
		if got, _ := r.Get(ctx, "nx-mango-5"); got.Name != "Nimbus Bar 6000 Mango" {
			t.Fatalf("an edit whose record failed was kept: %q", got.Name)
		}
		// A new id keeps the product (its stock refers to its key).
		moved, err := r.Update(ctx, "nx-mango-5", map[string]any{"id": "nx-mango-6"}, nil)
		if err != nil || moved.ID != got.ID || moved.ProductID != "nx-mango-6" {
			t.Fatalf("new id: %+v %v", moved, err)
		}
	})
}

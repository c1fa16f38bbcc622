package search

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/inventory"
)

func suggestIDs(c *Catalog, q string, limit int) string {
	var ids []string
	for _, p := range c.Suggest(q, limit) {
		ids = append(ids, p.ProductID)
	}
	return strings.Join(ids, ",")
}

// Suggestions: brand, name or GTIN; case, accents and one typo in a word
// of four letters or more do not matter; the last word may be a start;
// exact words first.
func TestSuggest(t *testing.T) {
	t.Parallel()
	c := NewCatalog([]*catalog.Product{
		{ID: 1, ProductID: "nx-mango", GTIN: "00840000100016", Brand: "Nimbus", Name: "Nimbus Bar 5000, Mango Ice"},
		{ID: 2, ProductID: "nx-menthol", Brand: "Nimbus", Name: "Nimbus Bar 5000 Menthol"},
		{ID: 3, ProductID: "cr-brulee", Brand: "Crème Co", Name: "Crème Brûlée 60 mL"},
		{ID: 4, ProductID: "kp-mango", Brand: "Kestrel", Name: "Kestrel Pods Mango"},
		{ID: 5, ProductID: "mangrove", Brand: "Mangrove", Name: "Mangrove Classic"},
	})
	for _, tc := range []struct{ q, want string }{
		{"mango", "kp-mango,nx-mango,mangrove"}, // exact words, then the start of "mangrove"
		{"MANGO ice", "nx-mango"},
		{"creme brulee", "cr-brulee"},     // accents
		{"crème", "cr-brulee"},            // accents in the query
		{"nimbsu", "nx-menthol,nx-mango"}, // two letters swapped; shorter name first
		{"nimbus mentol", "nx-menthol"},   // a letter missing
		{"kestrl", "kp-mango"},            // missing letter, last word
		{"pods mang", "kp-mango"},         // a start
		{"bar", "nx-menthol,nx-mango"},
		{"ba", "nx-menthol,nx-mango"},  // the start of "bar"
		{"mnago", "kp-mango,nx-mango"}, // two letters swapped
		{"mnagp", ""},                  // two edits
		{"840000100016", "nx-mango"},
		{"0084000010", "nx-mango"}, // part of a GTIN
		{"", ""},
		{"zzz", ""},
	} {
		if got := suggestIDs(c, tc.q, 8); got != tc.want {
			t.Errorf("Suggest(%q) = %s, want %s", tc.q, got, tc.want)
		}
	}
	if got := suggestIDs(c, "mango", 2); got != "kp-mango,nx-mango" {
		t.Errorf("limit 2: %s", got)
	}
	for _, ref := range []string{"nx-mango", "840000100016", "0840000100016", "00840000100016"} {
		if p, ok := c.Find(ref); !ok || p.ID != 1 {
			t.Errorf("Find(%q) = %v, %v", ref, p, ok)
		}
	}
	for _, ref := range []string{"nx", "840000100017", "mango"} {
		if p, ok := c.Find(ref); ok {
			t.Errorf("Find(%q) = %v", ref, p)
		}
	}
}

// The stock rows cost at most 16 bytes each in memory.
func TestStockBytesPerRow(t *testing.T) {
	t.Parallel()
	const stores, products = 20_000, 100
	// The stores in the index, so that the rows are placed and their
	// boxes count.
	ix := NewIndex()
	ix.PutAll(randomEntries(rand.New(rand.NewPCG(5, 6)), stores))
	p := ix.prod
	now := time.Now()
	err := p.Load(func(add func([]inventory.Entry)) error {
		var es []inventory.Entry
		for s := range stores {
			es = es[:0]
			for k := range products {
				if (s*7+k*13)%10 < 5 {
					es = append(es, inventory.Entry{StoreID: int64(s + 1), ProductID: int64(k + 1), Availability: inventory.InStock,
						Quantity: int64(s % 50), Price: int64(999 + k*100), SalePrice: -1, Currency: "USD", ReportedAt: now})
				}
			}
			add(es)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	per := float64(p.Bytes()) / float64(p.Rows())
	t.Logf("%d rows, %d bytes, %.2f B a row", p.Rows(), p.Bytes(), per)
	for k, c := range p.stock {
		if c.placed != len(c.ids) {
			t.Fatalf("product %d: %d of %d rows placed", k, c.placed, len(c.ids))
		}
	}
	if per > 16 {
		t.Errorf("%.1f bytes a stock row, want at most 16", per)
	}
}

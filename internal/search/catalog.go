package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"locator/internal/catalog"
	"locator/internal/places/fold"
	"locator/internal/productlaw"
)

// Catalog is the catalogue as the index holds it: every product by its
// key, id and GTIN, and the folded words of its brand and name for
// suggestions. It never changes once built: a change of the catalogue
// builds a new one.
type Catalog struct {
	list   []*catalog.Product
	byKey  map[int64]int
	byID   map[string]int
	byGTIN map[string]int
	words  [][]string // per product: folded words of brand then name
	brands []int      // per product: how many of words are the brand's
	law    []productlaw.Product
}

// NewCatalog indexes the products.
func NewCatalog(ps []*catalog.Product) *Catalog {
	c := &Catalog{list: ps, byKey: make(map[int64]int, len(ps)), byID: make(map[string]int, len(ps)),
		byGTIN: make(map[string]int, len(ps)), words: make([][]string, len(ps)), brands: make([]int, len(ps)),
		law: make([]productlaw.Product, len(ps))}
	for i, p := range ps {
		c.byKey[p.ID] = i
		c.byID[p.ProductID] = i
		if p.GTIN != "" {
			c.byGTIN[p.GTIN] = i
		}
		brand := strings.Fields(fold.Fold(p.Brand))
		c.brands[i] = len(brand)
		c.words[i] = append(brand, strings.Fields(fold.Fold(p.Name))...)
		c.law[i] = productlaw.Of(p)
	}
	return c
}

// Len is how many products the catalogue holds.
func (c *Catalog) Len() int { return len(c.list) }

// ByKey returns the product with the database key id.
func (c *Catalog) ByKey(id int64) (*catalog.Product, bool) {
	i, ok := c.byKey[id]
	if !ok {
		return nil, false
	}
	return c.list[i], true
}

// Find returns the product a shopper names by its id or its GTIN (8, 12,
// 13 or 14 digits).
func (c *Catalog) Find(ref string) (*catalog.Product, bool) {
	if i, ok := c.byID[ref]; ok {
		return c.list[i], true
	}
	if g, err := catalog.NormaliseGTIN(ref); err == nil {
		if i, ok := c.byGTIN[g]; ok {
			return c.list[i], true
		}
	}
	return nil, false
}

// lawOf is the law's view of the product with key id.
func (c *Catalog) lawOf(id int64) productlaw.Product {
	if i, ok := c.byKey[id]; ok {
		return c.law[i]
	}
	return productlaw.Product{}
}

// Suggest returns up to limit products matching q, best first: every word
// of q must match a word of the product's brand or name (case and accents
// do not matter), the last one also as the start of a word (the shopper is
// still typing), and a word of 4 letters or more with one typo (a letter
// wrong, missing, extra, or two swapped). A q of digits matches the GTINs
// holding them. Exact words rank above prefixes, prefixes above typos;
// then brand matches, then shorter names, then by brand and name.
func (c *Catalog) Suggest(q string, limit int) []*catalog.Product {
	type scored struct {
		i, score int
	}
	var hits []scored
	qw := strings.Fields(fold.Fold(q))
	if len(qw) == 0 {
		return nil
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		if r == ' ' || r == '-' {
			return -1
		}
		return 'x'
	}, q)
	if len(digits) >= 4 && !strings.Contains(digits, "x") {
		for i, p := range c.list {
			if p.GTIN != "" && strings.Contains(p.GTIN, digits) {
				hits = append(hits, scored{i, 100})
			}
		}
	}
	for i := range c.list {
		score, ok := 0, true
		for k, w := range qw {
			s := matchWord(w, c.words[i], c.brands[i], k == len(qw)-1)
			if s == 0 {
				ok = false
				break
			}
			score += s
		}
		if ok {
			hits = append(hits, scored{i, score})
		}
	}
	slices.SortFunc(hits, func(a, b scored) int {
		pa, pb := c.list[a.i], c.list[b.i]
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(len(pa.Name), len(pb.Name)),
			cmp.Compare(pa.Brand, pb.Brand), cmp.Compare(pa.Name, pb.Name), cmp.Compare(pa.ProductID, pb.ProductID))
	})
	out := make([]*catalog.Product, 0, min(limit, len(hits)))
	seen := map[int]bool{}
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		if !seen[h.i] {
			seen[h.i] = true
			out = append(out, c.list[h.i])
		}
	}
	return out
}

// matchWord scores the query word w against a product's words (the first
// brand of them the brand's): 0 no match, else higher is better.
func matchWord(w string, words []string, brand int, last bool) int {
	best := 0
	for j, pw := range words {
		s := 0
		switch {
		case pw == w:
			s = 6
		case last && strings.HasPrefix(pw, w):
			s = 4
		case utf8.RuneCountInString(w) >= 4 && oneEdit(w, pw):
			s = 2
		case last && utf8.RuneCountInString(w) >= 4 && prefixOneEdit(w, pw):
			s = 2
		}
		if s > 0 && j < brand {
			s++
		}
		best = max(best, s)
	}
	return best
}

// oneEdit reports whether a and b differ by at most one letter changed,
// added or removed, or two neighbours swapped.
func oneEdit(a, b string) bool {
	x, y := []rune(a), []rune(b)
	if len(x) > len(y) {
		x, y = y, x
	}
	switch len(y) - len(x) {
	case 0:
		i := 0
		for i < len(x) && x[i] == y[i] {
			i++
		}
		if i == len(x) {
			return true
		}
		if slices.Equal(x[i+1:], y[i+1:]) {
			return true
		}
		return i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && slices.Equal(x[i+2:], y[i+2:])
	case 1:
		i := 0
		for i < len(x) && x[i] == y[i] {
			i++
		}
		return slices.Equal(x[i:], y[i+1:])
	}
	return false
}

// prefixOneEdit reports whether a start of pw is one edit from w.
func prefixOneEdit(w, pw string) bool {
	r := []rune(pw)
	n := utf8.RuneCountInString(w)
	for _, l := range []int{n - 1, n, n + 1} {
		if l > 0 && l <= len(r) && oneEdit(w, string(r[:l])) {
			return true
		}
	}
	return false
}

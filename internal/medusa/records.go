package medusa

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"locator/internal/catalog"
)

// What a Medusa variant becomes in the catalogue (docs/products.md, "From
// the marketplace (Medusa)"). Medusa has no brand, kind or flavour of its
// own: the marketplace keeps them in metadata (the variant's, else the
// product's), with the catalogue file's column names and values.

// metaKeys are the catalogue columns read from metadata.
var metaKeys = []string{"brand", "kind", "flavour", "flavor", "nicotine", "is_zero_nic_applicable", "is_cbd_applicable", "fda_status"}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:\-]*$`)

// productID is the catalogue id of a variant: its SKU when it has one
// that is a valid id (the name feeds and people use), else the variant's
// own id.
func productID(v *Variant) string {
	if s := strings.TrimSpace(v.SKU); s != "" && len(s) <= 100 && idPattern.MatchString(s) {
		return s
	}
	return v.ID
}

// gtin is the variant's barcode: its EAN, else its UPC, else its barcode.
func gtin(v *Variant) string {
	for _, s := range []string{v.EAN, v.UPC, v.Barcode} {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// defaultTitles are the titles Medusa gives the one variant of a product
// without options: the product's name alone names it.
var defaultTitles = []string{"", "default", "default variant", "default title"}

// record is a variant as a catalogue row.
func record(p *Product, v *Variant) catalog.Record {
	r := catalog.Record{
		"id":     productID(v),
		"gtin":   gtin(v),
		"name":   strings.TrimSpace(p.Title),
		"handle": strings.TrimSpace(p.Handle),
		"image":  strings.TrimSpace(p.Thumbnail),
	}
	if t := strings.TrimSpace(v.Title); !slices.Contains(defaultTitles, strings.ToLower(t)) && !strings.EqualFold(t, r["name"]) {
		r["name"] += " - " + t
	}
	if p.Collection != nil {
		r["brand"] = strings.TrimSpace(p.Collection.Title)
	}
	if p.Type != nil {
		r["kind"] = strings.TrimSpace(p.Type.Value)
	}
	for _, k := range metaKeys {
		for _, m := range []map[string]any{v.Metadata, p.Metadata} {
			if s := text(m[k]); s != "" {
				r[k] = s
				break
			}
		}
	}
	if r["flavor"] != "" && r["flavour"] == "" {
		r["flavour"] = r["flavor"]
	}
	delete(r, "flavor")
	return r
}

// digest is a fingerprint of what a variant writes: the record and its
// inventory item and price.
func digest(r catalog.Record, itemID, price string) string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%q\n", k, r[k])
	}
	fmt.Fprintf(h, "item=%q\nprice=%q\n", itemID, price)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// priceOf is the variant's price in the feed's form ("21.99 USD"): its
// price in USD, else its only price; "" when it has none or several
// currencies without USD. Medusa v2 writes amounts in major units.
func priceOf(v *Variant) string {
	var pick string
	currencies := map[string]bool{}
	for _, p := range v.Prices {
		c := strings.ToUpper(strings.TrimSpace(p.CurrencyCode))
		if len(c) != 3 || p.Amount == "" {
			continue
		}
		f, err := p.Amount.Float64()
		if err != nil || f < 0 {
			continue
		}
		s := strconv.FormatFloat(f, 'f', 2, 64) + " " + c
		if c == "USD" {
			return s
		}
		currencies[c] = true
		pick = s
	}
	if len(currencies) == 1 {
		return pick
	}
	return ""
}

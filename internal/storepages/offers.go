package storepages

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"time"

	"locator/internal/catalog"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/search"
)

// What a store carries, as its page lists it (docs/store-pages.md, "What a
// store carries"): the products by kind, each with the line the app's
// store panel shows (web/src/features/locator/product/offer.ts), and the
// schema.org Offers of its JSON-LD. Where the law forbids a product at the
// store, the line reads "Not sold here by law" with the rule's citation,
// never an availability or a price, and the JSON-LD has no Offer for it.

// kindTitles are each kind's heading (the app's KIND_LABELS).
var kindTitles = map[catalog.Kind]string{
	catalog.Disposable: "Disposables", catalog.PodSystem: "Pod systems", catalog.Pods: "Pods and cartridges",
	catalog.OpenSystem: "Open systems", catalog.ELiquid: "E-liquids", catalog.NicotinePouch: "Nicotine pouches",
	catalog.HeatedTobacco: "Heated tobacco", catalog.Accessory: "Accessories",
}

// kindNames are one product's kind (the app's KIND_NAMES).
var kindNames = map[catalog.Kind]string{
	catalog.Disposable: "Disposable", catalog.PodSystem: "Pod system", catalog.Pods: "Pods",
	catalog.OpenSystem: "Open system", catalog.ELiquid: "E-liquid", catalog.NicotinePouch: "Nicotine pouch",
	catalog.HeatedTobacco: "Heated tobacco", catalog.Accessory: "Accessory",
}

// availabilityWords are each availability as a shopper reads it (the
// app's AVAILABILITY_LABELS).
var availabilityWords = map[inventory.Availability]string{
	inventory.InStock: "In stock", inventory.LimitedAvailability: "Limited",
	inventory.OnDisplayToOrder: "On display to order", inventory.OutOfStock: "Out of stock",
}

// itemAvailability is each availability as schema.org's ItemAvailability.
// "On display to order" (the shopper sees it in the store and orders it)
// is closest to BackOrder: it can be had, not taken home today.
var itemAvailability = map[inventory.Availability]string{
	inventory.InStock: "https://schema.org/InStock", inventory.LimitedAvailability: "https://schema.org/LimitedAvailability",
	inventory.OnDisplayToOrder: "https://schema.org/BackOrder", inventory.OutOfStock: "https://schema.org/OutOfStock",
}

// offerLine is one product of a store (or one store of a product) as a
// page shows it.
type offerLine struct {
	Availability string // "In stock"; empty where the law forbids it
	Price, Was   string // "$18.99", and on sale the price before; empty: none
	Reported     string // "updated 2 h ago", "last reported 9 days ago"
	Lawful       bool
	Rule         *rules.Public // the law that forbids it, when not lawful
}

// productRow is one product a store carries.
type productRow struct {
	Name, Path, Facts string
	offerLine
	kind catalog.Kind
}

// productGroup is one kind of the store's products.
type productGroup struct {
	Title string // "Disposables (12)"
	Items []productRow
}

// lineOf is the page's line for a stock row and the law's verdict at now.
// since and until bound the instants its "updated ..." text holds.
func lineOf(w search.StockRow, v productlaw.Verdict, now time.Time) (l offerLine, since, until time.Time) {
	l.Lawful = v.Lawful
	if !v.Lawful {
		l.Rule = v.Rule
		return l, time.Time{}, time.Time{}
	}
	l.Availability = availabilityWords[w.Availability]
	l.Price, l.Was = priceText(w)
	l.Reported, since, until = reportedText(w.ReportedAt, now)
	return l, since, until
}

// priceText is the price a shopper pays and, on sale, the price before
// (the app's offerPrice).
func priceText(w search.StockRow) (now, was string) {
	switch {
	case w.Sale >= 0 && w.Price >= 0 && w.Sale < w.Price:
		return money(w.Sale, w.Currency), money(w.Price, w.Currency)
	case w.Sale >= 0:
		return money(w.Sale, w.Currency), ""
	case w.Price >= 0:
		return money(w.Price, w.Currency), ""
	}
	return "", ""
}

// paid is the amount a shopper pays (the sale price when lower), -1: none.
func paid(w search.StockRow) int64 {
	if w.Sale >= 0 && (w.Price < 0 || w.Sale < w.Price) {
		return w.Sale
	}
	return w.Price
}

// amountText writes hundredths as "21.99".
func amountText(v int64) string {
	c := strconv.FormatInt(v%100, 10)
	if len(c) == 1 {
		c = "0" + c
	}
	return strconv.FormatInt(v/100, 10) + "." + c
}

// money is an amount with its currency: "$21.99" in US dollars (the
// app's formatPrice), "21.99 EUR" in any other, the bare number without one.
func money(v int64, currency string) string {
	switch currency {
	case "USD":
		return "$" + amountText(v)
	case "":
		return amountText(v)
	}
	return amountText(v) + " " + currency
}

// reportedText is when a row was reported, relative to now, as the app's
// reportedLabel writes it, with the instants the text took and will
// change (so a cached page is rendered anew then).
func reportedText(at, now time.Time) (text string, since, until time.Time) {
	const day = 24 * time.Hour
	age := max(now.Sub(at), 0)
	days := int64(age / day)
	step := func(unit time.Duration) (time.Time, time.Time) {
		n := age / unit
		return at.Add(n * unit), at.Add((n + 1) * unit)
	}
	if age > search.StaleAfter {
		since, until = step(day)
		since = maxTime(since, at.Add(search.StaleAfter+time.Nanosecond))
		if days <= 1 {
			return "last reported 1 day ago", since, until
		}
		return "last reported " + strconv.FormatInt(days, 10) + " days ago", since, until
	}
	switch {
	case age < time.Minute:
		since, until = at, at.Add(time.Minute)
		text = "updated just now"
	case age < time.Hour:
		since, until = step(time.Minute)
		text = "updated " + strconv.FormatInt(int64(age/time.Minute), 10) + " min ago"
	case age < 2*day:
		since, until = step(time.Hour)
		text = "updated " + strconv.FormatInt(int64(age/time.Hour), 10) + " h ago"
	default:
		since, until = step(day)
		until = minTime(until, at.Add(search.StaleAfter+time.Nanosecond))
		text = "updated " + strconv.FormatInt(days, 10) + " days ago"
	}
	return text, since, until
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// facts is a product's second line: "Zephyrine · Disposable · 50 mg/mL".
func facts(p *catalog.Product) string {
	out := p.Brand
	for _, s := range []string{kindNames[p.Kind], p.NicotineText()} {
		if s != "" {
			if out != "" {
				out += " · "
			}
			out += s
		}
	}
	return out
}

// ProductPath is a product page's canonical path: /products/{handle}, or
// /products/{id} for a product without a marketplace handle.
func ProductPath(p *catalog.Product) string {
	if p.Handle != "" {
		return "/products/" + p.Handle
	}
	return "/products/" + url.PathEscape(p.ProductID)
}

// storeProducts is what a store carries at now, by kind (the catalogue's
// order of kinds, then brand and name), with the schema.org Offers of the
// lawful ones, the latest instant a line changed (a report or its
// "updated" text) and the next one (zero: none).
func storeProducts(ix *search.Index, id int64, base string, now time.Time) (groups []productGroup, offers []ldOffer, since, until time.Time) {
	stock, _ := ix.StoreProducts(id, now)
	cat := ix.Products().Catalog()
	type item struct {
		p   *catalog.Product
		row search.StockRow
		v   productlaw.Verdict
	}
	items := make([]item, 0, len(stock))
	for _, s := range stock {
		if p, ok := cat.ByKey(s.Product); ok {
			items = append(items, item{p, s.Row, s.Verdict})
		}
	}
	slices.SortFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(slices.Index(catalog.Kinds, a.p.Kind), slices.Index(catalog.Kinds, b.p.Kind)),
			cmp.Compare(a.p.Brand, b.p.Brand), cmp.Compare(a.p.Name, b.p.Name), cmp.Compare(a.p.ProductID, b.p.ProductID))
	})
	for _, it := range items {
		line, s, u := lineOf(it.row, it.v, now)
		since = maxTime(maxTime(since, s), it.row.ReportedAt)
		if !u.IsZero() && (until.IsZero() || u.Before(until)) {
			until = u
		}
		if len(groups) == 0 || groups[len(groups)-1].Items[0].kind != it.p.Kind {
			groups = append(groups, productGroup{})
		}
		g := &groups[len(groups)-1]
		g.Items = append(g.Items, productRow{Name: it.p.Name, Path: ProductPath(it.p), Facts: facts(it.p), offerLine: line, kind: it.p.Kind})
		if it.v.Lawful {
			offers = append(offers, offerLD(it.p, it.row, base, now))
		}
	}
	for i := range groups {
		g := &groups[i]
		g.Title = kindTitles[g.Items[0].kind] + " (" + strconv.Itoa(len(g.Items)) + ")"
	}
	return groups, offers, since, until
}

// ldOffer is a schema.org Offer of a store: what it sells of a product,
// at what price, how available (none for a row not reported for
// search.StaleAfter: the locator ranks it as unknown).
type ldOffer struct {
	Type          string      `json:"@type"`
	Price         json.Number `json:"price,omitempty"`
	PriceCurrency string      `json:"priceCurrency,omitempty"`
	Availability  string      `json:"availability,omitempty"`
	ItemOffered   ldProduct   `json:"itemOffered"`
}

// ldProduct is a schema.org Product: on a store page the item of an
// Offer, on a product page the page's subject.
type ldProduct struct {
	Context     string          `json:"@context,omitempty"`
	Type        string          `json:"@type"`
	ID          string          `json:"@id,omitempty"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	URL         string          `json:"url,omitempty"`
	SKU         string          `json:"sku,omitempty"` // the catalogue's (the marketplace's) product id
	Brand       *ldBrand        `json:"brand,omitempty"`
	GTIN        string          `json:"gtin,omitempty"`
	Image       string          `json:"image,omitempty"`
	Offers      *ldAggregateOff `json:"offers,omitempty"`
}

type ldBrand struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// ldAggregateOff sums up, on a product page, the lawful offers of the
// stores that carry it.
type ldAggregateOff struct {
	Type          string      `json:"@type"`
	OfferCount    int         `json:"offerCount"`
	LowPrice      json.Number `json:"lowPrice"`
	HighPrice     json.Number `json:"highPrice"`
	PriceCurrency string      `json:"priceCurrency"`
}

// productLD is p's schema.org Product (without offers).
func productLD(p *catalog.Product, base string) ldProduct {
	l := ldProduct{Type: "Product", ID: base + ProductPath(p) + "#product", Name: p.Name, Description: facts(p), URL: base + ProductPath(p),
		SKU: p.ProductID, GTIN: p.GTIN}
	if p.Brand != "" {
		l.Brand = &ldBrand{Type: "Brand", Name: p.Brand}
	}
	if p.Image != "" && safeImage(p.Image) {
		l.Image = absolute(base, p.Image)
	}
	return l
}

// offerLD is a store's Offer of p (a lawful row).
func offerLD(p *catalog.Product, w search.StockRow, base string, now time.Time) ldOffer {
	o := ldOffer{Type: "Offer", ItemOffered: productLD(p, base)}
	if v := paid(w); v >= 0 {
		o.Price = json.Number(amountText(v))
		o.PriceCurrency = w.Currency
	}
	if now.Sub(w.ReportedAt) <= search.StaleAfter {
		o.Availability = itemAvailability[w.Availability]
	}
	return o
}

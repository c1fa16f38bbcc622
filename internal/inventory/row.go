// Package inventory keeps what each store has of each product, in the
// shape of Google's local inventory feed (availability, quantity, price,
// sale price, pickup), and imports such feeds (docs/products.md).
package inventory

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Availability is a feed's availability value.
type Availability string

const (
	InStock             Availability = "in_stock"
	LimitedAvailability Availability = "limited_availability"
	OnDisplayToOrder    Availability = "on_display_to_order"
	OutOfStock          Availability = "out_of_stock"
)

// Availabilities lists every availability, best first.
var Availabilities = []Availability{InStock, LimitedAvailability, OnDisplayToOrder, OutOfStock}

// Pickup methods and times as the feed writes them.
var (
	PickupMethods = []string{"buy", "reserve", "ship_to_store", "not_supported"}
	PickupSLAs    = []string{"same_day", "next_day", "2-day", "3-day", "4-day", "5-day", "6-day", "7-day", "multi-week"}
)

// Price is an amount in hundredths of its currency (ISO 4217 code).
type Price struct {
	Amount   int64
	Currency string
}

// String writes the price as the feed does: "12.99 USD".
func (p Price) String() string {
	return fmt.Sprintf("%d.%02d %s", p.Amount/100, p.Amount%100, p.Currency)
}

// MaxAmount bounds a price (ten million in any currency): a larger one is a
// slip of the keyboard.
const MaxAmount = 10_000_000_00

var pricePattern = regexp.MustCompile(`^(?:([A-Za-z]{3})\s*)?([0-9]{1,10})(?:\.([0-9]{1,2}))?(?:\s*([A-Za-z]{3}))?$`)

// ParsePrice reads "12.99 USD" (also "12.9 usd", "12 USD", "USD 12.99"):
// a number with at most two decimals and a three-letter currency code.
func ParsePrice(s string) (Price, error) {
	m := pricePattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || (m[1] == "") == (m[4] == "") {
		return Price{}, fmt.Errorf("%q does not parse (write it as \"12.99 USD\")", clip(s))
	}
	whole, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return Price{}, fmt.Errorf("%q does not parse: %w", clip(s), err)
	}
	cents := int64(0)
	if m[3] != "" {
		cents, _ = strconv.ParseInt(m[3], 10, 64)
		if len(m[3]) == 1 {
			cents *= 10
		}
	}
	amount := whole*100 + cents
	if amount > MaxAmount {
		return Price{}, fmt.Errorf("%q is more than %d", clip(s), MaxAmount/100)
	}
	return Price{Amount: amount, Currency: strings.ToUpper(m[1] + m[4])}, nil
}

// Row is one store's stock of one product.
type Row struct {
	StoreID      int64        `json:"store_id"`
	ProductID    int64        `json:"-"`
	Product      string       `json:"product"` // the catalogue's product id
	Availability Availability `json:"availability"`
	Quantity     *int64       `json:"quantity,omitempty"`
	Price        *Price       `json:"-"`
	SalePrice    *Price       `json:"-"`
	PickupMethod string       `json:"pickup_method,omitempty"`
	PickupSLA    string       `json:"pickup_sla,omitempty"`
	ReportedAt   time.Time    `json:"reported_at"`
}

// token lowercases a feed value and writes its word breaks as
// underscores: "In Stock" and "in-stock" are in_stock.
func token(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

package search

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
)

// Search limits: the answer holds the nearest Limit matches, never more, so
// a dense area cannot produce a multi-megabyte answer; HasMore tells the
// caller that more stores matched.
const (
	DefaultLimit  = 100
	MaxLimit      = 200
	MaxRadiusMile = 100
)

// Query is one store search.
type Query struct {
	Latitude, Longitude float64
	RadiusMiles         float64
	Limit               int
	Delivery            bool
	OrderOnline         bool
	Curbside            bool
	OpenNow             bool
	LicenceVerified     bool // only stores with an active licence in a public registry (docs/licences.md)
	// AvailableNow narrows each chosen service (Delivery, OrderOnline,
	// Curbside) to the stores taking its orders now (the service rule).
	AvailableNow bool
	Now          time.Time // for OpenNow and AvailableNow; zero means time.Now()
	// ProductRef is the product parameter as given (a product id or a
	// GTIN); the caller looks it up and sets Product, its database key.
	// With Product, only the stores carrying it are listed (product.go).
	ProductRef string
	Product    int64
	// InStock keeps, of a product search, the stores whose row is in stock
	// or limited, lawful and reported within StaleAfter.
	InStock bool
	// Compliant keeps only the stores that pass the compliance rule
	// (compliance.go): the widget's "where to buy" (docs/embed.md).
	Compliant bool
	// Covered reports whether a licence registry covers a position (the
	// caller's, from internal/licences); nil: none covers anywhere.
	Covered func(lat, lon float64) bool
}

// MaxProductRef bounds the product parameter.
const MaxProductRef = 100

// Validate checks ranges and fills the default limit.
func (q *Query) Validate() error {
	switch {
	case math.IsNaN(q.Latitude) || q.Latitude < -90 || q.Latitude > 90:
		return apperr.Invalidf("latitude must be a number between -90 and 90")
	case math.IsNaN(q.Longitude) || q.Longitude < -180 || q.Longitude > 180:
		return apperr.Invalidf("longitude must be a number between -180 and 180")
	case math.IsNaN(q.RadiusMiles) || q.RadiusMiles <= 0 || q.RadiusMiles > MaxRadiusMile:
		return apperr.Invalidf("radius must be a number of miles greater than 0 and at most %d", MaxRadiusMile)
	case q.Limit < 0 || q.Limit > MaxLimit:
		return apperr.Invalidf("limit must be between 1 and %d", MaxLimit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	return nil
}

// ParseQuery decodes and validates the search parameters of the store list
// call (the HTTP API and the PostGIS baseline in tools/slb read queries by
// the same rules). Every parameter may appear more than once only with the
// same value; flags accept true/false/1/0.
func ParseQuery(raw string) (Query, error) {
	var q Query
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return q, apperr.Invalidf("malformed query string")
	}
	one := func(name string) (string, bool, error) {
		vs, ok := vals[name]
		if !ok {
			return "", false, nil
		}
		for _, v := range vs[1:] {
			if v != vs[0] {
				return "", false, apperr.Invalidf("%s is given more than once with different values", name)
			}
		}
		return strings.TrimSpace(vs[0]), true, nil
	}
	num := func(name string, dst *float64) error {
		v, ok, err := one(name)
		if err != nil {
			return err
		}
		if !ok || v == "" {
			return apperr.Invalidf("%s is required", name)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return apperr.Invalidf("%s must be a number", name)
		}
		*dst = f
		return nil
	}
	flag := func(name string, dst *bool) error {
		v, ok, err := one(name)
		if err != nil || !ok {
			return err
		}
		switch strings.ToLower(v) {
		case "true", "1":
			*dst = true
		case "false", "0", "":
			*dst = false
		default:
			return apperr.Invalidf("%s must be true or false", name)
		}
		return nil
	}
	if err := num("latitude", &q.Latitude); err != nil {
		return q, err
	}
	if err := num("longitude", &q.Longitude); err != nil {
		return q, err
	}
	if err := num("radius", &q.RadiusMiles); err != nil {
		return q, err
	}
	if v, ok, err := one("limit"); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit || v[0] == '+' {
			return q, apperr.Invalidf("limit must be a whole number from 1 to %d", MaxLimit)
		}
		q.Limit = n
	}
	var curbA, curbB bool
	for _, f := range []struct {
		name string
		dst  *bool
	}{
		{"is_delivery_available", &q.Delivery},
		{"is_order_online_available", &q.OrderOnline},
		{"is_curdside_pickup_available", &curbA}, // the clients' spelling (docs/product-rules.md)
		{"is_curbside_pickup_available", &curbB},
		{"is_open_now", &q.OpenNow},
		{"is_licence_verified", &q.LicenceVerified},
		{"available_now", &q.AvailableNow},
	} {
		if err := flag(f.name, f.dst); err != nil {
			return q, err
		}
	}
	_, hasA := vals["is_curdside_pickup_available"]
	_, hasB := vals["is_curbside_pickup_available"]
	if hasA && hasB && curbA != curbB {
		return q, apperr.Invalidf("is_curdside_pickup_available and is_curbside_pickup_available disagree")
	}
	q.Curbside = curbA || curbB
	if err := flag("in_stock", &q.InStock); err != nil {
		return q, err
	}
	if err := flag("compliant", &q.Compliant); err != nil {
		return q, err
	}
	if v, ok, err := one("product"); err != nil {
		return q, err
	} else if ok {
		switch {
		case v == "":
			return q, apperr.Invalidf("product is empty")
		case strings.ContainsRune(v, 0) || !utf8.ValidString(v):
			return q, apperr.Invalidf("product holds a NUL byte or is not UTF-8")
		case utf8.RuneCountInString(v) > MaxProductRef:
			return q, apperr.Invalidf("product is longer than %d characters", MaxProductRef)
		}
		q.ProductRef = v
	}
	if q.InStock && q.ProductRef == "" {
		return q, apperr.Invalidf("in_stock needs a product")
	}
	return q, q.Validate()
}

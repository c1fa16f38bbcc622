package stores

import (
	"context"
	"fmt"
	"math"

	"locator/internal/db"
)

// How a store's coordinates were found (Store.GeoPrecision). A person
// placing the pin (a moderator, the owner on a map or at the store) makes
// it exact; a geocoder finds an address, or only the centre of the postal
// code or city, which can be miles from the door (docs/claims.md, "Where
// the store stands").
const (
	PrecisionExact      = "exact"
	PrecisionAddress    = "address"
	PrecisionPostalCode = "postal_code"
	PrecisionCity       = "city"
)

// Approximate reports whether a precision is only a centre (postal code or
// city): such a position is no place a shopper can walk to, so a claimed
// store is not published there until a person places the pin.
func Approximate(precision string) bool {
	return precision == PrecisionPostalCode || precision == PrecisionCity
}

// PrecisionWords says a precision in words for moderators and owners
// ("ZIP centre only"); a US postal code is a ZIP code.
func PrecisionWords(precision, countryCode string) string {
	switch precision {
	case PrecisionExact, "":
		return "placed on the map"
	case PrecisionAddress:
		return "street address"
	case PrecisionPostalCode:
		if countryCode == "US" || countryCode == "" {
			return "ZIP centre only"
		}
		return "postal code centre only"
	case PrecisionCity:
		return "city centre only"
	}
	return precision
}

// DistanceKm is the great-circle distance between two points.
func DistanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(h)))
}

// ListApproximate returns the published stores whose position is only a
// postal or city centre (Approximate), oldest first, at most limit, and
// how many there are in all: the moderators' list of pins to place.
// Their hours are not loaded.
func (r *Repo) ListApproximate(ctx context.Context, limit int) ([]Store, int, error) {
	const where = " WHERE s.status = 'published' AND s.geo_precision IN ('postal_code', 'city')"
	var total int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stores s"+where).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count approximate stores: %w", err)
	}
	rows, err := r.db.Query(ctx, "SELECT "+storeColumns+" FROM stores s LEFT JOIN countries c ON c.id = s.country_id"+where+
		" ORDER BY s.id LIMIT $1", limit)
	list, err := db.Collect(rows, err, "list approximate stores", scanStore)
	return list, total, err
}

// Package claimstest builds the claims service the tests of claims and of
// the HTTP API share: a geocoder that knows one ZIP code, Central time for
// every store and a fast password hasher.
package claimstest

import (
	"log/slog"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/secret"
	"locator/internal/stores"
)

// Geocoder knows one ZIP code, Austin's 78701, and in it one street
// address, "100 Congress Ave", as an upstream geocoder would (precision
// address): a claim at that address can be approved as it is, one at
// another address stands only at the ZIP's centre and cannot be published
// until a person places its pin (docs/claims.md, "Where the store stands").
type Geocoder struct{}

// Congress is where Geocoder puts 100 Congress Ave.
var Congress = [2]float64{30.2650, -97.7447}

func (g Geocoder) GeocodeAddress(address, postal, city, state, country string) (float64, float64, string, bool) {
	if postal == "78701" && address == "100 Congress Ave" {
		return Congress[0], Congress[1], "address", true
	}
	return g.Geocode(postal, city, state, country)
}

func (Geocoder) Geocode(postal, city, state, country string) (float64, float64, string, bool) {
	if postal == "78701" {
		return 30.2711, -97.7437, "postal_code", true
	}
	return 0, 0, "", false
}

// New is a claims service on d and sr with Geocoder, every store in
// America/Chicago and a hasher cheap enough for tests.
func New(d *db.DB, sr *stores.Repo, log *slog.Logger) *claims.Service {
	s := claims.New(d, sr, claims.Options{Geocoder: Geocoder{}, ZoneAt: func(float64, float64) string { return "America/Chicago" }}, log)
	s.Moderators.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	return s
}

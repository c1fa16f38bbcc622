package httpapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/medusa"
)

type medusaLocationsReply struct {
	Locations []struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Store *struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"store"`
		MappedBy string `json:"mapped_by"`
	} `json:"locations"`
	Sync any `json:"sync"`
}

type medusaProposalsReply struct {
	Proposals []struct {
		Store struct {
			ID int64 `json:"id"`
		} `json:"store"`
		SameAddress bool     `json:"same_address"`
		DistanceKm  *float64 `json:"distance_km"`
	} `json:"proposals"`
}

// A moderator lists the Medusa stock locations a sync read, asks which
// store one is (the store at the same address first), maps it, cannot map
// a second location to the same store, and unmaps it; bad input is a 4xx;
// nobody else may look.
func TestAdminMedusaMapping(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		locs := medusa.NewLocations(d)
		// The city's centre, as places.Service.Geocode finds it.
		locs.Geocode = func(_, city, _, _ string) (float64, float64, string, bool) {
			return 40.7128, -74.0060, "city", city == "New York"
		}
		f.srv.MedusaLocations = locs
		dbtest.Must(t, newClaims(d, nil, nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		// What a sync leaves: two locations, one at the address of the
		// fixture's stores ("1 Main St").
		for _, l := range [][3]string{{"sloc_01A", "Downtown", "1 Main Street"}, {"sloc_01B", "Uptown", "900 Broadway"}} {
			_, err := d.Exec(ctx, `INSERT INTO medusa_locations (location_id, name, address, city, postal_code, country_code, seen_at)
				VALUES ($1, $2, $3, 'New York', '', 'US', $4)`, l[0], l[1], l[2], time.Now().UTC())
			dbtest.Must(t, err, "location")
		}
		anon := &client{t: t, h: f.srv}
		anon.runEach([]step{
			{name: "the list without a moderator", method: "GET", target: "/api/admin/medusa/locations", status: 401},
			{name: "a mapping without a moderator", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": f.nearID}, status: 401},
		})
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		mod.runEach([]step{
			{name: "the locations", method: "GET", target: "/api/admin/medusa/locations", status: 200, reply: reply(func(t *testing.T, r medusaLocationsReply) {
				if len(r.Locations) != 2 || r.Locations[0].Name != "Downtown" || r.Locations[0].Store != nil || r.Sync != nil {
					t.Errorf("locations: %+v", r)
				}
			})},
			{name: "proposals", method: "GET", target: "/api/admin/medusa/locations/sloc_01A/proposals", status: 200, reply: reply(func(t *testing.T, r medusaProposalsReply) {
				if len(r.Proposals) < 2 || !r.Proposals[0].SameAddress || r.Proposals[0].DistanceKm == nil || *r.Proposals[0].DistanceKm > 1 {
					t.Errorf("proposals: %+v", r)
				}
			})},
			{name: "an unknown location's proposals", method: "GET", target: "/api/admin/medusa/locations/sloc_nope/proposals", status: 404},
			{name: "a location id too long", method: "GET", target: "/api/admin/medusa/locations/" + fmt.Sprintf("%0101d", 1) + "/proposals", status: 400},
			{name: "an unknown store", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": 999999}, status: 404},
			{name: "a store id of 0", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": 0}, status: 400},
			{name: "a store id of the wrong type", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": "1"}, status: 400},
			{name: "not an object", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: "[1]", status: 400},
			{name: "an unknown location", method: "PUT", target: "/api/admin/medusa/locations/sloc_nope/store", body: map[string]any{"store_id": f.nearID}, status: 404},
		})
		mod.run([]step{
			{name: "map", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": f.nearID}, status: 200},
			{name: "a second location on the store", method: "PUT", target: "/api/admin/medusa/locations/sloc_01B/store", body: map[string]any{"store_id": f.nearID}, status: 409},
			{name: "mapped", method: "GET", target: "/api/admin/medusa/locations", status: 200, reply: reply(func(t *testing.T, r medusaLocationsReply) {
				if s := r.Locations[0].Store; s == nil || s.ID != f.nearID || s.Name != "Near" || r.Locations[0].MappedBy == "" {
					t.Errorf("mapped: %+v", r.Locations[0])
				}
			})},
			{name: "unmap", method: "PUT", target: "/api/admin/medusa/locations/sloc_01A/store", body: map[string]any{"store_id": nil}, status: 200},
			{name: "the other may take it now", method: "PUT", target: "/api/admin/medusa/locations/sloc_01B/store", body: map[string]any{"store_id": f.nearID}, status: 200},
		})
	})
}

package httpapi_test

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

type locateReply struct {
	Found         bool    `json:"found"`
	Latitude      float64 `json:"latitude"`
	Precision     string  `json:"precision"`
	PrecisionText string  `json:"precision_text"`
	Approximate   bool    `json:"approximate"`
}

type approximateReply struct {
	Total  int `json:"total"`
	Stores []struct {
		ID            int64  `json:"id"`
		PrecisionText string `json:"precision_text"`
	} `json:"stores"`
}

// A claim standing only at its ZIP's centre is refused until a pin is
// placed; the owner's pin publishes it; the moderators' list of stores to
// place and its pin (docs/claims.md, "Where the store stands").
func TestPositionsAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		owner := &client{t: t, h: f.srv}
		zipOnly := map[string]any{}
		for k, v := range claimForm {
			zipOnly[k] = v
		}
		zipOnly["address1"] = "600 Lavaca St" // unknown to the test geocoder: the ZIP's centre only
		pinned := map[string]any{}
		for k, v := range zipOnly {
			pinned[k] = v
		}
		pinned["email"], pinned["pin_latitude"], pinned["pin_longitude"], pinned["pin_source"] = "second@example.com", 30.26905, -97.74291, "device"
		var first, second claimReply
		owner.run([]step{
			{name: "the wizard locates an address", method: "POST", target: "/api/store/claim/locate",
				body: map[string]string{"country": "US", "postal_code": "78701", "city": "Austin", "address1": "600 Lavaca St"}, status: 200,
				reply: reply(func(t *testing.T, r locateReply) {
					if !r.Found || r.Precision != "postal_code" || r.PrecisionText != "ZIP centre only" || !r.Approximate {
						t.Errorf("locate: %+v", r)
					}
				})},
			{name: "an address the geocoder places", method: "POST", target: "/api/store/claim/locate",
				body: map[string]string{"country": "US", "postal_code": "78701", "address1": "100 Congress Ave"}, status: 200,
				reply: reply(func(t *testing.T, r locateReply) {
					if !r.Found || r.Precision != "address" || r.Approximate {
						t.Errorf("locate: %+v", r)
					}
				})},
			{name: "an address nowhere", method: "POST", target: "/api/store/claim/locate", body: map[string]string{"postal_code": "00000"}, status: 200,
				reply: reply(func(t *testing.T, r locateReply) {
					if r.Found {
						t.Errorf("locate: %+v", r)
					}
				})},
			{name: "a claim at the ZIP's centre", method: "POST", target: "/api/store/claim", body: zipOnly, status: 201, reply: into(&first)},
			{name: "a claim with the owner's pin", method: "POST", target: "/api/store/claim", body: pinned, status: 201, reply: into(&second)},
			{name: "half a pin", method: "POST", target: "/api/store/claim", body: map[string]any{"business_name": "X", "email": "x@example.com", "phone": "1",
				"country": "US", "city": "Austin", "postal_code": "78701", "address1": "1 A St", "pin_latitude": 30.2}, status: 400,
				message: "Give both pin_latitude and pin_longitude, or neither"},
		})

		cs := newClaims(d, stores.NewRepo(d), nil)
		dbtest.Must(t, cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		sr := stores.NewRepo(d)
		city := &stores.Store{Name: "City Only", Latitude: 30.2672, Longitude: -97.7431, GeoPrecision: stores.PrecisionCity, TimeZone: "America/Chicago", City: "Austin"}
		dbtest.Must(t, sr.Create(ctx, city), "store at a city centre")
		mod.run([]step{
			{name: "approve at the ZIP's centre", method: "POST", target: "/api/admin/claims/" + itoa(first.Claim.ID) + "/approve", body: map[string]any{}, status: 400,
				message: "The address of claim " + itoa(first.Claim.ID) + " is found only at its ZIP code's centre (78701), not at the store, and nobody placed the pin: place the pin on the store (or give latitude and longitude) before approving"},
			{name: "approve at the owner's pin", method: "POST", target: "/api/admin/claims/" + itoa(second.Claim.ID) + "/approve", body: map[string]any{}, status: 200,
				reply: reply(func(t *testing.T, r decisionReply) {
					if r.Status != "approved" || r.StoreID == nil {
						t.Fatalf("approve: %+v", r)
					}
					st, err := sr.Get(ctx, *r.StoreID)
					dbtest.Must(t, err, "store")
					if st.Latitude != 30.26905 || st.GeoPrecision != "exact" {
						t.Errorf("published at %v (%s)", st.Latitude, st.GeoPrecision)
					}
				})},
			{name: "stores to place", method: "GET", target: "/api/admin/stores/approximate", status: 200, reply: reply(func(t *testing.T, r approximateReply) {
				if r.Total != 1 || len(r.Stores) != 1 || r.Stores[0].ID != city.ID || r.Stores[0].PrecisionText != "city centre only" {
					t.Errorf("approximate: %+v", r)
				}
			})},
			{name: "a bad limit", method: "GET", target: "/api/admin/stores/approximate?limit=0", status: 400},
			{name: "a pin out of range", method: "POST", target: "/api/admin/stores/" + itoa(city.ID) + "/position", body: map[string]any{"latitude": 91, "longitude": 0}, status: 400},
			{name: "a pin without a longitude", method: "POST", target: "/api/admin/stores/" + itoa(city.ID) + "/position", body: map[string]any{"latitude": 30}, status: 400},
			{name: "an unknown store", method: "POST", target: "/api/admin/stores/999999/position", body: map[string]any{"latitude": 30, "longitude": -97}, status: 404},
			{name: "place the pin", method: "POST", target: "/api/admin/stores/" + itoa(city.ID) + "/position", body: map[string]any{"latitude": 30.2675, "longitude": -97.7425}, status: 200},
			{name: "nothing left to place", method: "GET", target: "/api/admin/stores/approximate", status: 200, reply: reply(func(t *testing.T, r approximateReply) {
				if r.Total != 0 || len(r.Stores) != 0 {
					t.Errorf("approximate after placing: %+v", r)
				}
			})},
		})
		anon := &client{t: t, h: f.srv}
		anon.run([]step{{name: "anonymous", method: "GET", target: "/api/admin/stores/approximate", status: 401}})
	})
}

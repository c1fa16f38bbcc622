package claims_test

import (
	"context"
	"testing"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// A claim's adult_only (docs/rules.md) is kept with the claim and set on
// the store its approval publishes.
func TestClaimAdultOnly(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		in := newYorkClaim()
		in.LicenceNumber = ""
		in.AdultOnly = true
		c, _, err := s.Submit(ctx, in, "10.0.0.2")
		dbtest.Must(t, err, "submit")
		if got, _ := s.Get(ctx, c.ID); got == nil || !got.AdultOnly {
			t.Fatalf("stored claim: %+v", got)
		}
		lat, lon := 40.74375, -73.99350
		approved, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve")
		st, err := stores.NewRepo(d).Get(ctx, approved.StoreID)
		dbtest.Must(t, err, "store")
		if !st.AdultOnly {
			t.Fatal("the approved store is not adult-only")
		}
	})
}

package claims_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/places"
	"locator/internal/stores"
)

func ptr(v float64) *float64 { return &v }

// approveExact approves claim id with ap and wants the store it publishes
// placed exactly at lat, lon.
func approveExact(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service, id int64, ap claims.Approval, lat, lon float64) {
	t.Helper()
	a, err := s.Approve(ctx, id, "mod@example.com", ap)
	dbtest.Must(t, err, "approve")
	st, err := stores.NewRepo(d).Get(ctx, a.StoreID)
	dbtest.Must(t, err, "store")
	if st.Latitude != lat || st.Longitude != lon || st.GeoPrecision != stores.PrecisionExact {
		t.Fatalf("store at %v,%v (%s), want %v,%v (%s)", st.Latitude, st.Longitude, st.GeoPrecision, lat, lon, stores.PrecisionExact)
	}
}

// zipOnly is form() at an address the test geocoder does not know: it
// stands only at the centre of ZIP 78701.
func zipOnly() claims.Input {
	in := form()
	in.Address1 = "600 Lavaca St"
	return in
}

func TestZIPCentreIsNotPublishedUntilAPersonPlacesThePin(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		c, _, err := s.Submit(ctx, zipOnly(), "10.0.0.1")
		dbtest.Must(t, err, "submit")
		v, err := s.View(ctx, c, true)
		dbtest.Must(t, err, "view")
		if v.Suggested == nil || !v.Suggested.Approximate || v.Suggested.PrecisionText != "ZIP centre only" ||
			v.ZIPCentre == nil || v.ZIPCentre.Latitude != 30.2711 || v.PinDistanceKm != nil {
			t.Fatalf("view: suggested %+v, zip %+v, distance %v", v.Suggested, v.ZIPCentre, v.PinDistanceKm)
		}
		_, err = s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{})
		if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "ZIP code's centre (78701)") || !strings.Contains(err.Error(), "place the pin") {
			t.Fatalf("approve at the ZIP centre: %v", err)
		}
		if n, _ := stores.NewRepo(d).Count(ctx); n != 0 {
			t.Fatalf("%d stores published at the ZIP centre", n)
		}
		if got, _ := s.Get(ctx, c.ID); got.Status != claims.Pending {
			t.Fatalf("claim is %s after a refused approval", got.Status)
		}
		// The moderator places it: exact.
		approveExact(t, ctx, d, s, c.ID, claims.Approval{Latitude: ptr(30.2680), Longitude: ptr(-97.7460)}, 30.2680, -97.7460)
	})
}

func TestOwnersPinPublishesTheStoreThere(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		in := zipOnly()
		in.PinLatitude, in.PinLongitude, in.PinSource = ptr(30.26905), ptr(-97.74291), claims.PinDevice
		c, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit")
		got, err := s.Get(ctx, c.ID)
		dbtest.Must(t, err, "get")
		if got.PinLatitude == nil || *got.PinLatitude != 30.26905 || *got.PinLongitude != -97.74291 || got.PinSource != claims.PinDevice {
			t.Fatalf("kept pin: %v %v %q", got.PinLatitude, got.PinLongitude, got.PinSource)
		}
		v, err := s.View(ctx, got, true)
		dbtest.Must(t, err, "view")
		if v.PinDistanceKm == nil || *v.PinDistanceKm < 0.2 || *v.PinDistanceKm > 0.3 { // ~240 m from the ZIP's centre
			t.Fatalf("pin distance %v", v.PinDistanceKm)
		}
		// Approved as it stands: at the owner's pin.
		approveExact(t, ctx, d, s, c.ID, claims.Approval{}, 30.26905, -97.74291)
		entries, err := s.Audit(ctx, c.ID)
		dbtest.Must(t, err, "audit")
		if len(entries) == 0 || !strings.Contains(string(entries[0].Details), `"placed_by":"owner"`) {
			t.Fatalf("audit: %+v", entries)
		}
	})
}

func TestPinValidation(t *testing.T) {
	t.Parallel()
	s := newService(dbtest.SQLite(t))
	ctx := context.Background()
	for _, c := range []struct {
		mut  func(*claims.Input)
		want string
	}{
		{func(in *claims.Input) { in.PinLatitude = ptr(30.2) }, "both pin_latitude and pin_longitude"},
		{func(in *claims.Input) { in.PinLatitude, in.PinLongitude = ptr(91), ptr(0) }, "latitude from -90 to 90"},
		{func(in *claims.Input) { in.PinLatitude, in.PinLongitude = ptr(0), ptr(-181) }, "longitude from -180 to 180"},
		{func(in *claims.Input) { in.PinLatitude, in.PinLongitude, in.PinSource = ptr(30), ptr(-97), "gps" }, "map or device"},
		{func(in *claims.Input) { in.PinSource = "map" }, "pin_source needs"},
	} {
		in := zipOnly()
		c.mut(&in)
		if _, _, err := s.Submit(ctx, in, "10.0.0.1"); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
	in := zipOnly()
	in.PinLatitude, in.PinLongitude = ptr(30.27), ptr(-97.74)
	c, _, err := s.Submit(ctx, in, "10.0.0.1")
	dbtest.Must(t, err, "pin without a source")
	if c.PinSource != claims.PinMap {
		t.Fatalf("source %q, want map", c.PinSource)
	}
}

// The walk's case (issue 39): 200 Bedford Ave, Brooklyn NY 11249, which the
// embedded gazetteer puts at its ZIP centre in East Flatbush, 8 km away.
func TestBrooklynClaimStandsAtTheOwnersPin(t *testing.T) {
	t.Parallel()
	g, err := places.Load()
	dbtest.Must(t, err, "gazetteer")
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		s.Geocoder = &places.Service{Gazetteer: g}
		in := claims.Input{BusinessName: "Bedford Smoke", Email: "owner@bedford.example", Phone: "+1 718 555 0199", Country: "US",
			State: "NY", Address1: "200 Bedford Ave", City: "Brooklyn", PostalCode: "11249"}
		c, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit")
		if _, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("approve at the ZIP centre: %v", err)
		}
		in.Email, in.PinLatitude, in.PinLongitude = "other@bedford.example", ptr(40.71783), ptr(-73.95773)
		c2, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit with a pin")
		v, err := s.View(ctx, c2, true)
		dbtest.Must(t, err, "view")
		if v.PinDistanceKm == nil || *v.PinDistanceKm < 7 || *v.PinDistanceKm > 9 {
			t.Fatalf("the pin's distance from the gazetteer's centre of 11249: %v", v.PinDistanceKm)
		}
		approveExact(t, ctx, d, s, c2.ID, claims.Approval{}, 40.71783, -73.95773)
	})
}

func TestApproximateStoresAndPlacingTheirPins(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		sr := stores.NewRepo(d)
		mk := func(name, precision string, status stores.Status) *stores.Store {
			st := &stores.Store{Name: name, Latitude: 30.2711, Longitude: -97.7437, GeoPrecision: precision, Status: status,
				PostalCode: "78701", City: "Austin", State: "TX", TimeZone: "America/Chicago"}
			dbtest.Must(t, sr.Create(ctx, st), "create %s", name)
			return st
		}
		zip := mk("ZIP only", stores.PrecisionPostalCode, stores.Published)
		city := mk("City only", stores.PrecisionCity, stores.Published)
		mk("Placed", stores.PrecisionExact, stores.Published)
		mk("Address", stores.PrecisionAddress, stores.Published)
		mk("Hidden ZIP", stores.PrecisionPostalCode, stores.Hidden)
		list, total, err := s.ApproximateStores(ctx, 0)
		dbtest.Must(t, err, "list")
		if total != 2 || len(list) != 2 || list[0].ID != zip.ID || list[0].PrecisionText != "ZIP centre only" ||
			list[1].ID != city.ID || list[1].PrecisionText != "city centre only" {
			t.Fatalf("approximate: %d %+v", total, list)
		}
		if list, total, _ := s.ApproximateStores(ctx, 1); total != 2 || len(list) != 1 {
			t.Fatalf("limit 1: %d %+v", total, list)
		}
		st, err := s.PlaceStore(ctx, zip.ID, 30.26905, -97.74291, "moderator:1:mod@example.com")
		dbtest.Must(t, err, "place")
		if st.GeoPrecision != stores.PrecisionExact || st.Latitude != 30.26905 {
			t.Fatalf("placed: %+v", st)
		}
		if list, total, _ := s.ApproximateStores(ctx, 0); total != 1 || list[0].ID != city.ID {
			t.Fatalf("after placing: %d %+v", total, list)
		}
		entries, err := audit.ForStore(ctx, d, zip.ID, 5)
		dbtest.Must(t, err, "audit")
		if len(entries) != 1 || entries[0].Action != "store.position" || !strings.Contains(string(entries[0].Details), `"from_precision":"postal_code"`) {
			t.Fatalf("audit: %+v", entries)
		}
		if _, err := s.PlaceStore(ctx, city.ID, 95, 0, "m"); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("latitude 95: %v", err)
		}
		if _, err := s.PlaceStore(ctx, 99999, 30, -97, "m"); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("unknown store: %v", err)
		}
	})
}

// A listed store standing only at a centre moves to the pin of a claim on
// it; an exact one keeps its place.
func TestClaimPinMovesAnApproximateListedStore(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		sr := stores.NewRepo(d)
		st := &stores.Store{Name: "Lone Star Vapes", Latitude: 30.2711, Longitude: -97.7437, GeoPrecision: stores.PrecisionPostalCode,
			PostalCode: "78701", City: "Austin", State: "TX", TimeZone: "America/Chicago"}
		dbtest.Must(t, sr.Create(ctx, st), "create")
		in := zipOnly()
		in.PinLatitude, in.PinLongitude = ptr(30.26905), ptr(-97.74291)
		c, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit")
		if c.DuplicateOfStoreID != st.ID {
			t.Fatalf("claim not matched to the listed store: %d", c.DuplicateOfStoreID)
		}
		_, err = s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{})
		dbtest.Must(t, err, "approve")
		got, err := sr.Get(ctx, st.ID)
		dbtest.Must(t, err, "store")
		if got.Latitude != 30.26905 || got.GeoPrecision != stores.PrecisionExact {
			t.Fatalf("listed store at %v (%s)", got.Latitude, got.GeoPrecision)
		}
	})
}

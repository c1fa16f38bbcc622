package claims_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/licences"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// newYorkClaim is a claim for a store at the address of the active NYC
// DCWP licence 2091234 in internal/licences/testdata/nyc-dcwp.csv.
func newYorkClaim() claims.Input {
	in := form()
	in.BusinessName, in.Address1, in.City, in.State, in.PostalCode = "Cloud Nine Vapes", "120 West 23rd Street", "New York", "NY", "10011"
	in.LicenceNumber = " 2091234 "
	in.DeliveryHours = "Mon-Fri 11am-8pm, Dec 24 11am-2pm"
	in.CurbsidePickupHours = "Daily 6-10" // unclear: shown with a note, read the day way
	in.OnlineOrderHours = "Fri 8pm-2"     // would run past midnight without AM/PM: not read
	return in
}

func withRegistry(t *testing.T, d *db.DB, s *claims.Service) {
	t.Helper()
	g, err := licences.New(stores.NewRepo(d), nil, nil)
	dbtest.Must(t, err, "registry")
	f, err := os.Open("../licences/testdata/nyc-dcwp.csv")
	dbtest.Must(t, err, "fixture")
	defer f.Close()
	_, err = g.Import(context.Background(), "nyc-dcwp", f, "nyc-dcwp.csv", "2026-11-24")
	dbtest.Must(t, err, "import")
	s.Licences = g
}

func TestClaimLicenceAndServiceHours(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		s.Now = func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
		withRegistry(t, d, s)

		bad := newYorkClaim()
		bad.LicenceNumber = strings.Repeat("1", 65)
		if _, _, err := s.Submit(ctx, bad, "10.0.0.1"); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "Licence number") {
			t.Fatalf("a 65-character licence number: %v", err)
		}
		bad = newYorkClaim()
		bad.DeliveryHours = strings.Repeat("x", 1001)
		if _, _, err := s.Submit(ctx, bad, "10.0.0.1"); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "Delivery hours") {
			t.Fatalf("1,001 characters of delivery hours: %v", err)
		}

		in := newYorkClaim()
		c, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit")
		if c.LicenceNumber != "2091234" || c.DeliveryHours != in.DeliveryHours || c.CurbsidePickupHours != in.CurbsidePickupHours ||
			c.OnlineOrderHours != in.OnlineOrderHours || c.LicenceCheck != claims.LicenceUnchecked {
			t.Fatalf("stored claim: %+v", c)
		}
		v, err := s.View(ctx, c, false)
		dbtest.Must(t, err, "view")
		if v.LicenceVerified != nil || len(v.ServiceHours) != 3 {
			t.Fatalf("view before approval: %+v", v)
		}
		read := map[string]claims.ServiceHoursRead{}
		for _, r := range v.ServiceHours {
			read[r.Service] = r
		}
		if !read["delivery"].Parsed || len(read["delivery"].Notes) != 0 ||
			!read["curbside_pickup"].Parsed || len(read["curbside_pickup"].Notes) != 1 || !strings.Contains(read["curbside_pickup"].Notes[0], "may mean 06:00-22:00") ||
			read["online_order"].Parsed {
			t.Fatalf("service hours as the moderator sees them: %+v", v.ServiceHours)
		}

		lat, lon := 40.74375, -73.99350
		approved, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve")
		if approved.LicenceCheck != claims.LicenceVerified {
			t.Fatalf("licence check: %q", approved.LicenceCheck)
		}
		if again, _ := s.Get(ctx, c.ID); again.LicenceCheck != claims.LicenceVerified {
			t.Fatalf("licence check not kept: %q", again.LicenceCheck)
		}
		if v, _ := s.View(ctx, approved, false); v.LicenceVerified == nil || !*v.LicenceVerified {
			t.Fatalf("the moderator is not told the licence verified: %+v", v.LicenceVerified)
		}
		st, err := stores.NewRepo(d).Get(ctx, approved.StoreID)
		dbtest.Must(t, err, "store")
		if st.Licence == nil || st.Licence.Number != "2091234" || st.Licence.Status != "active" {
			t.Fatalf("the store's licence: %+v", st.Licence)
		}
		del := st.Services[schedule.Delivery]
		if !st.Delivery || schedule.EncodeSchedule(del.Hours) != schedule.EncodeSchedule(spansOf(1, 5, "11:00", "20:00")) ||
			len(del.SpecialHours) != 1 || del.SpecialHours[0].Date != "2026-12-24" || del.SpecialHours[0].End != "14:00" {
			t.Fatalf("delivery: offered %v %+v", st.Delivery, del)
		}
		cur := st.Services[schedule.CurbsidePickup]
		if !st.Curbside || len(cur.Hours) != 7 || slices.ContainsFunc(cur.Hours, func(h schedule.WorkingHour) bool { return h.End != "10:00" }) {
			t.Fatalf("curbside pickup: offered %v %+v", st.Curbside, cur.Hours)
		}
		if st.OrderOnline || st.Services[schedule.OnlineOrder].Own() {
			t.Fatalf("unread online ordering hours were published: %+v", st.Services[schedule.OnlineOrder])
		}
		audits, err := s.Audit(ctx, c.ID)
		dbtest.Must(t, err, "audit")
		if len(audits) == 0 || audits[0].Action != "claim.licence" || !strings.Contains(string(audits[0].Details), `"verified":true`) {
			t.Fatalf("audit: %+v", audits)
		}

		// The same number for a store at another address does not verify.
		other := form()
		other.LicenceNumber = "2091234"
		c2, _, err := s.Submit(ctx, other, "10.0.0.2")
		dbtest.Must(t, err, "submit elsewhere")
		approved, err = s.Approve(ctx, c2.ID, "mod@example.com", claims.Approval{})
		dbtest.Must(t, err, "approve elsewhere")
		if approved.LicenceCheck != claims.LicenceNotVerified {
			t.Fatalf("a number at another address: %q", approved.LicenceCheck)
		}
		if st, _ := stores.NewRepo(d).Get(ctx, approved.StoreID); st.Licence != nil {
			t.Fatalf("licence shown on a store at another address: %+v", st.Licence)
		}
	})
}

// TestClaimServiceHoursOnListedStore: a look-alike claim's service hours
// are rows of the comparison, applied only when picked.
func TestClaimServiceHoursOnListedStore(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		first, _, err := s.Submit(ctx, form(), "10.0.0.1")
		dbtest.Must(t, err, "first claim")
		first, err = s.Approve(ctx, first.ID, "m", claims.Approval{})
		dbtest.Must(t, err, "approve")
		in := form()
		in.Email, in.DeliveryHours, in.OnlineOrderHours = "second@example.com", "Daily 10am-6pm", "call us"
		c, _, err := s.Submit(ctx, in, "10.0.0.2")
		dbtest.Must(t, err, "look-alike claim")
		v, err := s.View(ctx, c, false)
		dbtest.Must(t, err, "view")
		var fields []string
		for _, f := range v.ExistingStore.Fields {
			fields = append(fields, f.Field)
		}
		if !slices.Contains(fields, "delivery_hours") || !slices.Contains(fields, "online_order_hours") || slices.Contains(fields, "curbside_pickup_hours") {
			t.Fatalf("comparison rows: %v", fields)
		}
		if _, err := s.Approve(ctx, c.ID, "m", claims.Approval{Fields: []string{"online_order_hours"}}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("unreadable online ordering hours picked: %v", err)
		}
		_, err = s.Approve(ctx, c.ID, "m", claims.Approval{Fields: []string{"delivery_hours"}})
		dbtest.Must(t, err, "approve delivery hours")
		st, err := stores.NewRepo(d).Get(ctx, first.StoreID)
		dbtest.Must(t, err, "store")
		if !st.Delivery || len(st.Services[schedule.Delivery].Hours) != 7 || st.Services[schedule.Delivery].Hours[0].Start != "10:00" {
			t.Fatalf("delivery after the approval: %v %+v", st.Delivery, st.Services[schedule.Delivery])
		}
	})
}

// spansOf is one span from day `from` to day `to` (weekdays) each day.
func spansOf(from, to time.Weekday, start, end string) []schedule.WorkingHour {
	var out []schedule.WorkingHour
	for d := from; d <= to; d++ {
		out = append(out, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return out
}

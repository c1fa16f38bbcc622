package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/licences"
	"locator/internal/stores"
)

// licenceImportReply is the typed reply of POST /api/admin/licences/import.
type licenceImportReply struct {
	Rows   int `json:"rows"`
	Errors []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"errors"`
	Sure      int `json:"sure"`
	Doubtful  int `json:"doubtful"`
	Unmatched int `json:"unmatched"`
}

// licenceQueueReply is the typed reply of GET /api/admin/licences/matches.
type licenceQueueReply struct {
	Matches []struct {
		MatchID int64  `json:"match_id"`
		RowID   int64  `json:"row_id"`
		StoreID int64  `json:"store_id"`
		Number  string `json:"number"`
	} `json:"matches"`
}

// licensedStore is what the one-store answer says of a licence.
type licensedStore struct {
	ID      int64 `json:"id"`
	Licence *struct {
		Status string `json:"status"`
		Number string `json:"number"`
		Kind   string `json:"kind"`
	} `json:"licence"`
	Enforcement []struct {
		Kind string `json:"kind"`
	} `json:"enforcement"`
}

// licensedList is the search answer's ids (licences are in the one-store answer).
type licensedList struct {
	Stores   []licensedStore `json:"physical_stores"`
	Registry *bool           `json:"licence_registry"`
}

// covered checks a list answer's licence_registry.
func covered(want bool) func(*testing.T, licensedList) {
	return func(t *testing.T, l licensedList) {
		if l.Registry == nil || *l.Registry != want {
			t.Errorf("licence_registry: got %v, want %v", l.Registry, want)
		}
	}
}

func TestLicencesAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		sr := stores.NewRepo(d)
		g, err := licences.New(sr, nil, nil)
		dbtest.Must(t, err, "registry")
		// The registry file's day: the fixture's licences run to 2026-12-31.
		g.Now = func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }
		f.srv.Licences = g
		// Two of the fixture's stores at the addresses of the NYC fixture's rows.
		near, err := sr.Get(ctx, f.nearID)
		dbtest.Must(t, err, "near")
		near.Name, near.Address, near.PostalCode = "Cloud Nine Vapes", "120 West 23rd Street", "10011"
		late, err := sr.Get(ctx, f.lateID)
		dbtest.Must(t, err, "late")
		late.Address, late.PostalCode = "300 Water St", "10038"
		dbtest.Must(t, sr.Update(ctx, near), "update")
		dbtest.Must(t, sr.Update(ctx, late), "update")

		dbtest.Must(t, newClaims(d, sr, nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		anon := &client{t: t, h: f.srv}
		// No registry loaded: no area is covered, so the app can explain an empty filtered list.
		dbtest.Must(t, g.RefreshCoverage(ctx), "coverage")
		manhattan := "/api/store/physical-store/list-physical-store/?latitude=40.758&longitude=-73.9855&radius=30"
		austin := "/api/store/physical-store/list-physical-store/?latitude=30.2672&longitude=-97.7431&radius=30"
		anon.runEach([]step{
			{name: "Manhattan before any registry", method: "GET", target: manhattan, status: 200, reply: reply(covered(false))},
			{name: "Manhattan filtered before any registry", method: "GET", target: manhattan + "&is_licence_verified=true", status: 200, reply: reply(covered(false))},
		})
		anon.runEach([]step{
			{name: "the status without a moderator", method: "GET", target: "/api/admin/licences", status: 401},
			{name: "the queue without a moderator", method: "GET", target: "/api/admin/licences/matches", status: 401},
		})
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)

		upload := func(source, date, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/api/admin/licences/import?source="+source+"&date="+date+"&file_name=nyc.csv", strings.NewReader(body))
			req.Header.Set("Content-Type", "text/csv")
			req.AddCookie(mod.cookie)
			return serve(t, f.srv, req)
		}
		raw, err := os.ReadFile("../licences/testdata/nyc-dcwp.csv")
		dbtest.Must(t, err, "fixture")
		if rec := upload("nowhere", "2026-11-24", string(raw)); rec.Code != 400 {
			t.Fatalf("unknown source: %d %s", rec.Code, rec.Body)
		}
		rec := upload("nyc-dcwp", "2026-11-24", string(raw))
		var rep licenceImportReply
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &rep) != nil || rep.Rows != 5 || len(rep.Errors) != 5 ||
			rep.Errors[0].Line != 8 || rep.Sure != 1 || rep.Doubtful != 1 || rep.Unmatched != 3 {
			t.Fatalf("upload: %d %s", rec.Code, rec.Body)
		}
		if rec := upload("nyc-dcwp", "2026-01-01", string(raw)); rec.Code != 409 {
			t.Fatalf("older file: %d %s", rec.Code, rec.Body)
		}

		// NYC's registry covers Manhattan (the import read the coverage again), not Austin.
		anon.runEach([]step{
			{name: "Manhattan with NYC's registry", method: "GET", target: manhattan + "&is_licence_verified=true&limit=3", status: 200, reply: reply(covered(true))},
			{name: "Austin with NYC's registry", method: "GET", target: austin + "&is_licence_verified=true", status: 200, reply: reply(covered(false))},
		})

		// The verified store shows its licence and passes the filter.
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		search := "/api/store/physical-store/list-physical-store/?latitude=40.7128&longitude=-74.0060&radius=30"
		mod.run([]step{
			{name: "the filter", method: "GET", target: search + "&is_licence_verified=true", status: 200, reply: reply(func(t *testing.T, l licensedList) {
				if len(l.Stores) != 1 || l.Stores[0].ID != f.nearID {
					t.Errorf("filtered: %+v", l)
				}
			})},
			// The licence is the panel's line: in the one-store answer.
			{name: "the verified store", method: "GET", target: "/api/store/physical-store/" + itoa(f.nearID), status: 200, reply: reply(func(t *testing.T, s licensedStore) {
				if s.Licence == nil || s.Licence.Number != "2091234" || s.Licence.Status != "active" {
					t.Errorf("verified store: %+v", s)
				}
			})},
			{name: "the store", method: "GET", target: "/api/store/physical-store/" + itoa(f.lateID), status: 200},
			{name: "the status", method: "GET", target: "/api/admin/licences", status: 200},
		})
		var q licenceQueueReply
		mod.run([]step{{name: "the queue", method: "GET", target: "/api/admin/licences/matches", status: 200, reply: reply(func(t *testing.T, r licenceQueueReply) {
			q = r
			if len(r.Matches) != 1 || r.Matches[0].StoreID != f.lateID || r.Matches[0].Number != "2091500" {
				t.Errorf("queue: %+v", r)
			}
		})}})
		mod.runEach([]step{
			{name: "a bad decision", method: "POST", target: "/api/admin/licences/matches/" + itoa(q.Matches[0].MatchID), body: map[string]string{"decision": "maybe"}, status: 400,
				message: "decision must be accept or reject"},
			{name: "an unknown match", method: "POST", target: "/api/admin/licences/matches/999999", body: map[string]string{"decision": "accept"}, status: 404},
			{name: "no place", method: "GET", target: "/api/admin/licences/unmatched", status: 400},
			{name: "pick an unknown store", method: "POST", target: "/api/admin/licences/rows/" + itoa(q.Matches[0].RowID) + "/store", body: map[string]int{"store_id": 999999}, status: 404},
		})
		mod.run([]step{
			{name: "accept", method: "POST", target: "/api/admin/licences/matches/" + itoa(q.Matches[0].MatchID), body: map[string]string{"decision": "accept"}, status: 200},
			{name: "rows without a store", method: "GET", target: "/api/admin/licences/unmatched?latitude=40.7167&longitude=-73.99&radius=2", status: 200},
		})
		rows, err := g.Unmatched(ctx, 40.7167, -73.99, 2)
		dbtest.Must(t, err, "unmatched")
		mod.run([]step{
			{name: "create a store", method: "POST", target: "/api/admin/licences/rows/" + itoa(rows[0].RowID) + "/new-store", status: 201},
		})
		// The index follows the change feed.
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		mod.run([]step{
			{name: "both verified", method: "GET", target: search + "&is_licence_verified=1", status: 200, reply: reply(func(t *testing.T, l licensedList) {
				if len(l.Stores) != 2 {
					t.Errorf("filtered after accept: %+v", l)
				}
			})},
		})

		// Both licences expire on Dec 31 and no newer file comes: the
		// next day's recheck takes them out of the filter on every
		// replica (through the change feed), and the search still lists
		// them, their records unchanged.
		g.Now = func() time.Time { return time.Date(2027, 1, 1, 0, 5, 0, 0, time.UTC) }
		n, err := g.Recheck(ctx)
		dbtest.Must(t, err, "recheck")
		if n != 3 { // and the unpublished store created from a row
			t.Fatalf("recheck changed %d stores, want 3", n)
		}
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		mod.run([]step{
			{name: "expired by date", method: "GET", target: search + "&is_licence_verified=1", status: 200, reply: reply(func(t *testing.T, l licensedList) {
				if len(l.Stores) != 0 {
					t.Errorf("filtered after the expiry: %+v", l)
				}
			})},
			{name: "still listed", method: "GET", target: search, status: 200, reply: reply(func(t *testing.T, l licensedList) {
				for _, s := range l.Stores {
					if s.ID == f.nearID {
						return
					}
				}
				t.Errorf("the expired store left the list: %+v", l)
			})},
			{name: "its record unchanged", method: "GET", target: "/api/store/physical-store/" + itoa(f.nearID), status: 200, reply: reply(func(t *testing.T, s licensedStore) {
				if s.Licence == nil || s.Licence.Number != "2091234" {
					t.Errorf("the expired store's record: %+v", s)
				}
			})},
		})
	})
}

// An owner's licence number verifies only at the store's own address;
// another account's store is a 404.
func TestBusinessLicenceNumber(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		g, err := licences.New(stores.NewRepo(d), nil, nil)
		dbtest.Must(t, err, "registry")
		s.srv.Licences = g
		file := "license_nbr,license_status,lic_expir_dd,business_category,business_name,address_building,address_street_name,address_zip\n" +
			"2099999,Active,2026-12-31T00:00:00.000,Electronic Cigarette Retail Dealer,SOMEONE ELSE LLC,1,MAIN STREET,\n" +
			"2099998,Active,2026-12-31T00:00:00.000,Electronic Cigarette Retail Dealer,ELSEWHERE LLC,9,ELM STREET,\n"
		_, err = g.Import(context.Background(), "nyc-dcwp", strings.NewReader(file), "nyc.csv", "2026-11-24")
		dbtest.Must(t, err, "import")
		p := "/api/business/stores/" + itoa(s.nearID) + "/licence"
		for _, c := range []struct {
			client   *bizClient
			number   string
			status   int
			verified bool
		}{
			{s.other, "2099998", 200, false}, // listed, at another address
			{s.other, "", 400, false},
			{s.owner, "2099999", 404, false}, // not this account's store
			{s.other, "2099999", 200, true},
		} {
			rec, out := c.client.call("POST", p, map[string]string{"number": c.number})
			if rec.Code != c.status || (c.status == 200 && out["verified"] != c.verified) {
				t.Fatalf("number %q: %d %v", c.number, rec.Code, out)
			}
		}
		doc, err := stores.NewRepo(d).PublishedDoc(context.Background(), s.nearID)
		dbtest.Must(t, err, "doc")
		if !strings.Contains(string(doc), `"number":"2099999"`) {
			t.Fatalf("the verified licence is not shown: %s", doc)
		}
	})
}

package importer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/importer"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// fakeGeocoder knows one ZIP and one city; the real gazetteer is tested in places.
type fakeGeocoder struct{}

func (fakeGeocoder) Geocode(postal, city, state, country string) (float64, float64, string, bool) {
	switch {
	case postal == "10001":
		return 40.7506, -73.9972, "postal_code", true
	case strings.EqualFold(city, "Austin") && state == "TX":
		return 30.2672, -97.7431, "city", true
	}
	return 0, 0, "", false
}

func zone(lat, lon float64) string {
	if lon < -90 {
		return "America/Chicago"
	}
	return "America/New_York"
}

// importText imports in ("csv" or "json") with the test's time zones and
// no geocoder; a file refused as a whole fails the test.
func importText(t *testing.T, ctx context.Context, repo *stores.Repo, format, in string) *importer.Report {
	t.Helper()
	rep, err := importer.Import(ctx, repo, strings.NewReader(in), format, importer.Options{ZoneAt: zone})
	dbtest.Must(t, err, "import %s", format)
	return rep
}

// eachImport runs fn on each engine after importing in into the empty
// store table, with the import's report.
func eachImport(t *testing.T, format, in string, fn func(t *testing.T, ctx context.Context, repo *stores.Repo, rep *importer.Report)) {
	t.Helper()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		fn(t, ctx, repo, importText(t, ctx, repo, format, in))
	})
}

const csvFile = `store_id,name,phone_number,country,state,city,postal_code,address,latitude,longitude,delivery,order_online,curbside_pickup,working_hours,hours
A1,Cloud Nine,+12125550100,US,NY,New York,10001,1 Main St,40.71,-74.00,true,yes,0,Mon 09:00-17:00; Fri 18:00-02:00; Sun closed,Mon 9-5
A2,No Coords By Zip,,US,NY,New York,10001,2 Main St,,,false,false,false,,
A3,No Coords By City,,US,TX,Austin,,3 Main St,,,1,0,1,,
A4,,,US,NY,New York,,4 Main St,40.7,-74.0,,,,,
A5,Bad Lat,,US,NY,New York,,5 Main St,abc,-74.0,,,,,
A6,Nowhere,,US,ZZ,Atlantis,,6 Main St,,,,,,,
A7,Bad Hours,,US,NY,New York,,7 Main St,40.7,-74.0,,,,Mon 9-5,
A8,Too Far,,US,NY,New York,,8 Main St,95,-74.0,,,,,
A9,Bad Flag,,US,NY,New York,,9 Main St,40.7,-74.0,maybe,,,,
A10,Short Row
A11,"Quoted, Name",,US,NY,New York,,"11 Main St, Suite 2",40.72,-74.01,,,,Saturday 10:00-10:00,
`

func TestImportCSV(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		rep, err := importer.Import(ctx, repo, strings.NewReader(csvFile), "csv", importer.Options{Geocoder: fakeGeocoder{}, ZoneAt: zone, Batch: 2})
		dbtest.Must(t, err, "import")
		if rep.Created != 4 || rep.Failed != 7 || rep.Updated != 0 {
			t.Fatalf("report: %+v", rep)
		}
		wantFail := map[int]string{5: "name is required", 6: "latitude", 7: "no coordinates", 8: "working_hours", 9: "latitude must be between", 10: "delivery", 11: "fields"}
		for _, r := range rep.Rows {
			if want, bad := wantFail[r.Line]; bad {
				if r.OK || !strings.Contains(r.Message, want) {
					t.Errorf("line %d: ok=%v %q, want failure mentioning %q", r.Line, r.OK, r.Message, want)
				}
			} else if !r.OK || r.ID == 0 {
				t.Errorf("line %d: %+v, want success", r.Line, r)
			}
		}
		if m := rep.Rows[1].Message; !strings.Contains(m, "postal code") {
			t.Errorf("line 3 note: %q", m)
		}
		if m := rep.Rows[2].Message; !strings.Contains(m, "city") {
			t.Errorf("line 4 note: %q", m)
		}
		// Rows placed only at a ZIP or city centre say so (docs/import.md).
		if m := rep.Rows[1].Message; !rep.Rows[1].Approximate || !strings.Contains(m, "approximate: ZIP centre only; place its pin in /admin") {
			t.Errorf("line 3 is approximate: %+v", rep.Rows[1])
		}
		if m := rep.Rows[2].Message; !rep.Rows[2].Approximate || !strings.Contains(m, "approximate: city centre only") {
			t.Errorf("line 4 is approximate: %+v", rep.Rows[2])
		}
		if rep.Approximate != 2 || rep.Rows[0].Approximate || len(rep.ApproximateLines()) != 2 || rep.ApproximateLines()[0] != 3 || rep.ApproximateLines()[1] != 4 {
			t.Errorf("approximate rows: %d, lines %v", rep.Approximate, rep.ApproximateLines())
		}
		first, err := repo.Get(ctx, rep.Rows[0].ID)
		dbtest.Must(t, err, "get")
		if first.Name != "Cloud Nine" || !first.Delivery || !first.OrderOnline || first.Curbside || len(first.WorkingHours) != 3 ||
			first.WorkingHours[1].End != "02:00" || first.TimeZone != "America/New_York" || first.GeoPrecision != "exact" {
			t.Fatalf("first store: %+v", first)
		}
		austin, _ := repo.Get(ctx, rep.Rows[2].ID)
		if austin.GeoPrecision != "city" || austin.TimeZone != "America/Chicago" || !austin.Curbside {
			t.Fatalf("Austin: %+v", austin)
		}

		// Importing again updates by store_id instead of duplicating.
		rep2, err := importer.Import(ctx, repo, strings.NewReader(csvFile), "csv", importer.Options{Geocoder: fakeGeocoder{}, ZoneAt: zone})
		dbtest.Must(t, err, "re-import")
		n, _ := repo.Count(ctx)
		if rep2.Updated != 4 || rep2.Created != 0 || n != 4 {
			t.Fatalf("re-import: %+v, %d stores", rep2, n)
		}
	})
}

func TestImportJSON(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		in := `[
 {"store_id":"J1","name":"Json One","latitude":40.7,"longitude":-74,"delivery":true,
  "working_hours":[{"weekDay":"Monday","startTime":"09:00","endTime":"17:00"},{"weekDay":"Sunday","startTime":null,"endTime":null}]},
 {"store_id":"J2","name":"Json Zip","postal_code":"10001"},
 42,
 {"name":"Bad Hours","latitude":1,"longitude":1,"working_hours":[{"weekDay":"Funday"}]},
 {"name":"Bad TZ","latitude":1,"longitude":1,"time_zone":"Mars/Base"}
]`
		rep, err := importer.Import(ctx, repo, strings.NewReader(in), "json", importer.Options{Geocoder: fakeGeocoder{}, ZoneAt: zone})
		dbtest.Must(t, err, "import")
		if rep.Created != 2 || rep.Failed != 3 {
			t.Fatalf("report %+v", rep)
		}
		s, _ := repo.Get(ctx, rep.Rows[0].ID)
		if len(s.WorkingHours) != 2 || s.WorkingHours[0].WeekDay != time.Monday || !s.Delivery {
			t.Fatalf("json store: %+v", s)
		}
		// A re-import updates the store and keeps what only the owner sets.
		verified := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
		s.Website, s.VerifiedAt = "https://json.example", &verified
		dbtest.Must(t, repo.Update(ctx, s), "owner's changes")
		rep = importText(t, ctx, repo, "json", `[{"store_id":"J1","name":"Json One Renamed","latitude":40.7,"longitude":-74}]`)
		if s, _ = repo.Get(ctx, rep.Rows[0].ID); s.Name != "Json One Renamed" || s.Website != "https://json.example" || s.VerifiedAt == nil || !s.VerifiedAt.Equal(verified) {
			t.Fatalf("re-imported store: %+v", s)
		}
		if _, err := importer.Import(ctx, repo, strings.NewReader(`{"not":"an array"}`), "json", importer.Options{}); err == nil {
			t.Fatal("a JSON object was accepted as a file")
		}
		if _, err := importer.Import(ctx, repo, strings.NewReader("nope,name\n"), "csv", importer.Options{}); err == nil || !strings.Contains(err.Error(), "unknown column") {
			t.Fatalf("unknown column: %v", err)
		}
	})
}

func TestParseWorkingHours(t *testing.T) {
	t.Parallel()
	hs, err := importer.ParseWorkingHours("Mon 09:00-17:00; tue 10:00-18:00;Sunday closed")
	if err != nil || len(hs) != 3 || hs[1].WeekDay != time.Tuesday || hs[2].Start != "" {
		t.Fatalf("%+v %v", hs, err)
	}
	for _, bad := range []string{"Mon", "Mon 9-5", "Xyz 09:00-17:00", "Mon 09:00-", "Mon -17:00"} {
		if _, err := importer.ParseWorkingHours(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

const csvExceptions = `store_id,name,latitude,longitude,working_hours,special_hours,temporarily_closed_from,temporarily_closed_until,temporarily_closed_note,permanently_closed
X1,Holiday Hours,40.71,-74.00,Mon 09:00-21:00,2099-11-26 closed Thanksgiving Day; 2099-12-24 09:00-14:00 Christmas Eve; 2099-12-31 18:00-02:00,,,,
X2,Renovating,40.71,-74.00,,,2099-12-01,2099-12-02,Renovation,false
X3,Gone,40.71,-74.00,,,,,,yes
X4,Bad Date,40.71,-74.00,,2099-02-30 closed,,,,
X5,Impossible Span,40.71,-74.00,,2099-11-26 09:00-25:00,,,,
X6,Overlap,40.71,-74.00,,2099-11-26 09:00-12:00; 2099-11-26 11:00-13:00,,,,
X7,Closed And Open,40.71,-74.00,,2099-11-26 closed; 2099-11-26 10:00-12:00,,,,
X8,Until Before From,40.71,-74.00,,,2099-12-02,2099-12-01,,
X9,No Span,40.71,-74.00,,2099-11-26,,,,
X10,Bad Flag,40.71,-74.00,,,,,,perhaps
`

func TestImportExceptions(t *testing.T) {
	t.Parallel()
	eachImport(t, "csv", csvExceptions, func(t *testing.T, ctx context.Context, repo *stores.Repo, rep *importer.Report) {
		if rep.Created != 3 || rep.Failed != 7 {
			t.Fatalf("report: %+v", rep)
		}
		wantFail := map[int]string{
			5:  `special_hours entry 1: date "2099-02-30" is not a date`,
			6:  `special_hours entry 1: end time "25:00" is not HH:MM`,
			7:  "special_hours entry 2: 11:00-13:00 overlaps another span on 2099-11-26",
			8:  "special_hours entry 2: 2099-11-26 is closed and has other entries",
			9:  "temporarily_closed.until must not be before its from date",
			10: `special_hours: "2099-11-26": want`,
			11: "permanently_closed:",
		}
		for _, r := range rep.Rows {
			if want, bad := wantFail[r.Line]; bad {
				if r.OK || !strings.Contains(r.Message, want) {
					t.Errorf("line %d: ok=%v %q, want failure mentioning %q", r.Line, r.OK, r.Message, want)
				}
			} else if !r.OK {
				t.Errorf("line %d: %+v, want success", r.Line, r)
			}
		}
		hol, err := repo.Get(ctx, rep.Rows[0].ID)
		dbtest.Must(t, err, "get")
		if len(hol.SpecialHours) != 3 || !hol.SpecialHours[0].Closed || hol.SpecialHours[0].Note != "Thanksgiving Day" ||
			hol.SpecialHours[1].End != "14:00" || hol.SpecialHours[1].Note != "Christmas Eve" || hol.SpecialHours[2].Start != "18:00" {
			t.Fatalf("special hours: %+v", hol.SpecialHours)
		}
		reno, _ := repo.Get(ctx, rep.Rows[1].ID)
		if reno.TemporarilyClosed == nil || *reno.TemporarilyClosed != (schedule.Closure{From: "2099-12-01", Until: "2099-12-02", Note: "Renovation"}) || reno.PermanentlyClosed {
			t.Fatalf("temporary closure: %+v", reno.TemporarilyClosed)
		}
		gone, _ := repo.Get(ctx, rep.Rows[2].ID)
		if !gone.PermanentlyClosed {
			t.Fatal("permanently_closed not imported")
		}

		// A file without the exception columns keeps them; JSON in the
		// API's shapes replaces them.
		rep = importText(t, ctx, repo, "csv", "store_id,name,latitude,longitude\nX1,Holiday Hours Renamed,40.71,-74.00\n")
		if rep.Updated != 1 {
			t.Fatalf("re-import: %+v", rep)
		}
		hol, _ = repo.Get(ctx, hol.ID)
		if hol.Name != "Holiday Hours Renamed" || len(hol.SpecialHours) != 3 {
			t.Fatalf("exceptions lost by a file without them: %+v", hol.SpecialHours)
		}
		js := `[{"store_id": "X1", "name": "Holiday Hours", "latitude": 40.71, "longitude": -74.0,
			"special_hours": [{"date": "2099-07-04", "closed": true, "startTime": null, "endTime": null, "note": "Independence Day"}],
			"temporarily_closed": {"from": "2099-08-01", "until": null, "note": "Moving"}, "permanently_closed": false},
			{"store_id": "X2", "name": "Renovating", "latitude": 40.71, "longitude": -74.0, "temporarily_closed": null},
			{"name": "Bad JSON", "latitude": 40.71, "longitude": -74.0, "special_hours": [{"date": "2099-07-04", "closed": "yes"}]}]`
		rep = importText(t, ctx, repo, "json", js)
		if rep.Updated != 2 || rep.Failed != 1 || !strings.Contains(rep.Rows[2].Message, "special_hours: entry 1: closed must be true or false") {
			t.Fatalf("json import: %+v", rep)
		}
		hol, _ = repo.Get(ctx, hol.ID)
		if len(hol.SpecialHours) != 1 || hol.SpecialHours[0].Note != "Independence Day" || hol.TemporarilyClosed == nil || hol.TemporarilyClosed.Until != "" {
			t.Fatalf("json exceptions: %+v %+v", hol.SpecialHours, hol.TemporarilyClosed)
		}
		reno, _ = repo.Get(ctx, reno.ID)
		if reno.TemporarilyClosed != nil {
			t.Fatalf("temporarily_closed: null did not clear it: %+v", reno.TemporarilyClosed)
		}
	})
}

// A row carrying U+0000 (which PostgreSQL cannot store) is that row's
// error, in CSV and in JSON; the other rows are written.
func TestImportRefusesNUL(t *testing.T) {
	t.Parallel()
	in := "store_id,name,address,latitude,longitude\nN1,Good,1 Main St,40.7,-74\nN2,Bad\x00Name,2 Main St,40.7,-74\nN3,Bad Address,3 Main\x00St,40.7,-74\n"
	eachImport(t, "csv", in, func(t *testing.T, ctx context.Context, repo *stores.Repo, rep *importer.Report) {
		if rep.Created != 1 || rep.Failed != 2 {
			t.Fatalf("csv report: %+v", rep)
		}
		for _, r := range rep.Rows {
			if !r.OK && !strings.Contains(r.Message, "U+0000") {
				t.Errorf("line %d: %q", r.Line, r.Message)
			}
		}
		rep = importText(t, ctx, repo, "json", `[{"store_id":"J9","name":"J\u0000","latitude":40.7,"longitude":-74},{"store_id":"J8","name":"Fine","latitude":40.7,"longitude":-74}]`)
		if rep.Created != 1 || rep.Failed != 1 || !strings.Contains(rep.Rows[0].Message, "U+0000") {
			t.Fatalf("json report: %+v", rep)
		}
	})
}

package licences_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/licences"
)

// nycHeader and nycRow write rows in the NYC layout (nyc-dcwp.json).
const nycHeader = "license_nbr,business_name,dba_trade_name,address_building,address_street_name,address_city,address_state,address_zip,business_category,license_status,lic_expir_dd,latitude,longitude\n"

func nycRow(number, name, expires string) string {
	return number + "," + name + ",,1,MAIN ST,NEW YORK,NY,10001,Tobacco Retail Dealer,Active," + expires + ",,\n"
}

// A hostile or broken file costs each bad row its row, never the import:
// broken quotes (which panicked the reader), invalid UTF-8 (which
// PostgreSQL refused with a 500), oversized fields, a line beyond the line
// bound, dates of year 9999; the good rows around them are kept, on both
// engines.
func TestHostileRowsArePerRowErrors(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		g, _ := newRegistry(t, d)
		body := nycHeader +
			nycRow("1001", "GOOD ONE", "2027-01-31") + // line 2
			`1002"x,BARE QUOTE IN THE FIRST FIELD,,1,MAIN ST,NEW YORK,NY,10001,Tobacco Retail Dealer,Active,,,` + "\n" + // 3
			`"1003"x,TEXT AFTER A CLOSING QUOTE,,1,MAIN ST,NEW YORK,NY,10001,Tobacco Retail Dealer,Active,,,` + "\n" + // 4
			nycRow("1004", "NOT UTF-8 \xff\xfe", "") + // 5
			nycRow(strings.Repeat("9", 10<<10), "A 10 KB NUMBER", "") + // 6
			nycRow("1006", "FOREVER", "9999-12-31") + // 7
			nycRow("1007", "LONG LINE "+strings.Repeat("x", licences.MaxLineBytes), "") + // 8
			`1008,"A QUOTED, MULTI-LINE` + "\n" + `NAME",,1,MAIN ST,NEW YORK,NY,10001,Tobacco Retail Dealer,Active,,,` + "\n" + // 9-10
			`1009,"NEVER CLOSED,,1,MAIN ST,NEW YORK,NY,10001,Tobacco Retail Dealer,Active,,,` + "\n" + // 11
			nycRow("1010", "GOOD AFTER THE BROKEN QUOTE", "") // 12
		var rep *licences.Report
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("the import panicked: %v", p)
				}
			}()
			var err error
			rep, err = g.Import(ctx, "nyc-dcwp", strings.NewReader(body), "hostile.csv", "2026-11-24")
			dbtest.Must(t, err, "import")
		}()
		want := map[int]string{3: "not quoted", 4: "after its closing quote", 5: "UTF-8", 6: "longer than 40", 7: "between 1900 and 2199",
			8: "longer than 64 KB", 11: "not closed"}
		got := map[int]string{}
		for _, e := range rep.Errors {
			got[e.Line] = e.Message
			if len(e.Message) > 300 {
				t.Errorf("line %d: a message of %d bytes", e.Line, len(e.Message))
			}
		}
		for line, w := range want {
			if !strings.Contains(got[line], w) {
				t.Errorf("line %d: %q, want %q", line, got[line], w)
			}
		}
		if len(rep.Errors) != len(want) || rep.Rows != 3 {
			t.Fatalf("report: %d rows, errors %+v", rep.Rows, rep.Errors)
		}
		var names []string
		rs, err := d.Query(ctx, "SELECT name FROM licence_rows ORDER BY number")
		dbtest.Must(t, err, "rows")
		for rs.Next() {
			var n string
			dbtest.Must(t, rs.Scan(&n), "scan")
			names = append(names, n)
		}
		rs.Close()
		if strings.Join(names, "|") != "GOOD ONE|A QUOTED, MULTI-LINE\nNAME|GOOD AFTER THE BROKEN QUOTE" {
			t.Fatalf("kept: %q", names)
		}
	})
}

// A file dated in year 9999 would make every real file after it "older
// than the newest" and block its source for good: it is refused.
func TestFileDateBounds(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		g, _ := newRegistry(t, d) // today is 2026-11-24
		for _, date := range []string{"9999-12-31", "2026-11-26", "1899-01-01"} {
			_, err := g.Import(ctx, "nyc-dcwp", strings.NewReader(nycHeader+nycRow("1", "A", "")), "f.csv", date)
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
				t.Fatalf("file dated %s: %v", date, err)
			}
		}
		for _, date := range []string{"2026-11-25", "2026-11-25"} { // tomorrow is allowed (a registry ahead of UTC)
			_, err := g.Import(ctx, "nyc-dcwp", strings.NewReader(nycHeader+nycRow("1", "A", "")), "\xff\x00name.csv", date)
			dbtest.Must(t, err, "file dated %s", date)
		}
		var name string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT file_name FROM licence_files ORDER BY id DESC LIMIT 1").Scan(&name), "file name")
		if name != "\uFFFDname.csv" {
			t.Fatalf("file name kept as %q", name)
		}
	})
}

// A file over its bound is refused as too large (not read as a shorter
// file cut at the bound), and the refused rows listed are bounded.
func TestReadBounds(t *testing.T) {
	t.Parallel()
	src, err := licences.Sources()
	dbtest.Must(t, err, "sources")
	nyc := src["nyc-dcwp"]
	body := nycHeader + strings.Repeat(nycRow("1", "A", "31/31/2026"), 3000)
	if _, err := licences.ReadLimit(nyc, strings.NewReader(body), licences.Limits{Bytes: int64(len(body) - 1)}); !errors.Is(err, licences.ErrTooLarge) {
		t.Fatalf("one byte over: %v", err)
	}
	res, err := licences.ReadLimit(nyc, strings.NewReader(body), licences.Limits{Bytes: int64(len(body))})
	dbtest.Must(t, err, "at the bound")
	if res.Failed != 3000 || len(res.Errors) != licences.MaxRowErrors+1 ||
		!strings.Contains(res.Errors[licences.MaxRowErrors].Message, "2000 more rows") || res.Errors[licences.MaxRowErrors].Line != 1002 {
		t.Fatalf("errors: %d listed of %d, last %+v", len(res.Errors), res.Failed, res.Errors[len(res.Errors)-1])
	}
	three := nycHeader + nycRow("1", "A", "") + nycRow("2", "B", "") + nycRow("3", "C", "")
	if _, err := licences.ReadLimit(nyc, strings.NewReader(three), licences.Limits{Bytes: 1 << 20, Rows: 2}); !errors.Is(err, licences.ErrTooManyRows) {
		t.Fatalf("three rows of at most two: %v", err)
	}
	// JSON is read one object at a time, with the same row checks.
	res, err = licences.ReadLimit(nyc, strings.NewReader(`[{"license_nbr":"1","business_category":"Tobacco Retail Dealer","license_status":"Active",
		"address_building":"1","address_street_name":"MAIN ST"}, 7, {"license_nbr":"`+strings.Repeat("9", 100)+`"}]`), licences.Limits{Bytes: 1 << 20})
	dbtest.Must(t, err, "json")
	if len(res.Rows) != 1 || len(res.Errors) != 2 {
		t.Fatalf("json: %+v", res)
	}
}

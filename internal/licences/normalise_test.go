package licences

import (
	"strings"
	"testing"
)

func TestAddressKey(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{
		{"120 West 23rd Street", "120 W 23 ST"},
		{"120 W 23RD ST", "120 W 23 ST"},
		{"455 Fifth Avenue, Suite 2", "455 5 AVE"},
		{"455 5th Ave #4", "455 5 AVE"},
		{"88 Atlantic Av Apt 1B", "88 ATLANTIC AVE"},
		{"12-34 Steinway St. Store 1", "12 34 STEINWAY ST"},
		{"Broadway", ""}, // no number: nothing to compare
		{"", ""},
	} {
		if got := AddressKey(c[0]); got != c[1] {
			t.Errorf("AddressKey(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

func TestNameSimilarity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"CLOUD NINE VAPES INC.", "Cloud Nine Vapes", 1},
		{"Joe's Smoke Shop", "JOES SMOKE SHOP L.L.C.", 1},
		{"Metro Vape & Smoke", "METRO VAPE AND SMOKE CORP", 1},
		{"Mall Vape Kiosk", "Mall Phone Repair", 1.0 / 3},
		{"KHAN NEWSSTAND", "Lucky Vapes", 0},
		{"INC", "Lucky Vapes", 0},
	} {
		if got := NameSimilarity(c.a, c.b); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("NameSimilarity(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A Socrata JSON export (a list of objects, numbers as strings or numbers,
// nested location objects) reads like its CSV; a file of another registry
// says so on every row instead of failing.
func TestReadJSONAndWrongFile(t *testing.T) {
	t.Parallel()
	srcs, err := Sources()
	if err != nil {
		t.Fatal(err)
	}
	nyc := srcs["nyc-dcwp"]
	body := `[{"license_nbr":"2091234","license_status":"Active","lic_expir_dd":"2026-12-31T00:00:00.000",
		"business_category":"Electronic Cigarette Retail Dealer","business_name":"CLOUD NINE VAPES INC","address_building":"120",
		"address_street_name":"W 23RD ST","address_zip":10011,"latitude":"40.74372","longitude":-73.99348,
		"location":{"type":"Point","coordinates":[-73.99348,40.74372]}}]`
	rows, errs, err := Read(nyc, strings.NewReader(body))
	if err != nil || len(errs) != 0 || len(rows) != 1 {
		t.Fatalf("read: %v %v %v", rows, errs, err)
	}
	r := rows[0]
	if r.Number != "2091234" || r.Zip != "10011" || r.Address != "120 W 23RD ST" || *r.Lon != -73.99348 || r.ExpiresOn != "2026-12-31" ||
		r.Kind != "NYC Electronic Cigarette Retail Dealer" || r.Status != "active" || r.State != "NY" {
		t.Fatalf("row: %+v", r)
	}
	_, errs, err = Read(nyc, strings.NewReader("Retailer Name,Street Address\nA,1 Main St\n"))
	if err != nil || len(errs) != 1 || !strings.Contains(errs[0].Message, "none of the source's columns") {
		t.Fatalf("wrong file: %v %v", errs, err)
	}
	_, errs, _ = Read(nyc, strings.NewReader(strings.Replace(body, "CLOUD", "CLO\\u0000UD", 1)))
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "NUL") {
		t.Fatalf("NUL: %v", errs)
	}
	if _, _, err := Read(nyc, strings.NewReader("  ")); err == nil {
		t.Fatal("an empty file read")
	}
	if _, _, err := Read(nyc, strings.NewReader(`[{"license_nbr":`)); err == nil {
		t.Fatal("broken JSON read")
	}
}

// A definition's mistakes are found when the definitions load (the shipped
// ones load in every test), never in the middle of an import.
func TestSourceCheck(t *testing.T) {
	t.Parallel()
	good := Source{Name: "x", Jurisdiction: "X", Rows: "licences", DateFormats: []string{"2006-01-02"}, Kind: "K", Status: "active",
		Columns: map[string]string{"number": "n", "address": "a"}}
	if err := good.check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(s *Source){
		func(s *Source) { s.Rows = "both" },
		func(s *Source) { s.Columns = map[string]string{"number": "n"} },
		func(s *Source) { s.Columns = map[string]string{"address": "a", "colour": "c"} },
		func(s *Source) { s.Required = []string{"expires_on"} },
		func(s *Source) { s.Status = "" },
		func(s *Source) { s.Columns["status"] = "s"; s.Statuses = map[string]string{"Active": "fine"} },
		func(s *Source) { s.DateFormats = nil },
	} {
		s := good
		s.Columns = map[string]string{"number": "n", "address": "a"}
		bad(&s)
		if err := s.check(); err == nil {
			t.Errorf("accepted %+v", s)
		}
	}
}

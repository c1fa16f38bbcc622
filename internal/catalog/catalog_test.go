package catalog

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/tabfile/tabfiletest"
)

func TestNormaliseGTIN(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"840000100016", "00840000100016", ""},   // UPC-A
		{"0840000100016", "00840000100016", ""},  // the same as EAN-13
		{"84000010001-6", "00840000100016", ""},  // a hyphen before the check digit
		{"4000001000012", "04000001000012", ""},  // EAN-13
		{"40000015", "00000040000015", ""},       // GTIN-8
		{"10840000100013", "10840000100013", ""}, // GTIN-14 (a case of the UPC-A item)
		{"840000100017", "", "check digit 7; its digits give 6"},
		{"84000010001X", "", "not a digit"},
		{"1234567", "", "has 7 digits"},
		{"000000000000", "", "all zeros"},
	} {
		got, err := NormaliseGTIN(c.in)
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("NormaliseGTIN(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("NormaliseGTIN(%q) = %q, %v; want an error with %q", c.in, got, err, c.err)
		}
	}
}

func importFile(t *testing.T, r *Repo, name string) *Report {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	dbtest.Must(t, err, "open")
	defer f.Close()
	rep, err := r.Import(context.Background(), f, "")
	dbtest.Must(t, err, "import %s", name)
	return rep
}

func wantErrors(t *testing.T, rep *Report, want map[int]string) {
	t.Helper()
	tabfiletest.WantErrors(t, rep.Failed, rep.Errors, want)
}

// The CSV fixture's good rows become products, each bad row is refused
// with its line and why; the JSON fixture then updates by id and by GTIN;
// importing the CSV again changes no count.
func TestImportFixtures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r := NewRepo(d)
		rep := importFile(t, r, "catalogue.csv")
		if rep.Format != CSV || rep.Created != 6 || rep.Updated != 0 {
			t.Errorf("csv: %+v", rep)
		}
		wantErrors(t, rep, map[int]string{
			7:  `GTIN "840000100017" has the check digit 7; its digits give 6`,
			8:  `kind "cigar" is not one of disposable, pod_system, pods`,
			9:  `nicotine "50" has no unit`,
			10: "field 4 goes on after its closing quote",
			11: `repeats product "nx-mango-5" of line 2`,
			12: "is_zero_nic_applicable is true but nicotine is 3%",
			13: `handle "Peach Ice" is not a marketplace handle`,
			14: `image "ftp://cdn.example.com/kiwi.jpg" is not an http(s) URL`,
		})
		p, err := r.Get(ctx, "kp-classic-5")
		dbtest.Must(t, err, "get")
		if p.GTIN != "04000001000012" || p.Kind != Pods || p.Flavour != Tobacco || p.NicotineText() != "5%" ||
			p.FDAStatus != FDAAuthorised || p.Handle != "kestrel-pods-classic-tobacco" || p.UpdatedAt.IsZero() {
			t.Errorf("kp-classic-5: %+v", p)
		}
		p, err = r.Get(ctx, "pouch-cool-6")
		dbtest.Must(t, err, "get")
		if p.GTIN != "" || p.NicotineText() != "6 mg/pouch" || p.FDAStatus != FDAPending {
			t.Errorf("pouch-cool-6: %+v", p)
		}
		if p, err = r.Get(ctx, "00840000100023"); err != nil || p.Name != "Orchard Lane Strawberry Custard 60 mL" || p.Flavour != Dessert {
			t.Errorf("a row without id takes its GTIN-14 as id: %+v, %v", p, err)
		}
		if p, err = r.Get(ctx, "coil-mesh-08"); err != nil || p.Flavour != Unflavoured || p.Nicotine != nil || p.FDAStatus != FDANone {
			t.Errorf("accessory: %+v, %v", p, err)
		}
		if p, err = r.GetByGTIN(ctx, "40000015"); err != nil || p.ProductID != "ht-amber" || p.Kind != HeatedTobacco {
			t.Errorf("GTIN-8: %+v, %v", p, err)
		}
		if _, err := r.Get(ctx, "bad-kind"); !IsNotFound(err) {
			t.Errorf("a refused row was written: %v", err)
		}

		rep = importFile(t, r, "catalogue.json")
		if rep.Format != JSON || rep.Created != 2 || rep.Updated != 1 {
			t.Errorf("json: %+v", rep)
		}
		wantErrors(t, rep, map[int]string{
			4: `flavour "bubblegum" is not one of`,
			5: "the item is not an object",
			6: "nicotine is not a string, number or boolean",
			7: `GTIN 04000001000012 belongs to product "kp-classic-5"`,
		})
		p, err = r.Get(ctx, "nx-mango-5")
		dbtest.Must(t, err, "get")
		if p.NicotineText() != "20 mg/mL" || p.FDAStatus != FDAPending || p.Image != "https://cdn.example.com/nimbus-mango-2.jpg" {
			t.Errorf("updated by id: %+v", p)
		}
		if p, err = r.GetByGTIN(ctx, "840000100030"); err != nil || p.ProductID != "00840000100030" || !p.IsZeroNicApplicable || p.NicotineText() != "0 mg/mL" {
			t.Errorf("a JSON number GTIN: %+v, %v", p, err)
		}
		if p, err = r.Get(ctx, "cbd-calm"); err != nil || !p.IsCBDApplicable || p.Flavour != Unflavoured {
			t.Errorf("cbd: %+v, %v", p, err)
		}

		rep = importFile(t, r, "catalogue.csv")
		if rep.Created != 0 || rep.Updated != 6 || rep.Failed != 8 {
			t.Errorf("again: %+v", rep)
		}
		if n, err := r.Count(ctx); err != nil || n != 8 {
			t.Errorf("count %d, %v; want 8", n, err)
		}
		// A row without an id updates the product that has its GTIN.
		rep, err = r.Import(ctx, strings.NewReader("gtin,brand,name,kind,flavour\n0840000100023,Orchard Lane,Orchard Lane Strawberry Custard 120 mL,e_liquid,dessert\n"), CSV)
		dbtest.Must(t, err, "import by gtin")
		if p, err = r.Get(ctx, "00840000100023"); rep.Updated != 1 || err != nil || p.Name != "Orchard Lane Strawberry Custard 120 mL" {
			t.Errorf("by GTIN: %+v, %+v, %v", rep, p, err)
		}
	})
}

// Hostile bytes cost their row; a file that cannot be read writes nothing.
func TestImportBadFiles(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r := NewRepo(d)
		head := "id,brand,name,kind,flavour\n"
		good := "ok-1,Nimbus,Nimbus Bar,disposable,fruit\n"
		body := head + good +
			"utf,Nimbus,Nimbus \xff Bar,disposable,fruit\n" +
			"nul,Nimbus,Nimbus \x00 Bar,disposable,fruit\n" +
			"long,Nimbus," + strings.Repeat("x", 70<<10) + ",disposable,fruit\n" +
			"many,Nimbus,Nimbus Bar,disposable,fruit,extra\n" +
			"unclosed,Nimbus,\"Nimbus Bar,disposable,fruit\n" +
			"name,Nimbus," + strings.Repeat("é", 201) + ",disposable,fruit\n" +
			"ok-2,Nimbus,Nimbus Bar 2,disposable,fruit\n"
		rep, err := r.Import(ctx, strings.NewReader(body), "")
		dbtest.Must(t, err, "import")
		if rep.Created != 2 {
			t.Errorf("created %d, want 2", rep.Created)
		}
		wantErrors(t, rep, map[int]string{3: "not valid UTF-8", 4: "NUL byte", 5: "longer than 64 KB",
			6: "has 6 fields, the header 5", 7: "field 3: a quote is not closed on its line", 8: "name is longer than 200 characters"})

		for _, c := range []struct{ name, body, want string }{
			{"empty", "", "the file is empty"},
			{"header", "id,brand,name\nx,y,z\n", "the file has no column kind"},
			{"twice", "id,product_id,brand,name,kind\n", `column "id" appears twice`},
			{"json", `[{"id": "a", "brand": "b", "name": "c", "kind": "disposable", "flavour": "fruit"}, {`, "the JSON ends too early"},
			{"json object", `{"id": "a"}`, "a JSON catalogue is an array of products"},
		} {
			if _, err := r.Import(ctx, strings.NewReader(c.body), ""); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
		}
		// Good rows first, then the file runs past its bound: nothing is written.
		r.Limits = Limits{Bytes: 4 << 10, Rows: 50}
		big := head + "ok-3,Nimbus,Nimbus Bar 3,disposable,fruit\n" + strings.Repeat("\n", 5<<10)
		if _, err := r.Import(ctx, strings.NewReader(big), CSV); err == nil || !strings.Contains(err.Error(), "the file is too large") {
			t.Errorf("too large: %v", err)
		}
		var many strings.Builder
		many.WriteString(head)
		for i := range 51 {
			fmt.Fprintf(&many, "m-%d,Nimbus,Nimbus Bar,disposable,fruit\n", i)
		}
		if _, err := r.Import(ctx, strings.NewReader(many.String()), CSV); err == nil || !strings.Contains(err.Error(), "the file has more than 50 products") {
			t.Errorf("too many: %v", err)
		}
		for _, id := range []string{"ok-3", "m-0"} {
			if _, err := r.Get(ctx, id); !IsNotFound(err) {
				t.Errorf("a refused file was half imported: %s: %v", id, err)
			}
		}
	})
}

// Any file reads as products, refused rows or a file error, never a panic;
// a product read has the fields its rules require.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"catalogue.csv", "catalogue.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`[{"id": 1e400}, null, {"gtin": [1]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, _, _, err := read(strings.NewReader(string(b)), "", Limits{Bytes: 1 << 16, Rows: 1000})
		if err != nil {
			return
		}
		for _, w := range rows {
			if w.p.ProductID == "" || w.p.Brand == "" || w.p.Name == "" || w.p.Kind == "" || w.p.Flavour == "" || w.p.FDAStatus == "" {
				t.Fatalf("line %d: %+v", w.line, w.p)
			}
		}
	})
}

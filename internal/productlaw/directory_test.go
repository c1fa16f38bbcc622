package productlaw

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

func importFile(t *testing.T, r *Repo, state, name string, skipBad bool) (*Report, error) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	dbtest.Must(t, err, "open %s", name)
	defer f.Close()
	return r.Import(context.Background(), state, f, name, skipBad)
}

// eachRepo runs fn in parallel on a fresh repository on each engine.
func eachRepo(t *testing.T, fn func(t *testing.T, ctx context.Context, r *Repo)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		t.Parallel()
		fn(t, context.Background(), newRepo(d))
	})
}

func newRepo(d *db.DB) *Repo {
	r := NewRepo(d)
	r.Now = func() time.Time { return time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC) }
	return r
}

// Products of the fixtures' invented brands, as the catalogue has them.
var (
	kestrelClassic = Product{ID: "kp-classic", GTIN: "04000001000012", Brand: "Kestrel", Name: "Kestrel Pods Classic Tobacco", Kind: "pods", Flavour: "tobacco"}
	kestrelFruit   = Product{ID: "kp-fruit", GTIN: "04000001000036", Brand: "Kestrel", Name: "Kestrel Pods Mango", Kind: "pods", Flavour: "fruit"}
	kestrelDevice  = Product{ID: "kp-device", Brand: "Kestrel", Name: "Kestrel Device", Kind: "pod_system", Flavour: "unflavoured"}
	orbitLiquid    = Product{ID: "orbit-30", GTIN: "00840000200013", Brand: "Orbit", Name: "Orbit Classic E-Liquid 30mL", Kind: "e_liquid", Flavour: "tobacco"}
	nimbusTobacco  = Product{ID: "nx-tobacco", GTIN: "00840000100030", Brand: "Nimbus", Name: "Nimbus Bar 5000", Kind: "disposable", Flavour: "tobacco"}
	mintPouch      = Product{ID: "pouch", Brand: "Frost", Name: "Frost Mint 6", Kind: "nicotine_pouch", Flavour: "mint"}
)

// A state's directory file in its layout is imported in one transaction
// and judges: listed products (by GTIN in any form, or by brand and name)
// are lawful, other vapour products are not, with the state's law cited;
// a second import replaces the state's list and leaves other states'.
func TestDirectoryImportAndJudge(t *testing.T) {
	t.Parallel()
	eachRepo(t, func(t *testing.T, ctx context.Context, r *Repo) {
		if n, err := r.LastImport(ctx); err != nil || n != 0 {
			t.Fatalf("LastImport before any = %d, %v", n, err)
		}
		rep, err := importFile(t, r, "WI", "wi-directory.csv", false)
		dbtest.Must(t, err, "import WI")
		if !rep.Written || rep.Rows != 4 || rep.Failed != 0 || rep.Removed != 0 || len(rep.Ignored) != 0 {
			t.Fatalf("WI report = %+v", rep)
		}
		rep, err = importFile(t, r, "north carolina", "nc-directory.tsv", false)
		dbtest.Must(t, err, "import NC")
		if !rep.Written || rep.State != "NC" || rep.Rows != 2 || strings.Join(rep.Ignored, ",") != "date certified" {
			t.Fatalf("NC report = %+v", rep)
		}
		got := dbtest.Texts(t, r.db, "|", `SELECT state, gtin, brand, name, name_key, manufacturer, category, flavour, submission, line
			FROM product_directory ORDER BY state, line`)
		want := []string{
			"NC|00840000100030|Nimbus|Nimbus Bar 5000|nimbus|bar 5000 tobacco|Nimbus Vapor LLC|Disposable|Tobacco|PM0000301|2",
			"NC||Kestrel|Kestrel Pods Classic Tobacco|kestrel|pods classic tobacco|Kestrel Vapor Co.|Pods|Tobacco|PM0000101|3",
			"WI|04000001000012|Kestrel|Kestrel Pods|kestrel|pods classic tobacco|Kestrel Vapor Co.|Pods/Cartridges|Classic Tobacco|PM0000101|2",
			"WI|04000001000029|Kestrel|Kestrel Pods|kestrel|pods menthol|Kestrel Vapor Co.|Pods/Cartridges|Menthol|PM0000102|3",
			"WI||Kestrel|Kestrel Device|kestrel|device|Kestrel Vapor Co.|Device||PM0000103|4",
			"WI|00840000200013|Orbit|Orbit Classic E-Liquid 30mL|orbit|classic e liquid 30ml tobacco|Orbit Labs, Inc.|E-Liquid|Tobacco|PM0000201|5",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		dirs, err := r.Directories(ctx)
		dbtest.Must(t, err, "directories")
		if s := strings.Join(dirs.States(), ","); s != "NC,WI" {
			t.Fatalf("states = %s", s)
		}
		for _, c := range []struct {
			state string
			p     Product
			rule  string
		}{
			{"WI", kestrelClassic, ""}, // by GTIN
			{"WI", Product{ID: "kp-upc", GTIN: "04000001000029", Brand: "K", Name: "pods", Kind: "pods", Flavour: "menthol"}, ""}, // by GTIN, whatever the name
			{"WI", kestrelDevice, ""},       // by brand and name, no GTIN on either side
			{"WI", orbitLiquid, ""},         // by GTIN
			{"WI", kestrelFruit, "dir-wi"},  // same brand and line, flavour not listed
			{"WI", nimbusTobacco, "dir-wi"}, // listed in NC only
			{"WI", mintPouch, ""},           // no vapour product
			{"NC", nimbusTobacco, ""},       // by GTIN
			{"NC", Product{Brand: "Kestrel", Name: "Kestrel Pods - Classic Tobacco", Kind: "pods", Flavour: "tobacco"}, ""}, // by name
			{"NC", kestrelDevice, "dir-nc"},
			{"Wisconsin", kestrelFruit, "dir-wi"},
			{"KY", kestrelFruit, ""}, // no directory loaded
		} {
			v := Judge(nil, dirs, c.state, c.p)
			switch {
			case c.rule == "" && !v.Lawful:
				t.Errorf("%s %s: not lawful by %+v", c.state, c.p.ID, v.Rule)
			case c.rule != "" && (v.Lawful || v.Rule.ID != c.rule || v.Rule.Citation == "" || !strings.HasPrefix(v.Rule.URL, "https://") || v.Rule.CheckedOn == ""):
				t.Errorf("%s %s: %+v, want forbidden by %s with its citation", c.state, c.p.ID, v, c.rule)
			}
		}
		v := Judge(nil, dirs, "WI", kestrelFruit)
		if v.Rule.Summary != "Not in Wisconsin's directory of vaping devices that may be sold" || v.Rule.Citation != "Wis. Stat. 995.15" {
			t.Errorf("WI rule = %+v", *v.Rule)
		}

		// A second file replaces Wisconsin's list, and only Wisconsin's.
		rep, err = importFile(t, r, "wi", "wi-bad-rows.csv", true)
		dbtest.Must(t, err, "reimport WI")
		if !rep.Written || rep.Rows != 2 || rep.Removed != 4 || rep.Failed != 6 {
			t.Fatalf("reimport report = %+v", rep)
		}
		dirs, err = r.Directories(ctx)
		dbtest.Must(t, err, "directories")
		if Judge(nil, dirs, "WI", orbitLiquid).Lawful || !Judge(nil, dirs, "WI", kestrelClassic).Lawful || !Judge(nil, dirs, "NC", nimbusTobacco).Lawful {
			t.Error("the second import did not replace Wisconsin's list alone")
		}
		imports := dbtest.Texts(t, r.db, "|", `SELECT state, file_name, row_count, error_count FROM product_directory_imports ORDER BY id`)
		if strings.Join(imports, ";") != "WI|wi-directory.csv|4|0;NC|nc-directory.tsv|2|0;WI|wi-bad-rows.csv|2|6" {
			t.Errorf("imports = %v", imports)
		}
		if n, err := r.LastImport(ctx); err != nil || n == 0 {
			t.Errorf("LastImport = %d, %v", n, err)
		}
	})
}

// Bad rows are listed with their lines and why; without skipBad the file
// writes nothing (the state's list stays as it was), since a row left out
// would make its product read as forbidden.
func TestDirectoryBadRows(t *testing.T) {
	t.Parallel()
	eachRepo(t, func(t *testing.T, ctx context.Context, r *Repo) {
		_, err := importFile(t, r, "WI", "wi-directory.csv", false)
		dbtest.Must(t, err, "import WI")
		rep, err := importFile(t, r, "WI", "wi-bad-rows.csv", false)
		dbtest.Must(t, err, "import bad rows")
		if rep.Written || rep.Rows != 2 || rep.Failed != 6 {
			t.Fatalf("report = %+v", rep)
		}
		for i, want := range []string{
			`UPC: GTIN "840000100031" has the check digit 1; its digits give 0`,
			"NUL",
			"repeats the product of line 2",
			"Brand Name is empty",
			"repeats the product of line 7",
			"quote",
		} {
			if i >= len(rep.Errors) || !strings.Contains(rep.Errors[i].Message, want) || rep.Errors[i].Line != []int{3, 4, 5, 6, 8, 9}[i] {
				t.Errorf("error %d: want %q at line %d, got %v", i, want, []int{3, 4, 5, 6, 8, 9}[i], rep.Errors)
			}
		}
		if n := dbtest.Texts(t, r.db, "|", `SELECT COUNT(*) FROM product_directory WHERE state = 'WI'`); n[0] != "4" {
			t.Errorf("a refused file changed the list: %v rows", n)
		}
		if n := dbtest.Texts(t, r.db, "|", `SELECT COUNT(*) FROM product_directory_imports`); n[0] != "1" {
			t.Errorf("a refused file was recorded as an import: %v", n)
		}
	})
}

// A file that is not in the state's layout, holds no good row or names a
// state without a definition writes nothing and says why.
func TestDirectoryFileRefused(t *testing.T) {
	t.Parallel()
	eachRepo(t, func(t *testing.T, ctx context.Context, r *Repo) {
		for _, c := range []struct{ state, file, want string }{
			{"WI", "nc-directory.tsv", `header: the file has no column "Manufacturer Name", "Brand Name", "UPC", "FDA Submission Tracking Number": it is not in the layout of Wisconsin's directory`},
			{"NC", "wi-directory.csv", `header: the file has no column "Manufacturer", "Brand", "UPC/EAN", "STN"`},
			{"WI", "wi-header-only.csv", "no row of the file could be read (0 refused): Wisconsin's directory is left as it was"},
			{"ZZ", "wi-directory.csv", `no directory definition for state "ZZ" (there are: NC, WI)`},
		} {
			_, err := importFile(t, r, c.state, c.file, true)
			if err == nil || apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: %v, want %q", c.state, c.file, err, c.want)
			}
		}
		_, err := r.Import(ctx, "WI", strings.NewReader("Brand Name,Brand Name\n"), "twice.csv", false)
		if err == nil || !strings.Contains(err.Error(), `column "brand name" appears twice`) {
			t.Errorf("a column twice: %v", err)
		}
		r.Limits.Bytes = 100
		_, err = importFile(t, r, "WI", "wi-directory.csv", false)
		if apperr.CodeOf(err) != apperr.TooLarge {
			t.Errorf("a file over the limit: %v", err)
		}
		if n := dbtest.Texts(t, r.db, "|", `SELECT COUNT(*) FROM product_directory`); n[0] != "0" {
			t.Errorf("refused files wrote %v rows", n)
		}
		dirs, err := r.Directories(ctx)
		dbtest.Must(t, err, "directories")
		if len(dirs.States()) != 0 || !Judge(nil, dirs, "WI", kestrelFruit).Lawful {
			t.Error("an empty table gives a directory")
		}
	})
}

// The shipped definitions load; a broken one is refused by the tests
// before any import.
func TestDirectoryDefinitions(t *testing.T) {
	t.Parallel()
	ss, err := States()
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 2 || ss["WI"] == nil || ss["NC"] == nil {
		t.Fatalf("definitions = %v", StateCodes())
	}
	good := `{"state":"KY","name":"Kentucky","title":"T","source":"https://example.gov/list","in_force_from":"2025-01-01",
		"rule":{"id":"dir-ky","summary":"s","citation":"KRS 1","url":"https://example.gov/law","checked_on":"2026-12-02"},
		"columns":{"brand":"Brand","name":"Product"}%s}`
	def := func(name, s string) fstest.MapFS { return fstest.MapFS{name: {Data: []byte(s)}} }
	if _, err := StatesFS(def("ky.json", strings.Replace(good, "%s", "", 1))); err != nil {
		t.Fatalf("a good definition is refused: %v", err)
	}
	for name, bad := range map[string]fstest.MapFS{
		"file name":      def("tn.json", strings.Replace(good, "%s", "", 1)),
		"unknown field":  def("ky.json", strings.Replace(good, "%s", `,"note":1`, 1)),
		"unknown column": def("ky.json", strings.Replace(good, `"name":"Product"`, `"name":"Product","price":"Price"`, 1)),
		"no name column": def("ky.json", strings.Replace(good, `,"name":"Product"`, ``, 1)),
		"column twice":   def("ky.json", strings.Replace(good, `"name":"Product"`, `"name":"Brand"`, 1)),
		"http url":       def("ky.json", strings.Replace(strings.Replace(good, "https://example.gov/law", "http://example.gov/law", 1), "%s", "", 1)),
		"rule id":        def("ky.json", strings.Replace(strings.Replace(good, "dir-ky", "ky", 1), "%s", "", 1)),
		"bad date":       def("ky.json", strings.Replace(strings.Replace(good, "2025-01-01", "2025-13-01", 1), "%s", "", 1)),
	} {
		if _, err := StatesFS(bad); err == nil {
			t.Errorf("%s: the definition was accepted", name)
		}
	}
}

package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// `locator products import` lists bad rows with their lines, writes the
// good ones and exits 1; run again, it updates the same products.
func TestProductsImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": sqliteURL(t)})
	file := filepath.Join("..", "..", "internal", "catalog", "testdata", "catalogue.csv")
	for _, want := range []string{"6 created, 0 updated, 8 failed", "0 created, 6 updated, 8 failed"} {
		var out, errOut syncBuffer
		err := run(ctx, []string{"products", "import", file}, &out, &errOut, e)
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "8 rows failed") {
			t.Fatalf("import: %v\n%s", err, errOut.String())
		}
		if s := out.String(); !strings.Contains(s, `line 7: error: GTIN "840000100017" has the check digit 7`) || !strings.Contains(s, want) {
			t.Fatalf("import output:\n%s", s)
		}
	}
	var out, errOut syncBuffer
	err := run(ctx, []string{"products", "import", filepath.Join("..", "..", "internal", "catalog", "testdata", "catalogue.json")}, &out, &errOut, e)
	if err == nil || !strings.Contains(out.String(), "item 5: error: the item is not an object") || !strings.Contains(out.String(), "2 created, 1 updated, 4 failed") {
		t.Fatalf("json: %v\n%s", err, out.String())
	}
	if err := run(ctx, []string{"products", "import", "--format", "xml", file}, &out, &errOut, e); exitCode(err) != 2 {
		t.Fatalf("--format xml: %v", err)
	}
	if err := run(ctx, []string{"products"}, &out, &errOut, e); exitCode(err) != 2 {
		t.Fatalf("no action: %v", err)
	}
}

// `locator inventory import` writes a feed's good rows, lists the bad
// ones and exits 1; --replace removes what a full feed no longer names; a
// wrong header is the file's error.
func TestInventoryImport(t *testing.T) {
	ctx := context.Background()
	u := sqliteURL(t)
	e := env(map[string]string{"LOCATOR_DATABASE_URL": u})
	var out, errOut syncBuffer
	_ = run(ctx, []string{"products", "import", filepath.Join("..", "..", "internal", "catalog", "testdata", "catalogue.csv")}, &out, &errOut, e)
	d, err := db.Open(ctx, u)
	dbtest.Must(t, err, "open")
	for _, sid := range []string{"sto_01nyc", ""} {
		dbtest.Must(t, stores.NewRepo(d).Create(ctx, &stores.Store{Name: "Cloud Nine", StoreID: sid, Latitude: 40.7, Longitude: -74, TimeZone: "America/New_York"}), "store")
	}
	d.Close()
	feeds := filepath.Join("..", "..", "internal", "inventory", "testdata")
	out = syncBuffer{}
	err = run(ctx, []string{"inventory", "import", filepath.Join(feeds, "feed.csv")}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(out.String(), `line 7: error: store_code "sto_99nowhere" is no store of ours`) ||
		!strings.Contains(out.String(), "6 rows written for 2 stores, 0 removed, 9 failed") {
		t.Fatalf("import: %v\n%s%s", err, out.String(), errOut.String())
	}
	out = syncBuffer{}
	err = run(ctx, []string{"inventory", "import", "--replace", filepath.Join(feeds, "feed-full.tsv")}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(out.String(), "columns not read: link") ||
		!strings.Contains(out.String(), "2 rows written for 1 stores, 1 removed, 1 failed") {
		t.Fatalf("replace: %v\n%s", err, out.String())
	}
	err = run(ctx, []string{"inventory", "import", filepath.Join(feeds, "feed-bad-header.csv")}, &out, &errOut, e)
	if err == nil || !strings.Contains(err.Error(), "feed-bad-header.csv: header: the file has no column store_code") {
		t.Fatalf("bad header: %v", err)
	}
}

// `locator directories import` loads a state's list, lists bad rows and
// writes nothing when there are any (unless --skip-bad); a file in another
// state's layout and an unknown state are refused.
func TestDirectoriesImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": sqliteURL(t)})
	dir := filepath.Join("..", "..", "internal", "productlaw", "testdata")
	var out, errOut syncBuffer
	if err := run(ctx, []string{"directories", "import", "--state", "WI", filepath.Join(dir, "wi-directory.csv")}, &out, &errOut, e); err != nil {
		t.Fatalf("import: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "WI: 4 products listed (0 before), 0 failed") {
		t.Fatalf("import output:\n%s", out.String())
	}
	out = syncBuffer{}
	err := run(ctx, []string{"directories", "import", "--state", "wi", filepath.Join(dir, "wi-bad-rows.csv")}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(out.String(), `line 3: error: UPC: GTIN "840000100031" has the check digit 1; its digits give 0`) ||
		!strings.Contains(out.String(), "WI: nothing written: 6 rows failed (--skip-bad writes the 2 good rows)") {
		t.Fatalf("bad rows: %v\n%s", err, out.String())
	}
	out = syncBuffer{}
	err = run(ctx, []string{"directories", "import", "--state", "WI", "--skip-bad", filepath.Join(dir, "wi-bad-rows.csv")}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(out.String(), "WI: 2 products listed (4 before), 6 failed") {
		t.Fatalf("--skip-bad: %v\n%s", err, out.String())
	}
	err = run(ctx, []string{"directories", "import", "--state", "WI", filepath.Join(dir, "nc-directory.tsv")}, &out, &errOut, e)
	if err == nil || !strings.Contains(err.Error(), `nc-directory.tsv: header: the file has no column "Manufacturer Name"`) {
		t.Fatalf("another state's layout: %v", err)
	}
	if err := run(ctx, []string{"directories", "import", "--state", "ZZ", filepath.Join(dir, "wi-directory.csv")}, &out, &errOut, e); exitCode(err) != 2 {
		t.Fatalf("unknown state: %v", err)
	}
	if err := run(ctx, []string{"directories", "import", filepath.Join(dir, "wi-directory.csv")}, &out, &errOut, e); exitCode(err) != 2 {
		t.Fatalf("no --state: %v", err)
	}
}

package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// `locator products import` lists bad rows with their lines, writes the
// good ones and exits 1; run again, it updates the same products.
func TestProductsImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "locator.db")})
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

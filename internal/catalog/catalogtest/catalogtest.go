// Package catalogtest gives tests the test catalogue: the file
// internal/catalog/testdata/catalogue.csv, and a database holding it.
package catalogtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// File is the path of the test catalogue file, whatever folder the test
// runs in: found from the module's root (the nearest folder above the
// test's own holding go.mod), not from this file's compiled-in path, which
// -trimpath (make test) reduces to an import path.
func File() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(fmt.Sprintf("catalogtest: working folder: %v", err))
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "internal", "catalog", "testdata", "catalogue.csv")
		}
		up := filepath.Dir(dir)
		if up == dir {
			panic("catalogtest: no go.mod above " + dir)
		}
		dir = up
	}
}

// Imported imports the test catalogue into d (the test fails if it
// cannot) and returns the catalogue's repository.
func Imported(t testing.TB, d *db.DB) *catalog.Repo {
	t.Helper()
	cat := catalog.NewRepo(d)
	f, err := os.Open(File())
	dbtest.Must(t, err, "open catalogue")
	defer f.Close()
	_, err = cat.Import(context.Background(), f, "")
	dbtest.Must(t, err, "import catalogue")
	return cat
}

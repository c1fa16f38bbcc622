// Package catalogtest gives tests the test catalogue: the file
// internal/catalog/testdata/catalogue.csv, and a database holding it.
package catalogtest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// File is the path of the test catalogue file, whatever folder the test
// runs in.
func File() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata", "catalogue.csv")
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

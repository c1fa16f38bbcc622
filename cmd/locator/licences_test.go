package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locator/internal/db/dbtest"
)

// `locator licences import` reports bad rows with their lines and exits 1,
// keeps the good ones, and `status` counts them per source.
func TestLicencesImportAndStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": sqliteURL(t)})
	var out, errOut syncBuffer
	file := filepath.Join("..", "..", "internal", "licences", "testdata", "nyc-dcwp.csv")
	err := run(ctx, []string{"licences", "import", "--source", "nyc-dcwp", "--date", "2026-11-24", file}, &out, &errOut, e)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "5 rows could not be read") {
		t.Fatalf("import: %v\n%s", err, errOut.String())
	}
	if s := out.String(); !strings.Contains(s, `line 8: error: status "Pending Review"`) ||
		!strings.Contains(s, "nyc-dcwp 2026-11-24: 5 rows (5 new, 0 changed, 0 gone), 5 bad; 0 matched, 0 ambiguous, 5 unmatched") {
		t.Fatalf("import output:\n%s", s)
	}
	err = run(ctx, []string{"licences", "import", "--source", "nowhere", file}, &out, &errOut, e)
	if err == nil || !strings.Contains(err.Error(), `unknown source "nowhere"`) {
		t.Fatalf("unknown source: %v", err)
	}
	var st syncBuffer
	dbtest.Must(t, run(ctx, []string{"licences", "status"}, &st, &errOut, e), "status")
	if s := st.String(); !strings.Contains(s, "nyc-dcwp") || !lineHas(s, "nyc-dcwp", "2026-11-24", "5", "0", "0", "5", "5") ||
		!lineHas(s, "fda-compliance-checks", "never imported") {
		t.Fatalf("status:\n%s", s)
	}
}

// A file with a broken quote (the command crashed on it) reports the row
// and imports the others.
func TestLicencesImportBrokenQuote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": "sqlite:" + filepath.Join(dir, "locator.db")})
	file := filepath.Join(dir, "broken.csv")
	dbtest.Must(t, os.WriteFile(file, []byte("license_nbr,business_name,address_building,address_street_name,business_category,license_status\n"+
		"\"1\"x,BROKEN,1,MAIN ST,Tobacco Retail Dealer,Active\n2,GOOD,1,MAIN ST,Tobacco Retail Dealer,Active\n"), 0o600), "write")
	var out, errOut syncBuffer
	err := run(ctx, []string{"licences", "import", "--source", "nyc-dcwp", "--date", "2026-11-24", file}, &out, &errOut, e)
	if err == nil || exitCode(err) != 1 || !strings.Contains(out.String(), "line 2: error: field 1 goes on after its closing quote") ||
		!strings.Contains(out.String(), "1 rows (1 new") {
		t.Fatalf("import: %v\n%s%s", err, out.String(), errOut.String())
	}
}

// lineHas reports whether a line of s starts with first and holds the
// other words in order.
func lineHas(s, first string, words ...string) bool {
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, first+" ") {
			continue
		}
		rest := line
		for _, w := range words {
			i := strings.Index(rest, w)
			if i < 0 {
				return false
			}
			rest = rest[i+len(w):]
		}
		return true
	}
	return false
}

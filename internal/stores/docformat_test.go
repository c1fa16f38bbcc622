package stores

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"
)

var updateDocFormat = flag.Bool("update-doc-format", false, "rewrite testdata/docformat.golden after bumping DocFormat")

// docFormatGolden holds one fixed store's document next to the DocFormat
// it was rendered with.
const docFormatGolden = "testdata/docformat.golden"

// goldenStore sets every field RenderDoc writes.
func goldenStore() *Store {
	verified := time.Date(2026, 11, 2, 15, 4, 5, 0, time.UTC)
	until := "2026-12-31"
	url := "https://registry.example/1"
	return &Store{ID: 42, StoreID: "st-42", Name: `Golden "Leaf"`, Image: "https://img.example/42.jpg", PhoneNumber: "+1 212 555 0100",
		Hours: "Mon-Sun 9-21", CountryCode: "US", CountryName: "United States", CountryID: 3, State: "NY", City: "Brooklyn",
		PostalCode: "11211", Address: "1 Main St", Latitude: 40.7128, Longitude: -73.95, TimeZone: "America/New_York",
		Delivery: true, OrderOnline: true, AdultOnly: true, RatingSum: 14, ReviewCount: 3,
		WorkingHours: append(daily("09:00", "21:00")[1:], WorkingHour{WeekDay: time.Sunday}), // closed on Sundays
		Website:      "https://golden.example", VerifiedAt: &verified,
		LicenceRecord: LicenceRecord{
			Licence:     &Licence{Status: "active", Jurisdiction: "NYC", Kind: "tobacco", Number: "123", ExpiresOn: &until, CheckedAt: "2026-11-01", RecordURL: &url},
			Enforcement: []Enforcement{{Kind: "warning_letter", DecidedOn: "2025-03-04"}},
		}}
}

// RenderDoc's output for a fixed store is pinned to DocFormat: a change to
// the document without a new number would leave the rows of the former
// rendering as they are after an upgrade (RerenderDocs only re-renders
// older numbers). Bump DocFormat, then run
// go test ./internal/stores -run TestDocFormat -update-doc-format.
func TestDocFormat(t *testing.T) {
	doc, err := RenderDoc(goldenStore())
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Appendf(nil, "format %d\n%s\n", DocFormat, doc)
	got, err := os.ReadFile(docFormatGolden)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	var format int
	_, _ = fmt.Sscanf(string(got), "format %d\n", &format)
	if format == DocFormat {
		t.Fatalf("RenderDoc's output changed but DocFormat is still %d: bump it (render.go), then run "+
			"go test ./internal/stores -run TestDocFormat -update-doc-format\ngolden:\n%s\nnow:\n%s", DocFormat, got, want)
	}
	if format > DocFormat {
		t.Fatalf("%s was written with format %d, newer than DocFormat %d", docFormatGolden, format, DocFormat)
	}
	if !*updateDocFormat {
		t.Fatalf("DocFormat is %d and %s holds format %d: run go test ./internal/stores -run TestDocFormat -update-doc-format",
			DocFormat, docFormatGolden, format)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(docFormatGolden, want, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (format %d)", docFormatGolden, DocFormat)
}

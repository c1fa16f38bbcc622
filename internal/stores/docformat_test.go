package stores

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/schedule"
)

var updateDocFormat = flag.Bool("update-doc-format", false, "rewrite testdata/docformat.golden after bumping DocFormat")

// docFormatGolden holds one fixed store's document next to the DocFormat
// it was rendered with.
const docFormatGolden = "testdata/docformat.golden"

// goldenStore sets every field RenderDoc writes, so that a change to any
// of them shows: give a field added to Doc a value here.
func goldenStore() *Store {
	verified := time.Date(2026, 11, 2, 15, 4, 5, 0, time.UTC)
	until := "2026-12-31"
	url := "https://registry.example/1"
	return &Store{ID: 42, StoreID: "st-42", Name: `Golden "Leaf"`, Image: "https://img.example/42.jpg", PhoneNumber: "+1 212 555 0100",
		Hours: "Mon-Sun 9-21", CountryCode: "US", CountryName: "United States", CountryID: 3, State: "NY", City: "Brooklyn",
		PostalCode: "11211", Address: "1 Main St", Latitude: 40.7128, Longitude: -73.95, TimeZone: "America/New_York",
		Delivery: true, OrderOnline: true, AdultOnly: true, RatingSum: 14, ReviewCount: 3,
		WorkingHours: append(daily("09:00", "21:00")[1:], schedule.WorkingHour{WeekDay: time.Sunday}), // closed on Sundays
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
	t.Parallel()
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

// getStores, which the re-render reads a batch with, loads what getStore
// loads, store by store.
func TestGetStoresIsGetStore(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		repo := NewRepo(d)
		full := goldenStore()
		full.ID, full.LicenceRecord = 0, LicenceRecord{}
		full.SpecialHours = []schedule.SpecialHour{{Date: "2099-12-24", Start: "10:00", End: "14:00", Note: "Eve"}, {Date: "2099-12-25", Closed: true}}
		full.TemporarilyClosed = &schedule.Closure{From: "2099-12-20", Until: "2100-01-02", Note: "Works"}
		full.Services[schedule.Delivery] = schedule.ServiceHours{Hours: daily("11:00", "20:00"), LastOrder: 30}
		bare := &Store{Name: "Bare", Latitude: 40, Longitude: -74, TimeZone: "America/New_York", Status: Hidden}
		other := &Store{Name: "Other", Latitude: 41, Longitude: -74, TimeZone: "America/New_York", WorkingHours: daily("08:00", "12:00")}
		dbtest.Must(t, repo.SaveAll(ctx, []*Store{full, bare, other}), "save")
		var rec bool
		dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
			return repo.Write(ctx, tx, func(w *Writer) error {
				var err error
				rec, err = w.SetLicence(ctx, full.ID, goldenStore().LicenceRecord, "2026-11-27")
				return err
			})
		}), "licence")
		if !rec {
			t.Fatal("licence not set")
		}
		ids := []int64{other.ID, full.ID, bare.ID}
		got, err := getStores(ctx, d, ids)
		dbtest.Must(t, err, "get stores")
		for i, id := range ids {
			want, err := getStore(ctx, d, id)
			dbtest.Must(t, err, "get store")
			if !reflect.DeepEqual(got[i], want) {
				t.Errorf("store %d:\n%+v\nwant\n%+v", id, got[i], want)
			}
		}
		if _, err := getStores(ctx, d, []int64{full.ID, 999999}); err == nil {
			t.Fatal("a missing store was found")
		}
	})
}

func daily(start, end string) []schedule.WorkingHour {
	var hs []schedule.WorkingHour
	for d := time.Sunday; d <= time.Saturday; d++ {
		hs = append(hs, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
}

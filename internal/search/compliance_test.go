package search

import (
	"context"
	"slices"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The widget's compliance rule (compliance.go), on both engines: around
// Midtown Manhattan, where a registry covers, a store with an active
// licence is listed and one without (none at all), one whose licence
// expired and one under a No-Tobacco-Sale Order are not; a flavoured
// product banned in New York leaves out every New York store; a store in
// Connecticut, where no registry covers, is listed without a licence.
func TestComplianceRule(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		f := newProductFixture(t, ctx, repo)
		noLicence := &stores.Store{StoreID: "st-nolic", Name: "Unlicensed Vapes", Latitude: 40.7480, Longitude: -73.9880,
			TimeZone: "America/New_York", State: "NY", City: "New York", PostalCode: "10001"}
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{noLicence}), "save store")
		now := time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)
		today := now.Format(time.DateOnly)
		active := func(status string) stores.LicenceRecord {
			return stores.LicenceRecord{Licence: &stores.Licence{Status: status, Jurisdiction: "New York City", Kind: "Tobacco retail dealer",
				Number: "1234567-DCA", CheckedAt: "2026-11-24"}}
		}
		ntso := active("active")
		ntso.Enforcement = []stores.Enforcement{{Kind: "no_tobacco_sale_order", DecidedOn: "2026-11-01"}}
		// nyc: licensed; nyc2: its licence expired; ct: nothing (no registry there); a fourth NYC
		// store under an order (below); noLicence: nothing, where the registry covers.
		ntsoStore := &stores.Store{StoreID: "st-ntso", Name: "Ordered Smoke", Latitude: 40.7470, Longitude: -73.9920,
			TimeZone: "America/New_York", State: "NY", City: "New York", PostalCode: "10001"}
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{ntsoStore}), "save store")
		dbtest.Must(t, repo.DB().InTx(ctx, func(tx *db.Tx) error {
			return repo.Write(ctx, tx, func(w *stores.Writer) error {
				for id, rec := range map[int64]stores.LicenceRecord{f.nyc.ID: active("active"), f.nyc2.ID: active("expired"), ntsoStore.ID: ntso} {
					if _, err := w.SetLicence(ctx, id, rec, today); err != nil {
						return err
					}
				}
				return nil
			})
		}), "licences")
		all := []*stores.Store{f.nyc, f.nyc2, ntsoStore, noLicence, f.ct}
		var rows []inventory.Row
		for _, st := range all {
			rows = append(rows, inventory.Row{StoreID: st.ID, ProductID: f.pods, Availability: inventory.InStock, ReportedAt: now},
				inventory.Row{StoreID: st.ID, ProductID: f.mango, Availability: inventory.InStock, ReportedAt: now})
		}
		dbtest.Must(t, f.stock.Put(ctx, rows), "put stock")
		ix, _ := f.replica(t, ctx, SnapshotOff)

		// The registry covers the 0.1° cell of Midtown (licences.Coverage's grid), not Stamford.
		covered := func(lat, lon float64) bool { return lat >= 40.7 && lat < 40.8 && lon >= -74.0 && lon < -73.9 }
		search := func(product int64, compliant bool) []int64 {
			q := Query{Latitude: 40.75, Longitude: -73.99, RadiusMiles: 50, Product: product, Now: now, Compliant: compliant, Covered: covered}
			dbtest.Must(t, q.Validate(), "query")
			var ids []int64
			if product != 0 {
				for _, s := range answerOf(t, ix, q).Stores {
					ids = append(ids, s.ID)
				}
			} else {
				hs, _ := ix.Nearest(q)
				ids = hitIDs(hs)
			}
			slices.Sort(ids)
			return ids
		}
		sorted := func(ids ...int64) []int64 { slices.Sort(ids); return ids }
		everyone := sorted(f.nyc.ID, f.nyc2.ID, ntsoStore.ID, noLicence.ID, f.ct.ID)
		for _, c := range []struct {
			name      string
			product   int64
			compliant bool
			want      []int64
		}{
			{"plain search, rule off", 0, false, everyone},
			{"plain search, compliant", 0, true, sorted(f.nyc.ID, f.ct.ID)},
			{"tobacco pods, rule off", f.pods, false, everyone},
			{"tobacco pods, compliant", f.pods, true, sorted(f.nyc.ID, f.ct.ID)},
			{"flavoured disposable, compliant: New York bans it", f.mango, true, sorted(f.ct.ID)},
		} {
			if got := search(c.product, c.compliant); !slices.Equal(got, c.want) {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			}
		}
		// Without a registry anywhere, only the order and the expired licence exclude.
		q := Query{Latitude: 40.75, Longitude: -73.99, RadiusMiles: 50, Product: f.pods, Now: now, Compliant: true}
		dbtest.Must(t, q.Validate(), "query")
		var got []int64
		for _, s := range answerOf(t, ix, q).Stores {
			got = append(got, s.ID)
		}
		slices.Sort(got)
		if want := sorted(f.nyc.ID, noLicence.ID, f.ct.ID); !slices.Equal(got, want) {
			t.Errorf("no registry: got %v, want %v", got, want)
		}
	})
}

func TestParseCompliant(t *testing.T) {
	t.Parallel()
	q, err := ParseQuery("latitude=40&longitude=-74&radius=10&compliant=true")
	if err != nil || !q.Compliant {
		t.Fatalf("compliant=true: %+v, %v", q, err)
	}
	if _, err := ParseQuery("latitude=40&longitude=-74&radius=10&compliant=maybe"); err == nil {
		t.Fatal("compliant=maybe accepted")
	}
}

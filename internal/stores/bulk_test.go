package stores_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// BulkInsert must write exactly what SaveAll writes: compare a store saved
// each way, column by column, plus hours, documents and what sync reads.
func TestBulkInsertMatchesSaveAll(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		dbtest.Must(t, repo.Create(ctx, sampleStore("Before", 40.7, -74)), "create")
		v0, err := repo.Version(ctx)
		dbtest.Must(t, err, "version")

		var bulk []*stores.Store
		for i := 0; i < 25; i++ {
			s := sampleStore(fmt.Sprintf("Bulk %d", i), 40+float64(i)/100, -74)
			if i%5 == 0 {
				s.WorkingHours = nil
			}
			if i%3 == 0 {
				s.WorkingHours = append(s.WorkingHours, schedule.WorkingHour{WeekDay: time.Tuesday, Start: "10:00", End: "11:00"},
					schedule.WorkingHour{WeekDay: time.Wednesday}, schedule.WorkingHour{WeekDay: time.Thursday},
					schedule.WorkingHour{WeekDay: time.Saturday})
			}
			bulk = append(bulk, s)
		}
		bulk[7].CountryCode, bulk[7].CountryName = "CA", ""
		dbtest.Must(t, repo.BulkInsert(ctx, bulk), "bulk insert")
		for i, s := range bulk {
			if s.ID != bulk[0].ID+int64(i) || s.ID <= 1 {
				t.Fatalf("store %d got id %d (first %d)", i, s.ID, bulk[0].ID)
			}
		}
		v1, err := repo.Version(ctx)
		dbtest.Must(t, err, "version")
		if v1 != v0+1 {
			t.Fatalf("version %d after bulk insert, want %d", v1, v0+1)
		}

		// The same stores through SaveAll, for comparison (store_id is
		// unique: theirs differ by a suffix).
		var saved []*stores.Store
		for i := range bulk {
			s := sampleStore(fmt.Sprintf("Bulk %d", i), 40+float64(i)/100, -74)
			s.StoreID += "-again"
			s.WorkingHours = bulk[i].WorkingHours
			s.CountryCode = bulk[i].CountryCode
			saved = append(saved, s)
		}
		saved[7].CountryName = ""
		dbtest.Must(t, repo.SaveAll(ctx, saved), "save all")

		row := func(id int64) []any {
			var vals [24]any
			ptrs := make([]any, len(vals))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			dbtest.Must(t, d.QueryRow(ctx, `SELECT store_id, name, image, phone_number, hours, country_id, state, city,
				postal_code, address, latitude, longitude, geo_precision, time_zone, is_delivery_available,
				is_order_online_available, is_curbside_pickup_available, status, rating_sum, review_count, schedule,
				search_doc, created_at IS NOT NULL, updated_at IS NOT NULL FROM stores WHERE id = $1`, id).Scan(ptrs...), "row %d", id)
			return vals[:]
		}
		for i := range bulk {
			b, s := row(bulk[i].ID), row(saved[i].ID)
			// The documents differ only by id.
			b[21] = fmt.Sprint(b[21])[len(fmt.Sprintf(`{"id":%d`, bulk[i].ID)):]
			s[21] = fmt.Sprint(s[21])[len(fmt.Sprintf(`{"id":%d`, saved[i].ID)):]
			s[0], s[21] = strings.TrimSuffix(fmt.Sprint(s[0]), "-again"), strings.Replace(fmt.Sprint(s[21]), "-again", "", 1)
			if !reflect.DeepEqual(fmt.Sprint(b), fmt.Sprint(s)) {
				t.Fatalf("store %d:\nbulk  %v\nsaved %v", i, b, s)
			}
			gb, err := repo.Get(ctx, bulk[i].ID)
			dbtest.Must(t, err, "get")
			gs, err := repo.Get(ctx, saved[i].ID)
			dbtest.Must(t, err, "get")
			if !reflect.DeepEqual(gb.WorkingHours, gs.WorkingHours) || gb.CountryName != gs.CountryName {
				t.Fatalf("store %d: hours %v / %v, country %q / %q", i, gb.WorkingHours, gs.WorkingHours, gb.CountryName, gs.CountryName)
			}
			now := time.Now()
			doc, err := repo.PublishedDocAt(ctx, bulk[i].ID, now)
			dbtest.Must(t, err, "doc")
			want, err := stores.RenderDoc(gb)
			dbtest.Must(t, err, "render")
			want = schedule.FinishDoc(nil, want, stores.WithExceptions(gb), now, stores.Zone(gb.TimeZone), gb.Offered())
			if string(doc) != string(want) {
				t.Fatalf("store %d: document\n%s\nwant\n%s", i, doc, want)
			}
		}

		// Sync sees the bulk stores, and later inserts take fresh ids.
		n := 0
		_, err = repo.ScanChanges(ctx, v0, 10, func(cs []stores.Change) error { n += len(cs); return nil })
		dbtest.Must(t, err, "scan")
		if n != 2*len(bulk) {
			t.Fatalf("scan saw %d changes, want %d", n, 2*len(bulk))
		}
		after := sampleStore("After", 41, -74)
		dbtest.Must(t, repo.Create(ctx, after), "create after bulk")
		if after.ID <= saved[len(saved)-1].ID {
			t.Fatalf("id %d reused", after.ID)
		}
		if err := repo.BulkInsert(ctx, []*stores.Store{after}); err == nil {
			t.Fatal("bulk insert of a store with an id accepted")
		}
	})
}

package stores_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

func sampleStore(name string, lat, lon float64) *stores.Store {
	return &stores.Store{
		StoreID: "st-" + name, Name: name, PhoneNumber: "+12125550100", Hours: "Mon-Fri 9-5",
		CountryCode: "US", State: "NY", City: "New York", PostalCode: "10001", Address: "1 Main St",
		Latitude: lat, Longitude: lon, TimeZone: "America/New_York", Delivery: true,
		WorkingHours: []schedule.WorkingHour{
			{WeekDay: time.Monday, Start: "09:00", End: "17:00"},
			{WeekDay: time.Friday, Start: "18:00", End: "02:00"},
			{WeekDay: time.Sunday},
		},
	}
}

func TestRepoRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		repo, s := storestest.Created(t, d, sampleStore("Vape <One> & \"Co\"", 40.75, -73.99))
		if s.ID == 0 || s.CountryID == 0 {
			t.Fatalf("ids not set: %+v", s)
		}
		got, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if got.Name != s.Name || got.TimeZone != "America/New_York" || got.CountryName != "United States" ||
			len(got.WorkingHours) != 3 || got.WorkingHours[1].Start != "18:00" || got.WorkingHours[2].Start != "" ||
			!got.Delivery || got.Status != stores.Published || got.CreatedAt.IsZero() {
			t.Fatalf("round trip: %+v", got)
		}

		// The search document carries every field the API promises.
		var doc map[string]any
		var raw string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT search_doc FROM stores WHERE id = $1", s.ID).Scan(&raw), "doc")
		dbtest.Must(t, json.Unmarshal([]byte(raw), &doc), "parse doc %s", raw)
		for _, k := range []string{"id", "store_id", "name", "image", "phone_number", "hours", "country_id", "country", "state",
			"address", "latitude", "longitude", "workingHours", "is_delivery_available", "is_order_online_available",
			"is_curbside_pickup_available", "average_rating", "review_count", "time_zone"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("search doc lacks %q: %s", k, raw)
			}
		}
		if doc["country"].(map[string]any)["display_name"] != "United States" || doc["image"] != nil {
			t.Errorf("doc: %s", raw)
		}
		wh := doc["workingHours"].([]any)
		if wh[0].(map[string]any)["weekDay"] != "Monday" || wh[2].(map[string]any)["startTime"] != nil {
			t.Errorf("workingHours: %v", wh)
		}

		// Update replaces the hours.
		got.WorkingHours = got.WorkingHours[:1]
		got.Name = "Renamed"
		dbtest.Must(t, repo.Update(ctx, got), "update")
		again, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get again")
		if again.Name != "Renamed" || len(again.WorkingHours) != 1 {
			t.Fatalf("after update: %+v", again)
		}

		if _, err := repo.Get(ctx, 999999); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("missing store: %v", err)
		}
		missing := sampleStore("x", 1, 1)
		missing.ID = 999999
		if err := repo.Update(ctx, missing); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("update missing: %v", err)
		}
	})
}

func TestSaveAllIsAllOrNothing(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		good := sampleStore("good", 40, -74)
		bad := sampleStore("bad", 40, -74)
		bad.TimeZone = "Mars/Olympus"
		if err := repo.SaveAll(ctx, []*stores.Store{good, bad}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("invalid batch: %v", err)
		}
		// A failure inside the transaction (a row the database refuses) rolls back all.
		good2 := sampleStore("good2", 40, -74)
		dup := sampleStore("dup", 40, -74)
		dup.ID = 424242 // update of a missing row fails after good2 was inserted
		if err := repo.SaveAll(ctx, []*stores.Store{good2, dup}); err == nil {
			t.Fatal("batch with a missing store succeeded")
		}
		n, err := repo.Count(ctx)
		dbtest.Must(t, err, "count")
		if n != 0 {
			t.Fatalf("%d stores after failed batches, want 0", n)
		}
		v, err := repo.Version(ctx)
		dbtest.Must(t, err, "version")
		if v != 0 {
			t.Fatalf("version %d after failed batches, want 0", v)
		}
	})
}

func TestRepoExceptionsRoundTrip(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		future := time.Now().AddDate(0, 0, 3).Format("2006-01-02")
		old := time.Now().AddDate(0, 0, -40).Format("2006-01-02")
		s := sampleStore("exceptions", 40.75, -73.99)
		s.SpecialHours = []schedule.SpecialHour{
			{Date: future, Start: "18:00", End: "02:00", Note: "Late opening"},
			{Date: old, Closed: true, Note: "pruned: older than 30 days"},
			{Date: future, Start: "10:00", End: "12:00"},
		}
		s.TemporarilyClosed = &schedule.Closure{From: "2027-01-04", Note: "Renovation"}
		dbtest.Must(t, repo.Create(ctx, s), "create")
		got, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if len(got.SpecialHours) != 2 || got.SpecialHours[0] != s.SpecialHours[0] || got.SpecialHours[1].Start != "10:00" ||
			got.TemporarilyClosed == nil || *got.TemporarilyClosed != (schedule.Closure{From: "2027-01-04", Note: "Renovation"}) || got.PermanentlyClosed {
			t.Fatalf("round trip: %+v %+v", got.SpecialHours, got.TemporarilyClosed)
		}
		doc, err := repo.PublishedDoc(ctx, s.ID)
		dbtest.Must(t, err, "doc")
		var live struct {
			SpecialHours      []map[string]any `json:"special_hours"`
			TemporarilyClosed map[string]any   `json:"temporarily_closed"`
		}
		dbtest.Must(t, json.Unmarshal(doc, &live), "parse %s", doc)
		if len(live.SpecialHours) != 2 || live.SpecialHours[0]["note"] != "Late opening" || live.TemporarilyClosed["until"] != nil {
			t.Fatalf("live fields: %s", doc)
		}

		// Clearing them, and a permanent closure.
		got.SpecialHours, got.TemporarilyClosed, got.PermanentlyClosed = nil, nil, true
		dbtest.Must(t, repo.Update(ctx, got), "update")
		again, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if len(again.SpecialHours) != 0 || again.TemporarilyClosed != nil || !again.PermanentlyClosed {
			t.Fatalf("after update: %+v", again)
		}

		// All or nothing: a bad entry in the second store writes neither.
		n0, _ := repo.Count(ctx)
		good, bad := sampleStore("good", 40, -74), sampleStore("bad", 40, -74)
		bad.SpecialHours = []schedule.SpecialHour{{Date: future, Start: "09:00", End: "12:00"}, {Date: future, Start: "11:00", End: "13:00"}}
		err = repo.SaveAll(ctx, []*stores.Store{good, bad})
		if apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("overlapping spans: %v", err)
		}
		if n, _ := repo.Count(ctx); n != n0 {
			t.Fatalf("%d stores written of a refused batch", n-n0)
		}

		// The bulk path writes the same rows.
		bulk := sampleStore("bulk", 40, -74)
		bulk.SpecialHours = []schedule.SpecialHour{{Date: future, Closed: true, Note: "Holiday"}}
		bulk.TemporarilyClosed = &schedule.Closure{From: "2027-02-01", Until: "2027-02-03"}
		dbtest.Must(t, repo.BulkInsert(ctx, []*stores.Store{bulk}), "bulk")
		gb, err := repo.Get(ctx, bulk.ID)
		dbtest.Must(t, err, "get bulk")
		if len(gb.SpecialHours) != 1 || gb.SpecialHours[0].Note != "Holiday" || gb.TemporarilyClosed == nil || gb.TemporarilyClosed.Until != "2027-02-03" {
			t.Fatalf("bulk: %+v %+v", gb.SpecialHours, gb.TemporarilyClosed)
		}
	})
}

// Writer.Save is the path other features (a business's PATCH) write
// through: it refuses a bad store itself, and the caller's transaction
// leaves nothing behind.
func TestWriterSaveValidates(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		repo, s := storestest.Created(t, d, sampleStore("writer", 40, -74))
		v0, _ := repo.Version(ctx)
		s.SpecialHours = []schedule.SpecialHour{{Date: "2026-11-26", Start: "09:00", End: "12:00"}}
		s.TemporarilyClosed = &schedule.Closure{From: "2026-12-05", Until: "2026-12-01"}
		err := d.InTx(ctx, func(tx *db.Tx) error {
			return repo.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, s) })
		})
		if apperr.CodeOf(err) != apperr.Invalid || err.Error() != "temporarily_closed.until must not be before its from date" {
			t.Fatalf("save: %v", err)
		}
		got, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if v, _ := repo.Version(ctx); len(got.SpecialHours) != 0 || got.TemporarilyClosed != nil || v != v0 {
			t.Fatalf("half written: %+v %+v, version %d -> %d", got.SpecialHours, got.TemporarilyClosed, v0, v)
		}
	})
}

func TestWebsiteAndVerificationRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		repo, s := storestest.Created(t, d, sampleStore("Verified", 40.75, -73.99))
		doc, err := repo.PublishedDoc(ctx, s.ID)
		dbtest.Must(t, err, "doc")
		var m map[string]any
		dbtest.Must(t, json.Unmarshal(doc, &m), "json")
		if _, has := m["website"]; has || m["last_verified_at"] != nil {
			t.Fatalf("a store without website or confirmation: %s", doc)
		}
		at := time.Date(2026, 11, 3, 23, 30, 0, 0, time.FixedZone("EST", -5*3600))
		s.Website, s.VerifiedAt = "https://verified.example", &at
		dbtest.Must(t, repo.Update(ctx, s), "update")
		got, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if got.Website != "https://verified.example" || got.VerifiedAt == nil || !got.VerifiedAt.Equal(at) {
			t.Fatalf("round trip: %q %v", got.Website, got.VerifiedAt)
		}
		doc, _ = repo.PublishedDoc(ctx, s.ID)
		dbtest.Must(t, json.Unmarshal(doc, &m), "json")
		if m["website"] != "https://verified.example" || m["last_verified_at"] != "2026-11-04T04:30:00Z" {
			t.Fatalf("document: %s", doc)
		}
		bad := sampleStore("Bad", 1, 1)
		bad.Website = "javascript:alert(1)"
		if err := bad.Validate(); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("javascript: website: %v", err)
		}
	})
}

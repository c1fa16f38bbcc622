package stores_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The services' settings survive a write and a read on both engines, by
// the one write path and by the bulk insert, and reach the API document.
func TestRepoServices(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		pause := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second)
		s := sampleStore("Services", 40.75, -73.99)
		s.Curbside = true
		s.Services[schedule.Delivery] = schedule.ServiceHours{
			Hours:        []schedule.WorkingHour{{WeekDay: time.Monday, Start: "11:00", End: "16:00"}},
			LastOrder:    30,
			SpecialHours: []schedule.SpecialHour{{Date: time.Now().AddDate(0, 0, 3).Format("2006-01-02"), Closed: true, Note: "Staff day"}},
		}
		s.Services[schedule.CurbsidePickup] = schedule.ServiceHours{PausedUntil: &pause, PauseNote: "Short of staff"}
		b := sampleStore("Services bulk", 40.76, -73.99)
		b.StoreID, b.Curbside = "st-bulk", true
		b.Services = s.Services
		dbtest.Must(t, repo.Create(ctx, s), "create")
		dbtest.Must(t, repo.BulkInsert(ctx, []*stores.Store{b}), "bulk insert")
		for _, id := range []int64{s.ID, b.ID} {
			got, err := repo.Get(ctx, id)
			dbtest.Must(t, err, "get")
			dl, cp := got.Services[schedule.Delivery], got.Services[schedule.CurbsidePickup]
			if len(dl.Hours) != 1 || dl.Hours[0].Start != "11:00" || dl.LastOrder != 30 || len(dl.SpecialHours) != 1 ||
				dl.SpecialHours[0].Note != "Staff day" || cp.PausedUntil == nil || !cp.PausedUntil.Equal(pause) ||
				cp.PauseNote != "Short of staff" || !got.Services[schedule.OnlineOrder].IsZero() {
				t.Fatalf("store %d services: %+v", id, got.Services)
			}
			doc, err := repo.PublishedDoc(ctx, id)
			dbtest.Must(t, err, "doc")
			var api struct {
				Services map[string]struct {
					Offered     bool    `json:"offered"`
					Available   bool    `json:"available_now"`
					PausedUntil *string `json:"paused_until"`
					Note        *string `json:"note"`
				} `json:"services"`
			}
			dbtest.Must(t, json.Unmarshal(doc, &api), "parse %s", doc)
			c := api.Services["curbside_pickup"]
			if !c.Offered || c.Available || c.PausedUntil == nil || *c.Note != "Short of staff" ||
				!api.Services["delivery"].Offered || api.Services["online_order"].Offered {
				t.Fatalf("store %d document: %s", id, doc)
			}
		}
		// Lifting the pause is a write like any other.
		s.Services[schedule.CurbsidePickup] = schedule.ServiceHours{}
		dbtest.Must(t, repo.Update(ctx, s), "update")
		got, err := repo.Get(ctx, s.ID)
		dbtest.Must(t, err, "get")
		if !got.Services[schedule.CurbsidePickup].IsZero() || got.Services[schedule.Delivery].LastOrder != 30 {
			t.Fatalf("after update: %+v", got.Services)
		}
	})
}

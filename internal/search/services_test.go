package search

import (
	"context"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// available_now narrows a chosen service to the stores taking its orders
// now, on a replica from the rows and one from a snapshot; a pause reaches
// both within one poll, and so does its end; the other filters keep their
// meaning (offered).
func TestAvailableNowOnTwoReplicas(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		week := make([]schedule.WorkingHour, 0, 7)
		for day := time.Sunday; day <= time.Saturday; day++ {
			week = append(week, schedule.WorkingHour{WeekDay: day, Start: "00:00", End: "00:00"}) // around the clock
		}
		a, b, c := syncStore("a", 40.71, -74.0), syncStore("b", 40.72, -74.0), syncStore("c", 40.73, -74.0)
		for _, s := range []*stores.Store{a, b, c} {
			s.WorkingHours, s.Delivery, s.Curbside = week, true, true
		}
		c.Delivery = false
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{a, b, c}), "save")
		first, ix1 := loadIndex(t, ctx, repo, SnapshotAlways, "rows")
		if wrote, err := first.WriteSnapshot(ctx); err != nil || !wrote {
			t.Fatalf("snapshot: %v %v", wrote, err)
		}
		second, ix2 := loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")

		now := time.Now()
		deliveryNow := Query{Latitude: 40.71, Longitude: -74.0, RadiusMiles: 30, Delivery: true, AvailableNow: true, Now: now}
		offered := deliveryNow
		offered.AvailableNow, offered.OpenNow = false, true
		ids := func(ls []liveStore) (out []int64) {
			for _, l := range ls {
				out = append(out, l.ID)
			}
			return out
		}
		for _, ix := range []*Index{ix1, ix2} {
			if got := ids(answer(t, ix, deliveryNow)); len(got) != 2 || got[0] != a.ID || got[1] != b.ID {
				t.Fatalf("delivery now before the pause: %v", got)
			}
		}

		pause := now.Add(time.Hour)
		a.Services[schedule.Delivery] = schedule.ServiceHours{PausedUntil: &pause, PauseNote: "Driver out"}
		dbtest.Must(t, repo.Update(ctx, a), "pause a's delivery")
		for _, sy := range []*Syncer{first, second} {
			dbtest.Must(t, sy.Poll(ctx), "poll")
		}
		curbsideNow := deliveryNow
		curbsideNow.Delivery, curbsideNow.Curbside = false, true
		for i, ix := range []*Index{ix1, ix2} {
			if got := ids(answer(t, ix, deliveryNow)); len(got) != 1 || got[0] != b.ID {
				t.Fatalf("replica %d, delivery now while a's is paused: %v", i+1, got)
			}
			if got := ids(answer(t, ix, offered)); len(got) != 2 {
				t.Fatalf("replica %d, delivery offered and open now: %v", i+1, got)
			}
			if got := ids(answer(t, ix, curbsideNow)); len(got) != 3 {
				t.Fatalf("replica %d, curbside is not paused: %v", i+1, got)
			}
			// With Open now on too (as the web app sends it): a service of
			// its own is still tested, one following the store is open now.
			both, curbsideBoth := deliveryNow, curbsideNow
			both.OpenNow, curbsideBoth.OpenNow = true, true
			if got := ids(answer(t, ix, both)); len(got) != 1 || got[0] != b.ID {
				t.Fatalf("replica %d, delivery now and open now while a's is paused: %v", i+1, got)
			}
			if got := ids(answer(t, ix, curbsideBoth)); len(got) != 3 {
				t.Fatalf("replica %d, curbside now and open now: %v", i+1, got)
			}
			// The pause is over an hour later.
			later := deliveryNow
			later.Now = pause.Add(time.Minute)
			if got := ids(answer(t, ix, later)); len(got) != 2 {
				t.Fatalf("replica %d, after the pause: %v", i+1, got)
			}
		}

		a.Services[schedule.Delivery] = schedule.ServiceHours{}
		dbtest.Must(t, repo.Update(ctx, a), "resume a's delivery")
		for i, sy := range []*Syncer{first, second} {
			dbtest.Must(t, sy.Poll(ctx), "poll")
			if got := ids(answer(t, []*Index{ix1, ix2}[i], deliveryNow)); len(got) != 2 {
				t.Fatalf("replica %d, resumed: %v", i+1, got)
			}
		}
	})
}

func TestParseAvailableNow(t *testing.T) {
	t.Parallel()
	q, err := ParseQuery("latitude=1&longitude=2&radius=3&is_delivery_available=true&available_now=true")
	if err != nil || !q.AvailableNow || !q.Delivery {
		t.Fatalf("%+v %v", q, err)
	}
	if _, err := ParseQuery("latitude=1&longitude=2&radius=3&available_now=maybe"); err == nil {
		t.Fatal("available_now=maybe accepted")
	}
}

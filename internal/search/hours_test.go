package search

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

type liveStore struct {
	ID                int64 `json:"id"`
	OpenNow           bool  `json:"open_now"`
	NextChangeAt      *string
	SpecialHours      []map[string]any `json:"special_hours"`
	TemporarilyClosed *struct {
		From  string  `json:"from"`
		Until *string `json:"until"`
	} `json:"temporarily_closed"`
	PermanentlyClosed bool `json:"permanently_closed"`
}

func answer(t *testing.T, ix *Index, q Query) []liveStore {
	t.Helper()
	dbtest.Must(t, q.Validate(), "query")
	var out struct {
		Stores []liveStore `json:"physical_stores"`
	}
	raw := ix.AppendJSON(nil, q)
	dbtest.Must(t, json.Unmarshal(raw, &out), "answer %s", raw)
	return out.Stores
}

// A store whose special hours close it today is absent from open now and
// reads closed with its note, on two replicas (one started from the rows,
// one from a snapshot) within one poll of the change; a permanently closed
// store leaves search altogether.
func TestSpecialClosureOnTwoReplicas(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		week := make([]schedule.WorkingHour, 0, 7)
		for day := time.Sunday; day <= time.Saturday; day++ {
			week = append(week, schedule.WorkingHour{WeekDay: day, Start: "09:00", End: "21:00"})
		}
		a, b := syncStore("a", 40.71, -74.0), syncStore("b", 40.72, -74.0)
		a.WorkingHours, b.WorkingHours = week, week
		b.TemporarilyClosed = &schedule.Closure{From: "2026-11-20", Until: "2026-11-30", Note: "Renovation"}
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{a, b}), "save")

		first, ix1 := loadIndex(t, ctx, repo, SnapshotAlways, "rows")
		if wrote, err := first.WriteSnapshot(ctx); err != nil || !wrote {
			t.Fatalf("snapshot: %v %v", wrote, err)
		}
		second, ix2 := loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")
		thanksgivingNoon := time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC) // 12:00 in New York
		openNow := Query{Latitude: 40.71, Longitude: -74.0, RadiusMiles: 30, OpenNow: true, Now: thanksgivingNoon}
		all := openNow
		all.OpenNow = false
		for _, ix := range []*Index{ix1, ix2} {
			if got := answer(t, ix, openNow); len(got) != 1 || got[0].ID != a.ID || !got[0].OpenNow {
				t.Fatalf("before the change, open now: %+v", got)
			}
			got := answer(t, ix, all)
			if len(got) != 2 || got[1].ID != b.ID || got[1].OpenNow || got[1].TemporarilyClosed == nil || *got[1].TemporarilyClosed.Until != "2026-11-30" {
				t.Fatalf("temporarily closed store: %+v", got)
			}
		}

		a.SpecialHours = []schedule.SpecialHour{{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"}}
		dbtest.Must(t, repo.Update(ctx, a), "close a on Thanksgiving")
		for _, sy := range []*Syncer{first, second} {
			dbtest.Must(t, sy.Poll(ctx), "poll")
		}
		for i, ix := range []*Index{ix1, ix2} {
			if got := answer(t, ix, openNow); len(got) != 0 {
				t.Fatalf("replica %d, open now on Thanksgiving: %+v", i+1, got)
			}
			got := answer(t, ix, all)
			if len(got) != 2 || got[0].ID != a.ID || got[0].OpenNow || len(got[0].SpecialHours) != 1 ||
				got[0].SpecialHours[0]["note"] != "Thanksgiving" || got[0].SpecialHours[0]["closed"] != true {
				t.Fatalf("replica %d, closed today: %+v", i+1, got)
			}
			// The day after, the weekly hours apply again.
			next := openNow
			next.Now = thanksgivingNoon.Add(24 * time.Hour)
			if got := answer(t, ix, next); len(got) != 1 || got[0].ID != a.ID {
				t.Fatalf("replica %d, the day after: %+v", i+1, got)
			}
		}

		a.PermanentlyClosed = true
		dbtest.Must(t, repo.Update(ctx, a), "close a for good")
		for i, sy := range []*Syncer{first, second} {
			dbtest.Must(t, sy.Poll(ctx), "poll")
			if got := answer(t, []*Index{ix1, ix2}[i], all); len(got) != 1 || got[0].ID != b.ID {
				t.Fatalf("replica %d, permanently closed store still searchable: %+v", i+1, got)
			}
		}
		doc, err := repo.PublishedDocAt(ctx, a.ID, thanksgivingNoon)
		dbtest.Must(t, err, "the closed store's own answer")
		var one liveStore
		dbtest.Must(t, json.Unmarshal(doc, &one), "parse %s", doc)
		if !one.PermanentlyClosed || one.OpenNow {
			t.Fatalf("permanently closed store answer: %s", doc)
		}
		// A new replica leaves it out too, from the rows and from a snapshot.
		third, ix3 := loadIndex(t, ctx, repo, SnapshotOff, "rows")
		if ix3.Len() != 1 || !third.Ready() {
			t.Fatalf("new replica holds %d stores", ix3.Len())
		}
		if _, err := first.WriteSnapshot(ctx); err != nil {
			t.Fatal(err)
		}
		_, ix4 := loadIndex(t, ctx, repo, SnapshotAlways, "")
		checkSame(t, ix4, ix3)
	})
}

package search

import (
	"context"
	"errors"
	"testing"

	"locator/internal/db/dbtest"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

func syncStore(name string, lat, lon float64) *stores.Store {
	return &stores.Store{StoreID: "st-" + name, Name: name, Latitude: lat, Longitude: lon, TimeZone: "America/New_York"}
}

func TestSyncerFollowsChanges(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		a, b := syncStore("a", 40.71, -74.0), syncStore("b", 40.72, -74.0)
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{a, b}), "save")
		ix := NewIndex()
		sy := NewSyncer(repo, ix, SnapshotAuto, quiet)
		dbtest.Must(t, sy.Load(ctx), "load")
		if ix.Len() != 2 || !sy.Ready() {
			t.Fatalf("loaded %d", ix.Len())
		}
		// A second replica's write: hide a, add c, move b.
		dbtest.Must(t, repo.SetStatus(ctx, a.ID, stores.Hidden), "hide")
		c := syncStore("c", 40.73, -74.0)
		dbtest.Must(t, repo.Create(ctx, c), "create c")
		b.Latitude = 34.05
		b.Longitude = -118.24
		dbtest.Must(t, repo.Update(ctx, b), "move b")
		pending := syncStore("p", 40.71, -74.0)
		pending.Status = stores.Pending
		dbtest.Must(t, repo.Create(ctx, pending), "create pending")

		dbtest.Must(t, sy.Poll(ctx), "poll")
		q := Query{Latitude: 40.71, Longitude: -74.0, RadiusMiles: 30}
		dbtest.Must(t, q.Validate(), "query")
		hits, _ := ix.Nearest(q)
		if len(hits) != 1 || hits[0].ID != c.ID {
			t.Fatalf("New York after sync: %+v (c=%d)", hits, c.ID)
		}
		q.Latitude, q.Longitude = 34.05, -118.24
		hits, _ = ix.Nearest(q)
		if len(hits) != 1 || hits[0].ID != b.ID {
			t.Fatalf("Los Angeles after sync: %+v", hits)
		}
		v, _ := repo.Version(ctx)
		if sy.Version() != v {
			t.Fatalf("syncer at %d, database at %d", sy.Version(), v)
		}
	})
}

// Load waits for the work beside it before it collects the garbage and
// reports ready, and fails with that work's error.
func TestLoadWaitsForWorkBeside(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{syncStore("a", 40.71, -74.0)}), "save")
		done := false
		sy := NewSyncer(repo, NewIndex(), SnapshotAuto, quiet)
		dbtest.Must(t, sy.LoadBeside(ctx, func() error {
			if sy.Ready() {
				t.Error("ready before the work beside the load ended")
			}
			done = true
			return nil
		}), "load")
		if !done || !sy.Ready() {
			t.Fatalf("beside ran: %v, ready: %v", done, sy.Ready())
		}
		failed := errors.New("place index: broken")
		sy = NewSyncer(repo, NewIndex(), SnapshotAuto, quiet)
		if err := sy.LoadBeside(ctx, func() error { return failed }); !errors.Is(err, failed) || sy.Ready() {
			t.Fatalf("load with failing work beside: %v, ready %v", err, sy.Ready())
		}
	})
}

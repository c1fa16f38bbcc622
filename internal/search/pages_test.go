package search

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

func TestDocStringReadsRenderedDocuments(t *testing.T) {
	t.Parallel()
	s := &stores.Store{ID: 7, StoreID: `x","name":"fake`, Name: `Joe's "Best" \ Café`, Hours: `"state":"XX"`,
		State: "NY", City: "New York", TimeZone: "UTC", CountryCode: "US"}
	doc, err := stores.RenderDoc(s)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"name": s.Name, "state": "NY", "city": "New York", "store_id": s.StoreID, "missing": ""} {
		if got := DocString(doc, key); got != want {
			t.Errorf("DocString(%s) = %q, want %q", key, got, want)
		}
		if got := DocString(doc[:len(doc)-1], key); got != want {
			t.Errorf("without brace: DocString(%s) = %q, want %q", key, got, want)
		}
	}
}

func TestDirectoryAndWalk(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		mk := func(name, state, city string, lat float64) *stores.Store {
			s := syncStore(name, lat, -74)
			s.State, s.City = state, city
			return s
		}
		ss := []*stores.Store{
			mk("Zed", "NY", "New York", 40.70), mk("Ann", "ny", "new york", 40.71), mk("Bob", "NY", "Albany", 42.65),
			mk("Cat", "NJ", "Newark", 40.73), mk("Dot", "", "", 40.74),
		}
		hidden := mk("Hid", "NY", "Albany", 42.66)
		hidden.Status = stores.Hidden
		dbtest.Must(t, repo.SaveAll(ctx, append(ss, hidden)), "save")
		ix := NewIndex()
		sy := NewSyncer(repo, ix, SnapshotAuto, quiet)
		dbtest.Must(t, sy.Load(ctx), "load")

		dir := ix.Directory()
		if dir.Total != 5 || len(dir.States) != 3 {
			t.Fatalf("directory: %d stores, %+v", dir.Total, dir.States)
		}
		ny, ok := dir.State("ny")
		if !ok || ny.Count != 3 || len(ny.Cities) != 2 || ny.Cities[0].Slug != "albany" || ny.Cities[1].Slug != "new-york" {
			t.Fatalf("ny: %+v", ny)
		}
		nyc, _ := ny.City("new-york")
		if len(nyc.IDs) != 2 || nyc.IDs[0] != ss[1].ID || nyc.IDs[1] != ss[0].ID {
			t.Fatalf("New York stores by name: %v", nyc.IDs)
		}
		if _, ok := dir.State(OtherSlug); !ok {
			t.Fatal("no state: other")
		}
		if ix.Directory() != dir {
			t.Fatal("directory rebuilt without a change")
		}

		var walked []int64
		var slugs []string
		dbtest.Must(t, dir.Stores(1, 4, func(st, c string, id int64, name []byte, up time.Time) error {
			walked = append(walked, id)
			slugs = append(slugs, st+"/"+c+"/"+string(name))
			if up.IsZero() {
				t.Errorf("store %d: updated %v", id, up)
			}
			return nil
		}), "walk")
		if want := "ny/albany/bob ny/new-york/ann ny/new-york/zed"; strings.Join(slugs, " ") != want {
			t.Fatalf("walk [1,4) slugs: %v, want %s", slugs, want)
		}
		// Order: nj/newark(Cat), ny/albany(Bob), ny/new-york(Ann, Zed), other/other(Dot).
		if want := []int64{ss[2].ID, ss[1].ID, ss[0].ID}; len(walked) != 3 || walked[0] != want[0] || walked[1] != want[1] || walked[2] != want[2] {
			t.Fatalf("walk [1,4): %v, want %v", walked, want)
		}

		// A change on another replica: the next directory has it.
		dbtest.Must(t, repo.SetStatus(ctx, ss[2].ID, stores.Hidden), "hide Bob")
		dbtest.Must(t, sy.Poll(ctx), "poll")
		if d2 := ix.Directory(); d2 == dir || d2.Total != 4 {
			t.Fatalf("after hiding: %d stores", d2.Total)
		}
		if _, ok := ix.Get(ss[2].ID); ok {
			t.Fatal("hidden store still found")
		}
		got, ok := ix.Get(ss[0].ID)
		if !ok || got.Doc[len(got.Doc)-1] != '}' || got.UpdatedAt.IsZero() || got.Zone.String() != "America/New_York" {
			t.Fatalf("Get: %+v", got)
		}
		near := ix.Nearby(ss[0].ID, 2)
		if len(near) != 2 || near[0].ID != ss[1].ID {
			t.Fatalf("nearby: %+v", near)
		}
		// Around a point (a store the index does not hold): nearest first,
		// the store at the point itself included.
		at := ix.NearPoint(40.705, -74, 3)
		if len(at) != 3 || (at[0].ID != ss[0].ID && at[0].ID != ss[1].ID) || at[2].ID != ss[3].ID || at[0].Miles > at[2].Miles {
			t.Fatalf("near a point: %+v", at)
		}
		if ix.NearPoint(40.7, -74, 0) != nil {
			t.Fatal("no neighbours asked for")
		}
	})
}

// A slow directory (SlowDirectory lowered to nothing here) is not waited
// for while it is recent: after a change the previous one is served and
// the next is built in the background; an old one is rebuilt in line.
func TestSlowDirectoryIsRebuiltInTheBackground(t *testing.T) {
	t.Parallel()
	slow, stale := SlowDirectory, StaleDirectory
	t.Cleanup(func() { SlowDirectory, StaleDirectory = slow, stale })
	SlowDirectory, StaleDirectory = 0, time.Hour
	entry := func(id int64, name string) stores.Entry {
		return stores.Entry{ID: id, Latitude: 40.7, Longitude: -74, TimeZone: "America/New_York",
			Doc: []byte(`{"id":` + strconv.FormatInt(id, 10) + `,"name":"` + name + `","state":"NY","city":"New York"}`)}
	}
	ix := NewIndex()
	ix.PutAll([]stores.Entry{entry(1, "Ann"), entry(2, "Bob")})
	first := ix.Directory() // none yet: built in line
	if first.Total != 2 || first.Gen != ix.Gen() {
		t.Fatalf("first directory: %d stores, gen %d of %d", first.Total, first.Gen, ix.Gen())
	}

	ix.Put(entry(3, "Cat"))
	if d := ix.Directory(); d != first {
		t.Fatalf("right after a change: got a directory of %d stores, want the previous one", d.Total)
	}
	deadline := time.Now().Add(10 * time.Second)
	var d *Directory
	for d = ix.Directory(); d.Gen != ix.Gen() && time.Now().Before(deadline); d = ix.Directory() {
		time.Sleep(time.Millisecond)
	}
	if d.Gen != ix.Gen() || d.Total != 3 {
		t.Fatalf("the background build never landed: %d stores, gen %d of %d", d.Total, d.Gen, ix.Gen())
	}
	var names []string
	dbtest.Must(t, d.Stores(0, d.Total, func(_, _ string, _ int64, name []byte, _ time.Time) error {
		names = append(names, string(name))
		return nil
	}), "stores")
	if strings.Join(names, ",") != "ann,bob,cat" {
		t.Fatalf("stores of the new directory: %v", names)
	}

	// Past StaleDirectory the caller waits for the new directory.
	StaleDirectory = 0
	ix.Remove(1)
	if d := ix.Directory(); d.Gen != ix.Gen() || d.Total != 2 {
		t.Fatalf("an old directory was served: %d stores, gen %d of %d", d.Total, d.Gen, ix.Gen())
	}
}

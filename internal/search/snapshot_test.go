package search

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"locator/internal/db/dbtest"
	"locator/internal/schedule"

	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// snapshotStores writes n varied stores: three zones, several weekly
// patterns (overnight and none), every flag combination, places under
// different rules (New York City, California, New Jersey, none).
func snapshotStores(t *testing.T, ctx context.Context, repo *stores.Repo, n int, seed uint64) []*stores.Store {
	rng := rand.New(rand.NewPCG(seed, 7))
	zones := []string{"America/New_York", "America/Chicago", "America/Los_Angeles"}
	patterns := [][]schedule.WorkingHour{
		nil,
		{{WeekDay: time.Monday, Start: "09:00", End: "17:00"}, {WeekDay: time.Sunday}},
		{{WeekDay: time.Friday, Start: "18:00", End: "02:00"}, {WeekDay: time.Saturday, Start: "10:00", End: "23:00"}},
	}
	places := [][3]string{{"NY", "Somewhere", "10001"}, {"CA", "Fresno", "93650"}, {"NJ", "Newark", "07102"}, {"TX", "Austin", "73301"}}
	ss := make([]*stores.Store, n)
	for i := range ss {
		pl := places[i%len(places)]
		ss[i] = &stores.Store{
			StoreID: fmt.Sprintf("snap-%d-%d", seed, i), Name: fmt.Sprintf("Store %d", i), Hours: "see hours",
			CountryCode: "US", State: pl[0], City: pl[1], PostalCode: pl[2], Address: fmt.Sprintf("%d Main St", i),
			Latitude: 30 + rng.Float64()*15, Longitude: -120 + rng.Float64()*45, TimeZone: zones[i%3],
			Delivery: i%2 == 0, OrderOnline: i%3 == 0, Curbside: i%5 == 0, WorkingHours: patterns[i%len(patterns)],
			AdultOnly: i%7 == 0, // a detail part of its own, kept whole (the others' is plainDetail)
		}
	}
	dbtest.Must(t, repo.SaveAll(ctx, ss), "save stores")
	return ss
}

// dumpIndex lists what the index holds for each store, in id order.
func dumpIndex(ix *Index) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	names := map[*schedule.Schedule]string{}
	for enc, s := range ix.sched {
		names[s] = enc
	}
	var out []string
	for id, slot := range ix.slots {
		r := &ix.recs[slot]
		if r.id != id || !r.live {
			out = append(out, fmt.Sprintf("slot %d of store %d holds %d (live %v)", slot, id, r.id, r.live))
			continue
		}
		// The rule set is interned by the rulebook: one pointer per set.
		out = append(out, fmt.Sprintf("%d %v %v %d %s %q %d %d %d %p %s", r.id, r.lat, r.lon, r.flags, r.loc, names[r.sched], r.updated,
			len(r.doc), r.listEnd, ix.rulesOf(r), appendDoc(nil, r)))
	}
	slices.Sort(out)
	if n := ix.tree.len(); n != len(ix.slots) {
		out = append(out, fmt.Sprintf("tree holds %d items for %d stores", n, len(ix.slots)))
	}
	return out
}

// sameSearches checks that both indexes answer a spread of queries alike.
func sameSearches(t *testing.T, got, want *Index) {
	t.Helper()
	rng := rand.New(rand.NewPCG(9, 9))
	now := time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC)
	for i := range 200 {
		q := Query{Latitude: 30 + rng.Float64()*15, Longitude: -120 + rng.Float64()*45, RadiusMiles: 100, Limit: 50,
			Delivery: i%4 == 1, Curbside: i%4 == 2, OpenNow: i%4 == 3, Now: now}
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		if a, b := got.AppendJSON(nil, q), want.AppendJSON(nil, q); !bytes.Equal(a, b) {
			ga, _ := got.Nearest(q)
			wa, _ := want.Nearest(q)
			t.Fatalf("query %+v: answers differ (%d and %d bytes):\n got  %v\n want %v", q, len(a), len(b), ga, wa)
		}
	}
}

// loadIndex starts a replica's index, checking what it loaded from
// ("rows" or "snapshot") unless from is empty.
func loadIndex(t *testing.T, ctx context.Context, repo *stores.Repo, mode SnapshotMode, from string) (*Syncer, *Index) {
	t.Helper()
	ix := NewIndex()
	sy := NewSyncer(repo, ix, mode, quiet)
	dbtest.Must(t, sy.Load(ctx), "load")
	if from != "" && sy.from != from {
		t.Fatalf("loaded from %s, want %s", sy.from, from)
	}
	return sy, ix
}

func checkSame(t *testing.T, got, want *Index) {
	t.Helper()
	g, w := dumpIndex(got), dumpIndex(want)
	if !slices.Equal(g, w) {
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("index differs (%d vs %d stores) first at:\n got  %s\n want %s", len(g), len(w), g[i], w[i])
			}
		}
		t.Fatalf("index differs: %d vs %d stores", len(g), len(w))
	}
	sameSearches(t, got, want)
}

func TestSnapshotStartsAReplicaLikeTheRows(t *testing.T) {
	defer func(n int) { partDocBytes = n }(partDocBytes)
	partDocBytes = 64 << 10 // many parts
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		ss := snapshotStores(t, ctx, repo, 1500, 1)

		first, _ := loadIndex(t, ctx, repo, SnapshotAlways, "rows")
		wrote, err := first.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write snapshot")
		if !wrote {
			t.Fatal("no snapshot written")
		}
		var parts int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshot_parts").Scan(&parts), "count parts")
		if parts < 10 {
			t.Fatalf("%d parts, want many", parts)
		}
		if wrote, err := first.WriteSnapshot(ctx); err != nil || wrote {
			t.Fatalf("nothing changed, yet wrote %v (%v)", wrote, err)
		}

		// Changes after the snapshot: a move, new flags, hidden, new, pending.
		ss[0].Latitude, ss[0].Longitude = 47.6, -122.3
		dbtest.Must(t, repo.Update(ctx, ss[0]), "move")
		ss[1].Curbside, ss[1].WorkingHours = !ss[1].Curbside, []schedule.WorkingHour{{WeekDay: time.Tuesday, Start: "07:00", End: "07:30"}}
		dbtest.Must(t, repo.Update(ctx, ss[1]), "flags")
		dbtest.Must(t, repo.SetStatus(ctx, ss[2].ID, stores.Hidden), "hide")
		extra := snapshotStores(t, ctx, repo, 3, 2)
		extra[0].Status = stores.Pending
		dbtest.Must(t, repo.Update(ctx, extra[0]), "pending")

		fresh, want := loadIndex(t, ctx, repo, SnapshotOff, "rows")
		second, got := loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")
		checkSame(t, got, want)
		if second.Version() != fresh.Version() {
			t.Fatalf("versions %d and %d", second.Version(), fresh.Version())
		}

		// The replica started from a snapshot keeps following changes.
		ss[3].Latitude = 44.9
		dbtest.Must(t, repo.Update(ctx, ss[3]), "move again")
		dbtest.Must(t, second.Poll(ctx), "poll")
		_, want = loadIndex(t, ctx, repo, SnapshotOff, "rows")
		checkSame(t, got, want)

		// A newer snapshot replaces the older one entirely.
		wrote, err = second.WriteSnapshot(ctx)
		dbtest.Must(t, err, "rewrite")
		if !wrote {
			t.Fatal("changes since the snapshot, yet none written")
		}
		var snaps, orphans int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshots").Scan(&snaps), "count")
		dbtest.Must(t, d.QueryRow(ctx, `SELECT COUNT(*) FROM search_snapshot_parts
			WHERE snapshot_id NOT IN (SELECT id FROM search_snapshots)`).Scan(&orphans), "orphans")
		if snaps != 1 || orphans != 0 {
			t.Fatalf("%d snapshots and %d orphan parts after a rewrite", snaps, orphans)
		}
		_, got = loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")
		checkSame(t, got, want)
	})
}

func TestSnapshotUnusableFallsBackToRows(t *testing.T) {
	defer func(n int) { partDocBytes = n }(partDocBytes)
	partDocBytes = 64 << 10
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		snapshotStores(t, ctx, repo, 600, 1)
		sy, _ := loadIndex(t, ctx, repo, SnapshotAlways, "")
		_, err := sy.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write snapshot")
		_, want := loadIndex(t, ctx, repo, SnapshotOff, "rows")

		for _, c := range []struct{ name, sql string }{
			{"damaged part", "UPDATE search_snapshot_parts SET data = $1 WHERE part = 1"},
			{"missing part", "DELETE FROM search_snapshot_parts WHERE part = 2"},
			{"newer than the database", "UPDATE search_snapshots SET version = version + 1000"},
			{"another format", "UPDATE search_snapshots SET format = format + 1"},
		} {
			t.Run(c.name, func(t *testing.T) {
				var args []any
				if c.name == "damaged part" {
					args = append(args, []byte("not a snapshot at all"))
				}
				// Each case damages the intact snapshot, saved here and
				// restored after the load.
				var saved [][]byte
				rows, err := d.Query(ctx, "SELECT data FROM search_snapshot_parts ORDER BY part")
				dbtest.Must(t, err, "save parts")
				for rows.Next() {
					var b []byte
					dbtest.Must(t, rows.Scan(&b), "scan")
					saved = append(saved, b)
				}
				rows.Close()
				var id, version, format int64
				dbtest.Must(t, d.QueryRow(ctx, "SELECT id, version, format FROM search_snapshots").Scan(&id, &version, &format), "header")
				if len(saved) < 3 {
					t.Fatalf("%d parts, want several", len(saved))
				}
				_, err = d.Exec(ctx, c.sql, args...)
				dbtest.Must(t, err, "damage")
				_, got := loadIndex(t, ctx, repo, SnapshotAlways, "rows")
				checkSame(t, got, want)
				// Restore the intact snapshot for the next case.
				_, err = d.Exec(ctx, "DELETE FROM search_snapshot_parts")
				dbtest.Must(t, err, "clear")
				for p, b := range saved {
					dbtest.Must(t, snapRepo{d}.putPart(ctx, id, p, b), "restore part")
				}
				_, err = d.Exec(ctx, "UPDATE search_snapshots SET version = $1, format = $2", version, format)
				dbtest.Must(t, err, "restore header")
			})
		}
		_, got := loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")
		checkSame(t, got, want)
	})
}

func TestSnapshotWritePolicy(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		ss := snapshotStores(t, ctx, repo, 50, 1)
		count := func() (n int) {
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshots").Scan(&n), "count")
			return n
		}
		for _, mode := range []SnapshotMode{SnapshotAuto, SnapshotOff} {
			sy, _ := loadIndex(t, ctx, repo, mode, "")
			if wrote, err := sy.WriteSnapshot(ctx); err != nil || wrote || count() != 0 {
				t.Fatalf("mode %d, 50 stores: wrote %v (%v)", mode, wrote, err)
			}
		}
		// Another replica is writing one (an incomplete, recent snapshot).
		_, err := snapRepo{d}.begin(ctx, 1, -1, time.Now())
		dbtest.Must(t, err, "begin")
		sy, _ := loadIndex(t, ctx, repo, SnapshotAlways, "")
		if wrote, err := sy.WriteSnapshot(ctx); err != nil || wrote {
			t.Fatalf("while another writes: wrote %v (%v)", wrote, err)
		}
		if sy.from != "rows" {
			t.Fatalf("an incomplete snapshot was loaded")
		}
		// Abandoned (older than abandonedAfter): a new one is written and
		// the abandoned one deleted.
		_, err = d.Exec(ctx, "UPDATE search_snapshots SET created_unix = created_unix - 3600")
		dbtest.Must(t, err, "age")
		if wrote, err := sy.WriteSnapshot(ctx); err != nil || !wrote || count() != 1 {
			t.Fatalf("after abandonment: wrote %v (%v), %d snapshots", wrote, err, count())
		}
		// Auto keeps a snapshot until SnapshotStale stores changed.
		dbtest.Must(t, repo.Update(ctx, ss[0]), "touch")
		dbtest.Must(t, sy.Poll(ctx), "poll")
		sy.snapshots = SnapshotAuto
		sy.index.mu.Lock()
		for i := range SnapshotMinStores { // make the index look big enough
			sy.index.slots[int64(-1-i)] = 0
		}
		sy.index.mu.Unlock()
		if wrote, err := sy.WriteSnapshot(ctx); err != nil || wrote {
			t.Fatalf("auto, 1 change: wrote %v (%v)", wrote, err)
		}
	})
}

// A damaged part is an error, never a panic or a wild allocation.
func TestDecodePartRejectsDamage(t *testing.T) {
	t.Parallel()
	ix := NewIndex()
	for i := range 300 {
		ix.Put(stores.Entry{ID: int64(i + 1), Latitude: 40 + float64(i)/100, Longitude: -74, TimeZone: "America/New_York",
			Schedule: "", Doc: []byte(fmt.Sprintf(`{"id":%d,"name":"Store %d"}`, i+1, i))})
	}
	recs, names := ix.liveRecords()
	order := make([]hilbertKey, len(recs))
	for i := range order {
		order[i].slot = uint32(i)
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxPartBytes))
	defer dec.Close()
	part := encodePart(enc, nil, recs, order, 0, names)
	p, err := decodePart(dec, part, NewIndex())
	if err != nil || len(p.recs) != 300 || string(p.recs[7].doc) != `{"id":8,"name":"Store 7"` {
		t.Fatalf("intact part: %v, %d records", err, len(p.recs))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		bad := slices.Clone(part)
		switch rng.IntN(3) {
		case 0:
			bad = bad[:rng.IntN(len(bad))]
		case 1:
			bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		case 2:
			bad = append(bad, byte(rng.IntN(256)))
		}
		if p, err := decodePart(dec, bad, NewIndex()); err == nil && len(p.recs) != 300 {
			t.Fatalf("damaged part accepted with %d records", len(p.recs))
		}
	}
}

// A snapshot written while the replica applies changes is consistent: a
// replica started from it ends up equal to one that read every row.
func TestSnapshotWhileChangesApply(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		ss := snapshotStores(t, ctx, repo, 400, 1)
		sy, _ := loadIndex(t, ctx, repo, SnapshotAlways, "")
		done := make(chan error, 1)
		go func() {
			for i := range 30 {
				ss[i].Latitude += 0.5
				if err := repo.Update(ctx, ss[i]); err != nil {
					done <- err
					return
				}
				if err := sy.Poll(ctx); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		for range 5 {
			_, err := sy.WriteSnapshot(ctx)
			dbtest.Must(t, err, "write snapshot")
		}
		dbtest.Must(t, <-done, "changes")
		_, want := loadIndex(t, ctx, repo, SnapshotOff, "rows")
		_, got := loadIndex(t, ctx, repo, SnapshotAlways, "snapshot")
		checkSame(t, got, want)
	})
}

// Replicas deciding at once write one snapshot between them.
func TestSnapshotOneWriterAmongReplicas(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		snapshotStores(t, ctx, repo, 200, 1)
		const replicas = 4
		var syncers [replicas]*Syncer
		for i := range syncers {
			syncers[i], _ = loadIndex(t, ctx, repo, SnapshotAlways, "")
		}
		wrote := make(chan bool, replicas)
		for _, sy := range syncers {
			go func() {
				w, err := sy.WriteSnapshot(ctx)
				if err != nil {
					t.Error(err)
				}
				wrote <- w
			}()
		}
		n := 0
		for range replicas {
			if <-wrote {
				n++
			}
		}
		var snaps int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM search_snapshots").Scan(&snaps), "count")
		if n != 1 || snaps != 1 {
			t.Fatalf("%d replicas wrote, %d snapshots: want 1 and 1", n, snaps)
		}
	})
}

package stores_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// oldDoc is store s's document in a former layout: the same fields in
// another order (a JSON object of sorted keys), with no list part.
func oldDoc(t *testing.T, s *stores.Store) string {
	t.Helper()
	doc, err := stores.RenderDoc(s)
	dbtest.Must(t, err, "render")
	var m map[string]any
	dbtest.Must(t, json.Unmarshal(doc, &m), "decode")
	old, err := json.Marshal(m)
	dbtest.Must(t, err, "encode")
	if stores.ListEnd(old) != len(old) {
		t.Fatalf("the former layout has a list part: %s", old)
	}
	return string(old)
}

type rowState struct {
	doc       string
	format    int
	version   int64
	updatedAt time.Time
}

func readRow(t *testing.T, ctx context.Context, repo *stores.Repo, id int64) rowState {
	t.Helper()
	var r rowState
	dbtest.Must(t, repo.DB().QueryRow(ctx, "SELECT search_doc, doc_format, version, updated_at FROM stores WHERE id = $1", id).
		Scan(&r.doc, &r.format, &r.version, &r.updatedAt), "read store %d", id)
	return r
}

// Rows of a former document format, whatever their status, are re-rendered
// to exactly RenderDoc's output through the change feed: a replica's index
// then holds the new document and lists its list part only. A row whose
// document is already current only has its format set; a second run writes
// nothing.
func TestRerenderDocs(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		mk := func(name string, st stores.Status) *stores.Store {
			return &stores.Store{StoreID: "st-" + name, Name: name, Latitude: 40.71, Longitude: -74.0, TimeZone: "America/New_York",
				Status: st, AdultOnly: name == "a", Website: "https://" + name + ".example", WorkingHours: []schedule.WorkingHour{{WeekDay: time.Monday, Start: "09:00", End: "17:00"}}}
		}
		a, b, c, d := mk("a", stores.Published), mk("b", stores.Pending), mk("c", stores.Hidden), mk("d", stores.Published)
		dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{a, b, c, d}), "save")
		bulk := []*stores.Store{mk("e", stores.Published)}
		dbtest.Must(t, repo.BulkInsert(ctx, bulk), "bulk insert")
		if n, err := repo.StaleDocs(ctx); err != nil || n != 0 {
			t.Fatalf("stale after writes: %d, %v", n, err)
		}
		// The upgrade: a, b and c hold a former layout, d the current one,
		// all of format 0 (written before the number existed).
		for _, s := range []*stores.Store{a, b, c} {
			_, err := repo.DB().Exec(ctx, "UPDATE stores SET search_doc = $1, doc_format = 0 WHERE id = $2", oldDoc(t, s), s.ID)
			dbtest.Must(t, err, "age store %d", s.ID)
		}
		_, err := repo.DB().Exec(ctx, "UPDATE stores SET doc_format = 0 WHERE id = $1", d.ID)
		dbtest.Must(t, err, "age store d")
		if n, err := repo.StaleDocs(ctx); err != nil || n != 4 {
			t.Fatalf("stale: %d, %v", n, err)
		}
		before := map[int64]rowState{}
		for _, s := range []*stores.Store{a, b, c, d} {
			before[s.ID] = readRow(t, ctx, repo, s.ID)
		}
		// A replica started on the upgraded database lists a whole.
		ix := search.NewIndex()
		sy := search.NewSyncer(repo, ix, search.SnapshotAuto, slog.New(slog.NewTextHandler(io.Discard, nil)))
		dbtest.Must(t, sy.Load(ctx), "load")
		q := search.Query{Latitude: 40.71, Longitude: -74.0, RadiusMiles: 30}
		dbtest.Must(t, q.Validate(), "query")
		if list := ix.AppendJSON(nil, q); !bytes.Contains(list, []byte(`"adult_only":true`)) {
			t.Fatalf("the former document is not listed whole: %s", list)
		}

		var calls []int
		done, changed, err := repo.RerenderDocs(ctx, func(done, _ int) { calls = append(calls, done) })
		dbtest.Must(t, err, "re-render")
		if done != 4 || changed != 3 || fmt.Sprint(calls) != "[4]" {
			t.Fatalf("re-rendered %d, changed %d, progress %v; want 4, 3, [4]", done, changed, calls)
		}
		for _, s := range []*stores.Store{a, b, c, d} {
			cur, err := repo.Get(ctx, s.ID)
			dbtest.Must(t, err, "get")
			want, err := stores.RenderDoc(cur)
			dbtest.Must(t, err, "render")
			got, old := readRow(t, ctx, repo, s.ID), before[s.ID]
			if got.doc != string(want) || got.format != stores.DocFormat {
				t.Errorf("store %s: format %d, document\n%s\nwant\n%s", s.Name, got.format, got.doc, want)
			}
			if moved := got.version > old.version; moved != (s != d) {
				t.Errorf("store %s: version %d -> %d", s.Name, old.version, got.version)
			}
			if !got.updatedAt.Equal(old.updatedAt) {
				t.Errorf("store %s: updated_at moved %v -> %v", s.Name, old.updatedAt, got.updatedAt)
			}
		}
		// The feed carries them: the index holds the new document, and the
		// list answer its list part.
		dbtest.Must(t, sy.Poll(ctx), "poll")
		sd, ok := ix.Get(a.ID)
		want, _ := stores.RenderDoc(a)
		if !ok || !bytes.Equal(sd.Doc, want) {
			t.Fatalf("index holds\n%s\nwant\n%s", sd.Doc, want)
		}
		list := ix.AppendJSON(nil, q)
		if bytes.Contains(list, []byte(`"adult_only"`)) || !bytes.Contains(list, want[:stores.ListEnd(want)]) {
			t.Fatalf("list answer after the re-render: %s", list)
		}

		v, err := repo.Version(ctx)
		dbtest.Must(t, err, "version")
		if done, changed, err := repo.RerenderDocs(ctx, nil); err != nil || done != 0 || changed != 0 {
			t.Fatalf("second run: %d, %d, %v", done, changed, err)
		}
		if v2, _ := repo.Version(ctx); v2 != v {
			t.Fatalf("the second run moved the search version %d -> %d", v, v2)
		}
	})
}

// A run stopped between batches commits the batches done, and the next
// run re-renders the rest.
func TestRerenderDocsResumes(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		const n = 700 // three batches
		ss := make([]*stores.Store, n)
		for i := range ss {
			ss[i] = &stores.Store{StoreID: fmt.Sprintf("st-%d", i), Name: fmt.Sprintf("s%d", i), Latitude: 40 + float64(i)/1000,
				Longitude: -74, TimeZone: "America/New_York"}
		}
		dbtest.Must(t, repo.BulkInsert(ctx, ss), "bulk insert")
		_, err := repo.DB().Exec(ctx, `UPDATE stores SET search_doc = '{"id":0}', doc_format = 0`)
		dbtest.Must(t, err, "age stores")

		stop, cancel := context.WithCancel(ctx)
		done, _, err := repo.RerenderDocs(stop, func(int, int) { cancel() })
		if !errors.Is(err, context.Canceled) || done == 0 || done >= n {
			t.Fatalf("stopped run: %d re-rendered, %v", done, err)
		}
		if left, err := repo.StaleDocs(ctx); err != nil || left != n-done {
			t.Fatalf("left %d after %d, %v", left, done, err)
		}
		rest, changed, err := repo.RerenderDocs(ctx, nil)
		dbtest.Must(t, err, "resume")
		if done+rest != n || changed != rest {
			t.Fatalf("resumed: %d re-rendered (%d changed) after %d", rest, changed, done)
		}
		var wrong int
		dbtest.Must(t, repo.DB().QueryRow(ctx, `SELECT COUNT(*) FROM stores WHERE search_doc = '{"id":0}' OR doc_format <> $1`, stores.DocFormat).Scan(&wrong), "count")
		if wrong != 0 {
			t.Fatalf("%d stores not re-rendered", wrong)
		}
	})
}

// Two replicas running at once take turns: together they re-render every
// store once.
func TestRerenderDocsTwoReplicas(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, db2 *db.DB) {
		ctx := t.Context()
		a, b := stores.NewRepo(da), stores.NewRepo(db2)
		const n = 1000
		ss := make([]*stores.Store, n)
		for i := range ss {
			ss[i] = &stores.Store{StoreID: fmt.Sprintf("st-%d", i), Name: fmt.Sprintf("s%d", i), Latitude: 40, Longitude: -74, TimeZone: "America/New_York"}
		}
		dbtest.Must(t, a.BulkInsert(ctx, ss), "bulk insert")
		_, err := da.Exec(ctx, `UPDATE stores SET search_doc = '{"id":0}', doc_format = 0`)
		dbtest.Must(t, err, "age stores")
		type result struct{ done, changed int }
		res := make(chan result, 2)
		errs := make(chan error, 2)
		for _, r := range []*stores.Repo{a, b} {
			go func() {
				done, changed, err := r.RerenderDocs(ctx, nil)
				res <- result{done, changed}
				errs <- err
			}()
		}
		r1, r2 := <-res, <-res
		dbtest.Must(t, <-errs, "replica")
		dbtest.Must(t, <-errs, "replica")
		if r1.done+r2.done != n || r1.changed+r2.changed != n {
			t.Fatalf("replicas re-rendered %+v and %+v, want %d in all", r1, r2, n)
		}
	})
}

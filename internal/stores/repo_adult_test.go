package stores_test

import (
	"context"
	"encoding/json"
	"testing"

	"locator/internal/db/dbtest"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// A store's kind (adult_only, migration 0019) survives a write and a read
// on both engines, by the one write path and by the bulk insert, and
// reaches the document.
func TestRepoAdultOnly(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		s := sampleStore("Adults only", 42.36, -71.06)
		s.AdultOnly = true
		open := sampleStore("Open to all", 42.37, -71.06)
		open.StoreID = "st-open"
		b := sampleStore("Adults only bulk", 42.38, -71.06)
		b.StoreID, b.AdultOnly = "st-bulk", true
		dbtest.Must(t, repo.Create(ctx, s), "create")
		dbtest.Must(t, repo.Create(ctx, open), "create")
		dbtest.Must(t, repo.BulkInsert(ctx, []*stores.Store{b}), "bulk insert")
		for id, want := range map[int64]bool{s.ID: true, open.ID: false, b.ID: true} {
			got, err := repo.Get(ctx, id)
			dbtest.Must(t, err, "get")
			if got.AdultOnly != want {
				t.Errorf("store %d: adult_only %v, want %v", id, got.AdultOnly, want)
			}
			doc, err := repo.PublishedDoc(ctx, id)
			dbtest.Must(t, err, "doc")
			var api struct {
				AdultOnly *bool `json:"adult_only"`
			}
			dbtest.Must(t, json.Unmarshal(doc, &api), "parse %s", doc)
			if api.AdultOnly == nil || *api.AdultOnly != want {
				t.Errorf("store %d document: %s", id, doc)
			}
		}
		s.AdultOnly = false
		dbtest.Must(t, repo.Update(ctx, s), "update")
		if got, err := repo.Get(ctx, s.ID); err != nil || got.AdultOnly {
			t.Errorf("after update: %v %v", got.AdultOnly, err)
		}
	})
}

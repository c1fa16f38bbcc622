package stores_test

import (
	"context"
	"strconv"
	"testing"

	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// A feed's store_code is a store_id first, else a store's id; a store_id
// that looks like another store's id still names its own store.
func TestIDByCode(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		a := storestest.CloudNine()
		a.StoreID = "sto_01nyc"
		storestest.Created(t, repo.DB(), a)
		b := storestest.CloudNine()
		storestest.Created(t, repo.DB(), b)
		c := storestest.CloudNine()
		c.StoreID = strconv.FormatInt(a.ID, 10) // store_id "1": a's id
		storestest.Created(t, repo.DB(), c)
		want := map[string]int64{
			"sto_01nyc": a.ID, strconv.FormatInt(b.ID, 10): b.ID, strconv.FormatInt(a.ID, 10): c.ID,
			"sto_99": 0, "": 0, "0": 0, "-1": 0, "0" + strconv.FormatInt(b.ID, 10): 0, "99999": 0,
		}
		var codes []string
		for code, id := range want {
			if got, err := repo.IDByCode(ctx, code); err != nil || got != id {
				t.Errorf("IDByCode(%q) = %d, %v; want %d", code, got, err, id)
			}
			codes = append(codes, code)
		}
		// All at once, as a feed's import looks them up: the same answers.
		ids, err := repo.IDsByCodes(ctx, codes)
		if err != nil || len(ids) != len(codes) {
			t.Fatalf("IDsByCodes: %d ids, %v", len(ids), err)
		}
		for i, code := range codes {
			if ids[i] != want[code] {
				t.Errorf("IDsByCodes: %q is %d, want %d", code, ids[i], want[code])
			}
		}
	})
}

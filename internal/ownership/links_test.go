package ownership_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/identity/identitytest"
	"locator/internal/ownership"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The links between business accounts and stores, on both engines.
func TestLinks(t *testing.T) {
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		var s1, s2 []int64
		for range 2 {
			s := storestest.CloudNine()
			must(repo.Create(ctx, s))
			s1 = append(s1, s.ID)
		}
		s2 = []int64{s1[1]}
		account := func(email string) int64 { return identitytest.Business(t, d, email, time.Now().UTC()) }
		a, b, c := account("a@example.com"), account("b@example.com"), account("c@example.com")
		t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
		link := func(acc, store int64, at time.Time, want bool) {
			t.Helper()
			var made bool
			must(d.InTx(ctx, func(tx *db.Tx) error {
				var err error
				made, err = ownership.Link(ctx, tx, acc, store, at, "test")
				return err
			}))
			if made != want {
				t.Errorf("link %d to %d: made %v, want %v", acc, store, made, want)
			}
		}
		link(a, s1[0], t0, true)
		link(a, s1[1], t0, true)
		link(b, s2[0], t0.Add(time.Hour), true)
		link(a, s1[0], t0.Add(2*time.Hour), false) // again: no change, the first date stays

		if ok, err := ownership.Owns(ctx, d, a, s1[0]); !ok || err != nil {
			t.Errorf("a owns s1[0]: %v, %v", ok, err)
		}
		if ok, err := ownership.Owns(ctx, d, b, s1[0]); ok || err != nil {
			t.Errorf("b owns s1[0]: %v, %v", ok, err)
		}
		if ids, err := ownership.StoreIDs(ctx, d, a, 500); !slices.Equal(ids, s1) || err != nil {
			t.Errorf("stores of a: %v, %v", ids, err)
		}
		if ids, err := ownership.StoreIDs(ctx, d, a, 1); !slices.Equal(ids, s1[:1]) || err != nil {
			t.Errorf("first store of a: %v, %v", ids, err)
		}
		if ids, err := ownership.StoreIDs(ctx, d, c, 500); len(ids) != 0 || err != nil {
			t.Errorf("stores of c: %v, %v", ids, err)
		}
		if id, err := ownership.OwnerByEmail(ctx, d, s2[0], "b@example.com"); id != b || err != nil {
			t.Errorf("owner b of s2: %d, %v", id, err)
		}
		if id, err := ownership.OwnerByEmail(ctx, d, s1[0], "b@example.com"); id != 0 || err != nil {
			t.Errorf("owner b of s1[0]: %d, %v", id, err)
		}
		if e, err := ownership.LatestEmail(ctx, d, s2[0]); e != "b@example.com" || err != nil {
			t.Errorf("latest owner of s2: %q, %v", e, err)
		}
		if e, err := ownership.LatestEmail(ctx, d, s1[0]); e != "a@example.com" || err != nil {
			t.Errorf("latest owner of s1[0]: %q, %v", e, err)
		}
		pairs, err := ownership.Pairs(ctx, d, []int64{c, b, a})
		want := []ownership.Pair{{a, s1[0]}, {a, s1[1]}, {b, s2[0]}}
		if !slices.Equal(pairs, want) || err != nil {
			t.Errorf("pairs: %v, %v; want %v", pairs, err, want)
		}
		if ids, err := ownership.WithoutStores(ctx, d, []int64{c, b, a}); !slices.Equal(ids, []int64{c}) || err != nil {
			t.Errorf("without stores: %v, %v", ids, err)
		}
		owners, err := ownership.List(ctx, d, s2[0])
		if err != nil || len(owners) != 2 || owners[0].BusinessID != a || owners[1].BusinessID != b || !owners[0].Since.Equal(t0) {
			t.Errorf("owners of s2: %+v, %v", owners, err)
		}
	})
}

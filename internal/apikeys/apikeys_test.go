package apikeys_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/apikeys"
	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity/identitytest"
	"locator/internal/ownership"
	"locator/internal/partners"
	"locator/internal/secret"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

func code(err error) apperr.Code { return apperr.CodeOf(err) }

// A key is shown once and kept only as its SHA-256; it authenticates until
// revoked, and the list tells keys apart without showing them.
func TestKeysAreHashedAndRevocable(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
		ks := apikeys.New(d, clock.Fixed(at), 0)
		a := identitytest.Business(t, d, "a@example.com", time.Now().UTC())
		k, plain, err := ks.Create(ctx, a, "  Front till  ")
		dbtest.Must(t, err, "create")
		if !strings.HasPrefix(plain, apikeys.KeyPrefix) || len(plain) < 40 || k.Name != "Front till" || !strings.HasPrefix(plain, k.Prefix) || len(k.Prefix) >= len(plain)/3 {
			t.Fatalf("created %+v, %q", k, plain)
		}
		stored := dbtest.Texts(t, d, "|", "SELECT key_hash, prefix, name FROM api_keys WHERE id = $1", k.ID)
		if len(stored) != 1 || stored[0] != secret.HashToken(plain)+"|"+k.Prefix+"|Front till" {
			t.Fatalf("stored %q", stored)
		}
		for _, row := range dbtest.Texts(t, d, "|", "SELECT id, business_id, name, prefix, key_hash, slot, created_at FROM api_keys") {
			if strings.Contains(row, plain[len(k.Prefix):]) {
				t.Fatalf("the key itself is stored: %s", row)
			}
		}
		got, err := ks.Authenticate(ctx, "Bearer "+plain)
		dbtest.Must(t, err, "authenticate")
		if got.ID != k.ID || got.BusinessID != a || got.LastUsedAt == nil || !got.LastUsedAt.Equal(at) {
			t.Fatalf("authenticated %+v", got)
		}
		for _, h := range []string{"", "Bearer", "Basic " + plain, "Bearer " + plain + "x", "Bearer " + plain[:len(plain)-1], "Bearer " + strings.ToUpper(plain), plain} {
			if _, err := ks.Authenticate(ctx, h); code(err) != apperr.Unauthorized {
				t.Errorf("Authorization %q: %v, want 401", h, err)
			}
		}
		b := identitytest.Business(t, d, "b@example.com", time.Now().UTC())
		if _, err := ks.Revoke(ctx, b, k.ID); code(err) != apperr.NotFound {
			t.Errorf("another account revokes the key: %v, want 404", err)
		}
		if _, err := ks.Authenticate(ctx, "Bearer "+plain); err != nil {
			t.Errorf("the key stopped working after another account's revoke: %v", err)
		}
		r, err := ks.Revoke(ctx, a, k.ID)
		dbtest.Must(t, err, "revoke")
		if r.RevokedAt == nil || !r.RevokedAt.Equal(at) {
			t.Errorf("revoked %+v", r)
		}
		if _, err := ks.Authenticate(ctx, "Bearer "+plain); code(err) != apperr.Unauthorized {
			t.Errorf("revoked key: %v, want 401", err)
		}
		list, err := ks.List(ctx, a)
		dbtest.Must(t, err, "list")
		if len(list) != 1 || list[0].RevokedAt == nil || list[0].LastUsedAt == nil {
			t.Errorf("list %+v", list)
		}
		if list, _ := ks.List(ctx, b); len(list) != 0 {
			t.Errorf("b's list %+v", list)
		}
		for _, name := range []string{"", "   ", strings.Repeat("é", apikeys.MaxName+1), "a\x00b"} {
			if _, _, err := ks.Create(ctx, a, name); code(err) != apperr.Invalid {
				t.Errorf("name %q: %v, want 400", name, err)
			}
		}
	})
}

// At most MaxActive keys are active per account, even when requests race;
// a revoked key frees its slot.
func TestActiveKeysAreBounded(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		ks := apikeys.New(d, nil, 0)
		a := identitytest.Business(t, d, "a@example.com", time.Now().UTC())
		var wg sync.WaitGroup
		var mu sync.Mutex
		made, refused := 0, 0
		for range apikeys.MaxActive + 4 {
			wg.Go(func() {
				_, _, err := ks.Create(ctx, a, "till")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					made++
				case code(err) == apperr.Conflict:
					refused++
				default:
					t.Errorf("create: %v", err)
				}
			})
		}
		wg.Wait()
		active := dbtest.Texts(t, d, "", "SELECT COUNT(*) FROM api_keys WHERE business_id = $1 AND revoked_at IS NULL", a)
		if made != apikeys.MaxActive || refused != 4 || active[0] != "10" {
			t.Fatalf("%d made, %d refused, %s active; want %d made and active, 4 refused", made, refused, active[0], apikeys.MaxActive)
		}
		if _, _, err := ks.Create(ctx, a, "one more"); code(err) != apperr.Conflict {
			t.Fatalf("key %d: %v, want 409", apikeys.MaxActive+1, err)
		}
		list, err := ks.List(ctx, a)
		dbtest.Must(t, err, "list")
		_, err = ks.Revoke(ctx, a, list[3].ID)
		dbtest.Must(t, err, "revoke")
		if _, _, err := ks.Create(ctx, a, "after a revoke"); err != nil {
			t.Fatalf("create after a revoke: %v", err)
		}
		// Another account has its own bound.
		if _, _, err := ks.Create(ctx, identitytest.Business(t, d, "b@example.com", time.Now().UTC()), "till"); err != nil {
			t.Fatalf("another account: %v", err)
		}
	})
}

// The rate is per key and kept in the database: two services (two
// replicas) on one database share it, and another key has its own.
func TestRateIsPerKeyAcrossReplicas(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		r1, r2 := apikeys.New(d, nil, 3), apikeys.New(d, nil, 3)
		a := identitytest.Business(t, d, "a@example.com", time.Now().UTC())
		_, k1, err := r1.Create(ctx, a, "one")
		dbtest.Must(t, err, "create")
		_, k2, err := r1.Create(ctx, a, "two")
		dbtest.Must(t, err, "create")
		for i, r := range []*apikeys.Service{r1, r2, r1} {
			if _, err := r.Authenticate(ctx, "Bearer "+k1); err != nil {
				t.Fatalf("call %d: %v", i+1, err)
			}
		}
		err = func() error { _, err := r2.Authenticate(ctx, "Bearer "+k1); return err }()
		if e, ok := apperr.As(err); !ok || e.Code != apperr.TooMany || e.RetryAfter <= 0 {
			t.Fatalf("4th call on the other replica: %v, want 429 with Retry-After", err)
		}
		if _, err := r2.Authenticate(ctx, "Bearer "+k2); err != nil {
			t.Fatalf("the other key: %v", err)
		}
	})
}

// A key reaches exactly the stores its account owns, now.
func TestKeyScopeIsTheAccountsStores(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		ks := apikeys.New(d, nil, 0)
		a, b := identitytest.Business(t, d, "a@example.com", time.Now().UTC()), identitytest.Business(t, d, "b@example.com", time.Now().UTC())
		var ids []int64
		for range 2 {
			s := storestest.CloudNine()
			dbtest.Must(t, repo.Create(ctx, s), "store")
			ids = append(ids, s.ID)
		}
		dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := ownership.Link(ctx, tx, a, ids[0], time.Now().UTC(), "test"); err != nil {
				return err
			}
			_, err := ownership.Link(ctx, tx, b, ids[1], time.Now().UTC(), "test")
			return err
		}), "link")
		_, plain, err := ks.Create(ctx, a, "till")
		dbtest.Must(t, err, "create")
		k, err := ks.Authenticate(ctx, "Bearer "+plain)
		dbtest.Must(t, err, "authenticate")
		owns := ks.Owns(k)
		for _, c := range []struct {
			store int64
			want  bool
		}{{ids[0], true}, {ids[1], false}, {ids[1] + 100, false}} {
			if got, err := owns(ctx, c.store); got != c.want || err != nil {
				t.Errorf("key of a owns store %d: %v, %v; want %v", c.store, got, err, c.want)
			}
		}
	})
}

// A partner's key and a point-of-sale key live in one table but open only
// the calls of their own kind; each owner has its own slots and sees,
// revokes only its own keys.
func TestPartnerKeysAreApart(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		ks := apikeys.New(d, clock.Fixed(time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)), 0)
		a := identitytest.Business(t, d, "a@example.com", time.Now().UTC())
		p, err := partners.New(d, nil).Create(ctx, partners.Input{Name: "Acme", Kind: "brand"})
		dbtest.Must(t, err, "partner")
		pos, posPlain, err := ks.Create(ctx, a, "Till")
		dbtest.Must(t, err, "pos key")
		pk, plain, err := ks.CreateFor(ctx, apikeys.PartnerOwner(p.ID), "Finder")
		dbtest.Must(t, err, "partner key")
		if !strings.HasPrefix(plain, apikeys.PartnerKeyPrefix) || pk.PartnerID != p.ID || pk.BusinessID != 0 {
			t.Fatalf("partner key %+v %q", pk, plain)
		}
		if got, err := ks.AuthenticatePartner(ctx, "Bearer "+plain); err != nil || got.ID != pk.ID || got.PartnerID != p.ID {
			t.Fatalf("partner key authenticated as %+v, %v", got, err)
		}
		if _, err := ks.Authenticate(ctx, "Bearer "+plain); code(err) != apperr.Unauthorized {
			t.Fatalf("a partner key opened the point-of-sale API: %v", err)
		}
		if _, err := ks.AuthenticatePartner(ctx, "Bearer "+posPlain); code(err) != apperr.Unauthorized {
			t.Fatalf("a point-of-sale key opened the partner API: %v", err)
		}
		if list, err := ks.ListOf(ctx, apikeys.PartnerOwner(p.ID)); err != nil || len(list) != 1 || list[0].ID != pk.ID {
			t.Fatalf("partner's keys %+v, %v", list, err)
		}
		if _, err := ks.RevokeOf(ctx, apikeys.PartnerOwner(p.ID), pos.ID); code(err) != apperr.NotFound {
			t.Fatalf("a partner revoked a business key: %v", err)
		}
		for i := 1; i < apikeys.MaxActive; i++ {
			_, _, err := ks.CreateFor(ctx, apikeys.PartnerOwner(p.ID), "k")
			dbtest.Must(t, err, "key %d", i)
		}
		if _, _, err := ks.CreateFor(ctx, apikeys.PartnerOwner(p.ID), "k"); code(err) != apperr.Conflict {
			t.Fatalf("the 11th partner key: %v", err)
		}
		if _, _, err := ks.Create(ctx, a, "Second till"); err != nil {
			t.Fatalf("the business account's slots are its own: %v", err)
		}
		_, err = ks.RevokeOf(ctx, apikeys.PartnerOwner(p.ID), pk.ID)
		dbtest.Must(t, err, "revoke")
		if _, err := ks.AuthenticatePartner(ctx, "Bearer "+plain); code(err) != apperr.Unauthorized {
			t.Fatalf("a revoked partner key: %v", err)
		}
	})
}

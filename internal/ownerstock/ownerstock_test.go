package ownerstock_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/catalog/catalogtest"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity/identitytest"
	"locator/internal/inventory"
	"locator/internal/ownership"
	"locator/internal/ownerstock"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

type setup struct {
	svc    *ownerstock.Service
	stock  *inventory.Repo
	ny, tx *stores.Store // owned by a
	theirs *stores.Store // owned by b
	a, b   int64
	ctx    context.Context
	d      *db.DB
}

// eachFixture runs fn on a fresh fixture on each engine.
func eachFixture(t *testing.T, fn func(t *testing.T, ctx context.Context, s *setup)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := fixture(t, d)
		fn(t, s.ctx, s)
	})
}

// fixture: the catalogue fixture, a store in New York City and one in
// Texas owned by account a, one owned by account b.
func fixture(t *testing.T, d *db.DB) *setup {
	t.Helper()
	ctx := context.Background()
	mk := func(name, storeID, state, city, zip string) *stores.Store {
		s := storestest.CloudNine()
		s.Name, s.StoreID, s.State, s.City, s.PostalCode, s.CountryCode = name, storeID, state, city, zip, "US"
		storestest.Created(t, d, s)
		return s
	}
	s := &setup{ctx: ctx, d: d}
	s.ny = mk("Midtown Vapes", "sto_nyc", "NY", "New York", "10001")
	s.tx = mk("Austin Vapes", "sto_atx", "TX", "Austin", "78701")
	s.theirs = mk("Their Vapes", "sto_theirs", "TX", "Austin", "78702")
	s.a = identitytest.Business(t, d, "a@example.com", time.Now().UTC())
	s.b = identitytest.Business(t, d, "b@example.com", time.Now().UTC())
	dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
		for _, l := range [][2]int64{{s.a, s.ny.ID}, {s.a, s.tx.ID}, {s.b, s.theirs.ID}} {
			if _, err := ownership.Link(ctx, tx, l[0], l[1], time.Now().UTC(), "test"); err != nil {
				return err
			}
		}
		return nil
	}), "links")
	cat := catalogtest.Imported(t, d)
	sr := stores.NewRepo(d)
	s.stock = inventory.NewRepo(sr, cat)
	s.svc = ownerstock.New(sr, cat, s.stock, clock.Fixed(time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)))
	return s
}

func lines(items []ownerstock.Item) string {
	var b strings.Builder
	for _, it := range items {
		q := "-"
		if it.Quantity != nil {
			q = itoa(*it.Quantity)
		}
		law := "lawful"
		if !it.Lawful {
			law = "forbidden " + it.Rule.ID
		}
		b.WriteString(it.Product.ProductID + " " + string(it.Availability) + " " + q + " " + it.Price + " " + law + "\n")
	}
	return b.String()
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

func i64(n int64) *int64 { return &n }

// An owner marks products carried, changes and removes them; the list
// gives the law's verdict in the store's place: a fruit disposable in New
// York is forbidden (the row kept), the same in Texas is not.
func TestOwnerMarksStockWithTheLaw(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, ctx context.Context, s *setup) {
		it, err := s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "in_stock", Quantity: i64(12), Price: "21.99 USD"})
		dbtest.Must(t, err, "set")
		if it.Lawful || it.Rule == nil || it.Rule.ID != "ny-flavoured-vapes" || it.Rule.Citation == "" {
			t.Errorf("a fruit disposable in New York: lawful %v, rule %+v", it.Lawful, it.Rule)
		}
		_, err = s.svc.Set(ctx, s.a, s.ny.ID, "kp-classic-5", ownerstock.Input{Availability: "limited_availability"})
		dbtest.Must(t, err, "set")
		_, err = s.svc.Set(ctx, s.a, s.tx.ID, "nx-mango-5", ownerstock.Input{Availability: "on_display_to_order", Price: "19 USD"})
		dbtest.Must(t, err, "set in Texas")
		items, err := s.svc.List(ctx, s.a, s.ny.ID)
		dbtest.Must(t, err, "list")
		if got, want := lines(items), "kp-classic-5 limited_availability -  lawful\nnx-mango-5 in_stock 12 21.99 USD forbidden ny-flavoured-vapes\n"; got != want {
			t.Errorf("New York store:\n%s\nwant:\n%s", got, want)
		}
		items, err = s.svc.List(ctx, s.a, s.tx.ID)
		dbtest.Must(t, err, "list")
		if got, want := lines(items), "nx-mango-5 on_display_to_order - 19.00 USD lawful\n"; got != want {
			t.Errorf("Texas store:\n%s\nwant:\n%s", got, want)
		}
		// Out of stock, then no longer carried; removing twice is one removal.
		_, err = s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "out_of_stock", Quantity: i64(0)})
		dbtest.Must(t, err, "out of stock")
		dbtest.Must(t, s.svc.Remove(ctx, s.a, s.ny.ID, "kp-classic-5"), "remove")
		dbtest.Must(t, s.svc.Remove(ctx, s.a, s.ny.ID, "kp-classic-5"), "remove again")
		items, err = s.svc.List(ctx, s.a, s.ny.ID)
		dbtest.Must(t, err, "list")
		if got, want := lines(items), "nx-mango-5 out_of_stock 0  forbidden ny-flavoured-vapes\n"; got != want {
			t.Errorf("after the changes:\n%s\nwant:\n%s", got, want)
		}
		// Bad values write nothing.
		for _, in := range []ownerstock.Input{{Availability: "sold_out"}, {Availability: "in_stock", Quantity: i64(-1)}, {Availability: "in_stock", Price: "12 dollars"}, {}} {
			if _, err := s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", in); apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("%+v: %v, want 400", in, err)
			}
		}
		if _, err := s.svc.Set(ctx, s.a, s.ny.ID, "no-such-product", ownerstock.Input{Availability: "in_stock"}); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("unknown product: %v", err)
		}
		if got := lines(must(s.svc.List(ctx, s.a, s.ny.ID))); got != "nx-mango-5 out_of_stock 0  forbidden ny-flavoured-vapes\n" {
			t.Errorf("a refused change wrote: %s", got)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Only an owner of the store reads or changes its stock: another account
// gets "not found" and changes nothing.
func TestOnlyOwnersChangeStock(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, ctx context.Context, s *setup) {
		_, err := s.svc.Set(ctx, s.b, s.theirs.ID, "kp-classic-5", ownerstock.Input{Availability: "in_stock"})
		dbtest.Must(t, err, "b sets its own")
		if _, err := s.svc.Set(ctx, s.a, s.theirs.ID, "kp-classic-5", ownerstock.Input{Availability: "out_of_stock"}); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a sets b's store: %v", err)
		}
		if err := s.svc.Remove(ctx, s.a, s.theirs.ID, "kp-classic-5"); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a removes from b's store: %v", err)
		}
		if _, err := s.svc.List(ctx, s.a, s.theirs.ID); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a lists b's store: %v", err)
		}
		if _, err := s.svc.List(ctx, s.a, 999999); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a lists no store: %v", err)
		}
		if got := lines(must(s.svc.List(ctx, s.b, s.theirs.ID))); got != "kp-classic-5 in_stock -  lawful\n" {
			t.Errorf("b's store: %s", got)
		}
	})
}

// An owner of several stores uploads a feed: rows for the account's
// stores are written, a row for another account's store is refused with
// its line, and a full feed never removes that store's rows.
func TestUploadIsScopedToTheAccountsStores(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, ctx context.Context, s *setup) {
		_, err := s.svc.Set(ctx, s.b, s.theirs.ID, "kp-classic-5", ownerstock.Input{Availability: "in_stock"})
		dbtest.Must(t, err, "b's stock")
		_, err = s.svc.Set(ctx, s.a, s.tx.ID, "pouch-cool-6", ownerstock.Input{Availability: "in_stock"})
		dbtest.Must(t, err, "a's stock")
		feed := "store_code\tid\tavailability\tquantity\tprice\n" +
			"sto_nyc\tkp-classic-5\tin_stock\t3\t9.49 USD\n" +
			"sto_atx\tnx-mango-5\tlimited_availability\t1\t\n" +
			"sto_theirs\tkp-classic-5\tout_of_stock\t0\t\n" +
			"sto_atx\tht-amber\tin_stock\t-2\t\n"
		rep, err := s.svc.Upload(ctx, s.a, strings.NewReader(feed), "feed.tsv", true)
		dbtest.Must(t, err, "upload")
		if rep.Rows != 2 || rep.Failed != 2 || rep.Stores != 2 || rep.Removed != 1 {
			t.Errorf("report %+v", rep)
		}
		if len(rep.Errors) != 2 || rep.Errors[0].Line != 4 || !strings.Contains(rep.Errors[0].Message, `"sto_theirs" is not one of your stores`) ||
			rep.Errors[1].Line != 5 || !strings.Contains(rep.Errors[1].Message, "quantity -2 is negative") {
			t.Errorf("errors %+v", rep.Errors)
		}
		if got := lines(must(s.svc.List(ctx, s.b, s.theirs.ID))); got != "kp-classic-5 in_stock -  lawful\n" {
			t.Errorf("b's store changed: %s", got)
		}
		// The full feed replaced the Texas store's rows: pouch-cool-6 gone.
		if got, want := lines(must(s.svc.List(ctx, s.a, s.tx.ID))), "nx-mango-5 limited_availability 1  lawful\n"; got != want {
			t.Errorf("Texas store:\n%s\nwant:\n%s", got, want)
		}
		if _, err := s.svc.Upload(ctx, s.a, strings.NewReader("store,item\nx,y\n"), "bad.csv", false); apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("bad header: %v", err)
		}
		line := "sto_nyc,kp-classic-5,in_stock," + strings.Repeat("x", 200) + "\n"
		big := strings.NewReader("store_code,id,availability,note\n" + strings.Repeat(line, int(ownerstock.UploadLimits.Bytes)/len(line)+10))
		if _, err := s.svc.Upload(ctx, s.a, big, "big.csv", false); apperr.CodeOf(err) != apperr.TooLarge {
			t.Errorf("over the size bound: %v", err)
		}
	})
}

// entries reads the audit log's entries of action, oldest first, as
// "actor store details".
func entries(t *testing.T, s *setup, action string) []string {
	t.Helper()
	rows, err := s.d.Query(s.ctx, "SELECT actor, COALESCE(store_id, 0), details FROM audit_log WHERE action = $1 ORDER BY id", action)
	out, err := db.Collect(rows, err, "read audit", func(r db.Scanner) (*string, error) {
		var actor, details string
		var store int64
		err := r.Scan(&actor, &store, &details)
		line := actor + " " + itoa(store) + " " + details
		return &line, err
	})
	dbtest.Must(t, err, "audit log")
	return out
}

// Every stock change an owner makes is in the audit log, in its own
// transaction: who (the account), which store and product, the row
// before and after; a removal of nothing and a refused change write no
// entry; an upload writes one entry with its counts.
func TestOwnersStockChangesAreAudited(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := fixture(t, d)
		ctx := s.ctx
		_, err := s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "in_stock", Quantity: i64(12), Price: "21.99 USD"})
		dbtest.Must(t, err, "set")
		_, err = s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "out_of_stock", Quantity: i64(0)})
		dbtest.Must(t, err, "set again")
		if _, err := s.svc.Set(ctx, s.a, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "sold_out"}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("bad availability: %v", err)
		}
		if _, err := s.svc.Set(ctx, s.b, s.ny.ID, "nx-mango-5", ownerstock.Input{Availability: "in_stock"}); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("another account's store: %v", err)
		}
		dbtest.Must(t, s.svc.Remove(ctx, s.a, s.ny.ID, "nx-mango-5"), "remove")
		dbtest.Must(t, s.svc.Remove(ctx, s.a, s.ny.ID, "nx-mango-5"), "remove again")

		actor := "business:" + itoa(s.a) + ":a@example.com " + itoa(s.ny.ID) + " "
		sets := entries(t, s, "stock.set")
		want := []string{
			actor + `{"after":{"availability":"in_stock","quantity":12,"price":"21.99 USD"},"before":null,"product":"nx-mango-5"}`,
			actor + `{"after":{"availability":"out_of_stock","quantity":0},"before":{"availability":"in_stock","quantity":12,"price":"21.99 USD"},"product":"nx-mango-5"}`,
		}
		if strings.Join(sets, "\n") != strings.Join(want, "\n") {
			t.Errorf("stock.set entries:\n%s\nwant:\n%s", strings.Join(sets, "\n"), strings.Join(want, "\n"))
		}
		removes := entries(t, s, "stock.remove")
		if want := actor + `{"after":null,"before":{"availability":"out_of_stock","quantity":0},"product":"nx-mango-5"}`; len(removes) != 1 || removes[0] != want {
			t.Errorf("stock.remove entries: %q, want one %q", removes, want)
		}

		feed := "store_code,id,availability\nsto_nyc,kp-classic-5,in_stock\nsto_theirs,kp-classic-5,in_stock\n"
		_, err = s.svc.Upload(ctx, s.a, strings.NewReader(feed), "feed.csv", false)
		dbtest.Must(t, err, "upload")
		_, err = s.svc.Upload(ctx, s.a, strings.NewReader("store_code,id,availability\nsto_theirs,kp-classic-5,in_stock\n"), "nothing.csv", false)
		dbtest.Must(t, err, "upload of nothing")
		ups := entries(t, s, "stock.upload")
		if want := "business:" + itoa(s.a) + `:a@example.com 0 {"failed":1,"file":"feed.csv","removed":0,"replace":false,"rows":1,"stores":1}`; len(ups) != 1 || ups[0] != want {
			t.Errorf("stock.upload entries: %q, want one %q", ups, want)
		}
	})
}

package inventory

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/catalog/catalogtest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
	"locator/internal/tabfile/tabfiletest"
)

func TestParsePrice(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"12.99 USD", "12.99 USD", ""},
		{"12.9 usd", "12.90 USD", ""},
		{"12 USD", "12.00 USD", ""},
		{"USD 0.5", "0.50 USD", ""},
		{"12.99USD", "12.99 USD", ""},
		{"12.99", "", "does not parse"},
		{"-1.00 USD", "", "does not parse"},
		{"12.999 USD", "", "does not parse"},
		{"9,49 USD", "", "does not parse"},
		{"USD 1 EUR", "", "does not parse"},
		{"99999999.00 USD", "", "more than 10000000"},
	} {
		p, err := ParsePrice(c.in)
		if c.err == "" && (err != nil || p.String() != c.want) {
			t.Errorf("ParsePrice(%q) = %v, %v; want %s", c.in, p, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ParsePrice(%q) = %v, %v; want an error with %q", c.in, p, err, c.err)
		}
	}
}

// fixture is a database with the catalogue fixture and two stores: one
// with the marketplace store_id sto_01nyc, one without (its feed code is
// its id).
func fixture(t *testing.T, d *db.DB) (*Repo, *stores.Store, *stores.Store) {
	t.Helper()
	a := storestest.CloudNine()
	a.StoreID = "sto_01nyc"
	sr, _ := storestest.Created(t, d, a)
	b := storestest.CloudNine()
	b.Name = "Vapor Hub"
	storestest.Created(t, d, b)
	cat := catalogtest.Imported(t, d)
	return NewRepo(sr, cat), a, b
}

func importFile(t *testing.T, r *Repo, name string, replace bool) (*Report, error) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	dbtest.Must(t, err, "open")
	defer f.Close()
	return r.Import(context.Background(), f, name, replace)
}

// stockOf writes a store's stock as "product availability quantity price
// sale method sla" lines, sorted by product.
func stockOf(t *testing.T, r *Repo, store int64) string {
	t.Helper()
	rows, err := r.ForStore(context.Background(), store)
	dbtest.Must(t, err, "read stock")
	var b strings.Builder
	for _, w := range rows {
		q, p, s := "-", "-", "-"
		if w.Quantity != nil {
			q = strconv.FormatInt(*w.Quantity, 10)
		}
		if w.Price != nil {
			p = w.Price.String()
		}
		if w.SalePrice != nil {
			s = w.SalePrice.String()
		}
		b.WriteString(strings.Join([]string{w.Product, string(w.Availability), q, p, s, w.PickupMethod, w.PickupSLA}, "|") + "\n")
		if time.Since(w.ReportedAt) > time.Hour || w.ReportedAt.After(time.Now().Add(time.Minute)) {
			t.Errorf("%s reported at %v", w.Product, w.ReportedAt)
		}
	}
	return b.String()
}

func wantErrors(t *testing.T, rep *Report, want map[int]string) {
	t.Helper()
	tabfiletest.WantErrors(t, rep.Failed, rep.Errors, want)
}

// The CSV feed fixture writes its good rows (stores by store_id or id,
// products by id or GTIN) and refuses each bad row with its line; the TSV
// full feed then replaces one store's rows, keeping the row of a product
// whose new row was refused, and leaves the other store alone.
func TestImportFeed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		r, a, b := fixture(t, d)
		rep, err := importFile(t, r, "feed.csv", false)
		dbtest.Must(t, err, "import")
		if rep.Rows != 6 || rep.Stores != 2 || rep.Removed != 0 || len(rep.Ignored) != 0 {
			t.Errorf("report: %+v", rep)
		}
		wantErrors(t, rep, map[int]string{
			7:  `store_code "sto_99nowhere" is no store of ours`,
			8:  `id "no-such-product" is not in the catalogue`,
			9:  `GTIN "840000100017" has the check digit 7; its digits give 6`,
			10: "quantity -3 is negative",
			11: `price "12.99 dollars" does not parse`,
			12: "repeats the row of line 2 for this store and product",
			13: "sale_price 5.99 USD is more than price 4.99 USD",
			14: `availability "sold_out" is not one of`,
			15: `id "kp-classic-5" has the GTIN 04000001000012, not 00840000100023`,
		})
		wantA := "ht-amber|in_stock|5|12.99 USD|-||\n" +
			"kp-classic-5|limited_availability|2|9.49 USD|-|reserve|next_day\n" +
			"nx-mango-5|in_stock|12|21.99 USD|18.99 USD|buy|same_day\n" +
			"pouch-cool-6|out_of_stock|0|5.99 USD|-||\n"
		wantB := "00840000100023|on_display_to_order|-|24.00 USD|-|ship_to_store|multi-week\n" +
			"nx-mango-5|in_stock|-|21.99 USD|-||\n"
		if got := stockOf(t, r, a.ID); got != wantA {
			t.Errorf("store a:\n%s\nwant:\n%s", got, wantA)
		}
		if got := stockOf(t, r, b.ID); got != wantB {
			t.Errorf("store b:\n%s\nwant:\n%s", got, wantB)
		}

		// Incremental again: the same file changes no row.
		rep, err = importFile(t, r, "feed.csv", false)
		dbtest.Must(t, err, "import again")
		if rep.Rows != 6 || stockOf(t, r, a.ID) != wantA {
			t.Errorf("again: %+v", rep)
		}

		rep, err = importFile(t, r, "feed-full.tsv", true)
		dbtest.Must(t, err, "replace")
		if rep.Rows != 2 || rep.Stores != 1 || rep.Removed != 1 || strings.Join(rep.Ignored, ",") != "link" {
			t.Errorf("replace: %+v", rep)
		}
		wantErrors(t, rep, map[int]string{4: `price "9,49 USD" does not parse`})
		wantA = "kp-classic-5|limited_availability|2|9.49 USD|-|reserve|next_day\n" +
			"nx-mango-5|limited_availability|1|21.99 USD|-|buy|same_day\n" +
			"pouch-cool-6|in_stock|40|5.99 USD|4.99 USD||\n"
		if got := stockOf(t, r, a.ID); got != wantA {
			t.Errorf("store a after the full feed:\n%s\nwant:\n%s", got, wantA)
		}
		if got := stockOf(t, r, b.ID); got != wantB {
			t.Errorf("store b after a's full feed:\n%s\nwant:\n%s", got, wantB)
		}
	})
}

// A file that cannot be read writes nothing: a wrong header, a column
// twice, a file over its size or row bound (after good rows).
func TestImportBadFiles(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, _, _ := fixture(t, d)
		if _, err := importFile(t, r, "feed-bad-header.csv", false); err == nil || apperr.CodeOf(err) != apperr.Invalid ||
			!strings.Contains(err.Error(), "header: the file has no column store_code, id or gtin") {
			t.Errorf("wrong header: %v", err)
		}
		head := "store_code,id,availability\n"
		good := "sto_01nyc,nx-mango-5,in_stock\n"
		if _, err := r.Import(ctx, strings.NewReader("store_code,id,ID,availability\n"), "twice.csv", false); err == nil || !strings.Contains(err.Error(), `column "id" appears twice`) {
			t.Errorf("twice: %v", err)
		}
		r.Limits = Limits{Bytes: 1 << 10, Rows: 3}
		if _, err := r.Import(ctx, strings.NewReader(head+good+strings.Repeat("\n", 2<<10)), "big.csv", false); apperr.CodeOf(err) != apperr.TooLarge {
			t.Errorf("too large: %v", err)
		}
		if _, err := r.Import(ctx, strings.NewReader(head+strings.Repeat(good, 4)), "many.csv", false); err == nil || !strings.Contains(err.Error(), "more than 3 rows") {
			t.Errorf("too many: %v", err)
		}
		// Hostile bytes cost their row only.
		rep, err := r.Import(ctx, strings.NewReader(head+"sto_01nyc,nx-\xff,in_stock\nsto_01nyc,nx\x00,in_stock\nsto_01nyc,\"nx-mango-5,in_stock\n"+good), "hostile.csv", false)
		dbtest.Must(t, err, "hostile")
		wantErrors(t, rep, map[int]string{2: "not valid UTF-8", 3: "NUL byte", 4: "a quote is not closed"})
		if rep.Rows != 1 {
			t.Errorf("hostile: %+v", rep)
		}
		if n, err := r.Count(ctx); err != nil || n != 1 {
			t.Errorf("%d rows, %v; want only the hostile file's good one", n, err)
		}
	})
}

// Rows given whole (the point-of-sale API's batch) follow the feed file's
// rules, numbered from 1; a scope refuses the stores outside it and a
// store it refuses keeps its rows.
func TestImportRowsScoped(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		r, a, b := fixture(t, d)
		ctx := context.Background()
		_, err := r.ImportRows(ctx, []FeedRow{{StoreCode: strconv.FormatInt(b.ID, 10), ID: "nx-mango-5", Availability: "in_stock"}}, "before", nil)
		dbtest.Must(t, err, "stock of b")
		beforeB := stockOf(t, r, b.ID)
		asked := 0
		onlyA := func(_ context.Context, store int64) (bool, error) { asked++; return store == a.ID, nil }
		rep, err := r.ImportRows(ctx, []FeedRow{
			{StoreCode: "sto_01nyc", ID: "nx-mango-5", Availability: "In Stock", Quantity: " 7 ", Price: "19.99 USD"},
			{StoreCode: strconv.FormatInt(b.ID, 10), ID: "nx-mango-5", Availability: "out_of_stock"},
			{StoreCode: "sto_01nyc", GTIN: "4000001000012", Availability: "limited_availability", Quantity: "-1"},
			{StoreCode: "sto_01nyc", GTIN: "840000100017", Availability: "in_stock"},
			{StoreCode: "sto_01nyc", ID: "pouch-cool-6", Availability: "out_of_stock", Price: "5 USD", SalePrice: "6 USD"},
			{StoreCode: "sto_01nyc", ID: "pouch-cool-6", Availability: "on_display_to_order", PickupMethod: "buy", PickupSLA: "same_day"},
			{StoreCode: "sto_01nyc", ID: "nx-mango-5", Availability: "in_stock"},
			{StoreCode: strconv.FormatInt(b.ID, 10), ID: "pouch-cool-6", Availability: "in_stock"},
		}, "pos", onlyA)
		dbtest.Must(t, err, "import rows")
		if rep.Rows != 2 || rep.Stores != 1 || asked != 2 {
			t.Errorf("report %+v, scope asked %d times", rep, asked)
		}
		wantErrors(t, rep, map[int]string{
			2: fmt.Sprintf(`store_code "%d" is not one of your stores`, b.ID),
			3: "quantity -1 is negative",
			4: "has the check digit 7",
			5: "sale_price 6 USD is more than price 5 USD",
			7: "repeats the row of line 1",
			8: "is not one of your stores",
		})
		if got, want := stockOf(t, r, a.ID), "nx-mango-5|in_stock|7|19.99 USD|-||\npouch-cool-6|on_display_to_order|-|-|-|buy|same_day\n"; got != want {
			t.Errorf("store a:\n%s\nwant:\n%s", got, want)
		}
		if got := stockOf(t, r, b.ID); got != beforeB {
			t.Errorf("store b changed:\n%s\nwas:\n%s", got, beforeB)
		}
		r.Limits.Rows = 5
		if _, err := r.ImportRows(ctx, make([]FeedRow, 6), "big", nil); apperr.CodeOf(err) != apperr.TooLarge {
			t.Errorf("too many rows: %v", err)
		}
	})
}

package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The product search against a brute-force answer on a random data set,
// on both engines: stores of four states (two with flavour bans) around
// New York, some hidden, a random catalogue and random stock; the oracle
// reads the rows back with SQL, measures every store, judges the law from
// the rulebook and sorts by band, class and distance. Each query runs down
// both paths of the index (each carrier looked at; the tree walked). Then
// a replica starts from a search snapshot after a tenth of the stores
// moved, some left the index and some entered it (its stock side arranged
// as written but for those stores' products), and answers the same way.
func TestProductSearchOracle(t *testing.T) {
	t.Parallel()
	nStores, nProducts, nQueries := 400, 12, 150
	if !testing.Short() && !raceEnabled { // the full set without -race: see race_on_test.go
		nStores, nProducts, nQueries = 1500, 20, 300
	}
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		rng := rand.New(rand.NewPCG(42, 7))
		places := []struct{ state, city, zip string }{
			{"NY", "New York", "10001"}, {"NJ", "Newark", "07102"}, {"CT", "Stamford", "06901"}, {"PA", "Scranton", "18503"},
		}
		ss := make([]*stores.Store, nStores)
		for i := range ss {
			p := places[rng.IntN(len(places))]
			ss[i] = &stores.Store{StoreID: fmt.Sprintf("o-%d", i), Name: fmt.Sprintf("Store %d", i),
				Latitude: 40.75 + (rng.Float64()-0.5)*2, Longitude: -73.99 + (rng.Float64()-0.5)*2.6, TimeZone: "America/New_York",
				State: p.state, City: p.city, PostalCode: p.zip, Delivery: rng.IntN(3) == 0}
		}
		dbtest.Must(t, repo.SaveAll(ctx, ss), "save stores")
		for _, s := range ss[:nStores/20] {
			dbtest.Must(t, repo.SetStatus(ctx, s.ID, stores.Hidden), "hide")
		}
		cat := catalog.NewRepo(repo.DB())
		var ps []*catalog.Product
		for i := range nProducts {
			ps = append(ps, &catalog.Product{ProductID: fmt.Sprintf("op-%d", i), Brand: "Oracle", Name: fmt.Sprintf("Oracle %d", i),
				Kind: catalog.Kinds[rng.IntN(len(catalog.Kinds))], Flavour: catalog.Flavours[rng.IntN(len(catalog.Flavours))], FDAStatus: catalog.FDANone})
		}
		dbtest.Must(t, cat.Put(ctx, ps), "put products")
		all, err := cat.All(ctx)
		dbtest.Must(t, err, "products")
		now := time.Now().UTC().Truncate(time.Second)
		var rows []inventory.Row
		for _, s := range ss {
			for _, p := range all {
				if rng.IntN(10) < 4 {
					rows = append(rows, inventory.Row{StoreID: s.ID, ProductID: p.ID, Availability: inventory.Availabilities[rng.IntN(4)],
						ReportedAt: now.Add(-time.Duration(rng.Int64N(int64(10 * 24 * time.Hour))))})
				}
			}
		}
		stock := inventory.NewRepo(repo, cat)
		dbtest.Must(t, stock.Put(ctx, rows), "put stock")
		ix := NewIndex()
		sy := NewSyncer(repo, ix, SnapshotAlways, quiet).WithProducts(stock, cat, productlaw.NewRepo(repo.DB()))
		dbtest.Must(t, sy.Load(ctx), "load")

		type cand struct {
			id        int64
			miles     float64
			band      int
			class     uint8
			delivery  bool
			avail     string
			reported  time.Time
			state     string
			city, zip string
			lat, lon  float64
		}
		book := rules.MustLoad()
		day := rules.DayOf(now.In(stores.Zone("America/New_York")))
		oracle := func(ix *Index, q Query) ([]int64, bool) {
			rs, err := repo.DB().Query(ctx, `SELECT s.id, s.latitude, s.longitude, s.state, s.city, s.postal_code, s.is_delivery_available,
				k.availability, k.reported_at FROM stores s JOIN stock k ON k.store_id = s.id
				WHERE s.status = 'published' AND k.product_id = $1`, q.Product)
			dbtest.Must(t, err, "oracle query")
			defer rs.Close()
			p := ix.Products().Catalog().lawOf(q.Product)
			var cs []cand
			for rs.Next() {
				var c cand
				dbtest.Must(t, rs.Scan(&c.id, &c.lat, &c.lon, &c.state, &c.city, &c.zip, &c.delivery, &c.avail, &c.reported), "scan")
				qlat := q.Latitude * deg
				angle := centralAngle(qlat, q.Longitude*deg, math.Cos(qlat), c.lat, c.lon)
				if angle > q.RadiusMiles/EarthRadiusMiles || (q.Delivery && !c.delivery) {
					continue
				}
				c.miles = angle * EarthRadiusMiles
				c.band = bandOf(c.miles)
				set := book.Set(rules.Place{Country: "US", State: c.state, City: c.city, ZIP: c.zip}, false)
				v := productlaw.Judge(set.Rules(day), nil, c.state, p)
				switch {
				case !v.Lawful:
					c.class = classUnlawful
				case now.Sub(c.reported) > StaleAfter:
					c.class = classUnknown
				case c.avail == "in_stock":
					c.class = classInStock
				case c.avail == "limited_availability":
					c.class = classLimited
				case c.avail == "on_display_to_order":
					c.class = classOnDisplay
				default:
					c.class = classOut
				}
				if q.InStock && c.class > classLimited {
					continue
				}
				cs = append(cs, c)
			}
			dbtest.Must(t, rs.Err(), "oracle rows")
			slices.SortFunc(cs, func(a, b cand) int {
				return cmp.Or(cmp.Compare(a.band, b.band), cmp.Compare(a.class, b.class), cmp.Compare(a.miles, b.miles), cmp.Compare(a.id, b.id))
			})
			more := len(cs) > q.Limit
			cs = cs[:min(len(cs), q.Limit)]
			ids := make([]int64, len(cs))
			for i, c := range cs {
				ids[i] = c.id
			}
			return ids, more
		}
		check := func(ix *Index, from string) {
			t.Helper()
			nonEmpty := 0
			for i := range nQueries {
				q := Query{Latitude: 40.75 + (rng.Float64()-0.5)*2, Longitude: -73.99 + (rng.Float64()-0.5)*2.6,
					RadiusMiles: 1 + rng.Float64()*99, Limit: 1 + rng.IntN(60), Product: all[rng.IntN(len(all))].ID,
					InStock: rng.IntN(3) == 0, Delivery: rng.IntN(5) == 0, Now: now}
				dbtest.Must(t, q.Validate(), "query")
				want, wantMore := oracle(ix, q)
				if len(want) > 0 {
					nonEmpty++
				}
				for _, brute := range []int{1 << 30, 0} {
					ix.bruteMax = brute
					got, more := ix.ProductHits(q)
					if !slices.Equal(hitIDs(got), want) || more != wantMore {
						t.Fatalf("from %s, query %d %+v (bruteMax %d):\n got %v more %v\nwant %v more %v", from, i, q, brute, hitIDs(got), more, want, wantMore)
					}
				}
			}
			if nonEmpty < nQueries/2 {
				t.Errorf("from %s, only %d of %d queries found stores: the data set does not test much", from, nonEmpty, nQueries)
			}
		}
		check(ix, "rows")

		wrote, err := sy.WriteSnapshot(ctx)
		dbtest.Must(t, err, "write snapshot")
		if !wrote {
			t.Fatal("no snapshot written")
		}
		for i, s := range ss {
			switch {
			case i < nStores/20 && i%2 == 0:
				dbtest.Must(t, repo.SetStatus(ctx, s.ID, stores.Published), "publish")
			case i%10 == 1:
				s.Latitude, s.Longitude = 40.75+(rng.Float64()-0.5)*2, -73.99+(rng.Float64()-0.5)*2.6
				dbtest.Must(t, repo.Update(ctx, s), "move")
			case i%10 == 2:
				s.Latitude += 1e-4 // a few metres: most stay between their neighbours
				dbtest.Must(t, repo.Update(ctx, s), "nudge")
			case i%10 == 3:
				s.Name += " (renamed)"
				dbtest.Must(t, repo.Update(ctx, s), "rename")
			case i%40 == 4:
				dbtest.Must(t, repo.SetStatus(ctx, s.ID, stores.Hidden), "hide")
			}
		}
		ix2 := NewIndex()
		sy2 := NewSyncer(repo, ix2, SnapshotAlways, quiet).WithProducts(stock, cat, productlaw.NewRepo(repo.DB()))
		dbtest.Must(t, sy2.Load(ctx), "load from the snapshot")
		if sy2.from != "snapshot" || sy2.prod.from != "snapshot" {
			t.Fatalf("loaded the stores from %s and the stock from %s, want the snapshot", sy2.from, sy2.prod.from)
		}
		check(ix2, "a snapshot")
	})
}

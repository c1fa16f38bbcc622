package licences_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/licences"
	"locator/internal/stores"
)

// The fixtures under testdata are written in each source's column layout,
// with bad rows: docs/licences.md lists them.

type fixtureStore struct {
	name, address, city, zip string
	lat, lon                 float64
}

var fixtureStores = []fixtureStore{
	{"Cloud Nine Vapes", "120 West 23rd Street", "New York", "10011", 40.74375, -73.99350},
	{"Empire Smoke Shop", "455 5th Ave", "Brooklyn", "11215", 40.66810, -73.98660},
	{"Liberty Tobacco", "88 Atlantic Avenue, Suite 2", "Brooklyn", "11201", 40.69050, -73.99670},
	{"Harbor Deli", "300 Water St", "New York", "10038", 40.70782, -74.00148},
	{"Golden Hub Tobacco", "45 Broadway", "New York", "10006", 40.70590, -74.01310},
	{"Summit Vapor", "700 Elmwood Ave", "Buffalo", "14222", 42.91842, -78.87702},
	{"Nimbus Vape Lounge", "1 Main Street", "Philadelphia", "19106", 39.95001, -75.14002},
	{"Unlisted Vapes", "9 Elm St", "Albany", "12207", 42.65, -73.75},
}

func createStores(t *testing.T, repo *stores.Repo) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	for _, f := range fixtureStores {
		s := &stores.Store{Name: f.name, Address: f.address, City: f.city, State: "NY", PostalCode: f.zip,
			Latitude: f.lat, Longitude: f.lon, TimeZone: "America/New_York"}
		dbtest.Must(t, repo.Create(context.Background(), s), "create %s", f.name)
		ids[f.name] = s.ID
	}
	return ids
}

func importFile(t *testing.T, g *licences.Registry, source, file, date string) *licences.Report {
	t.Helper()
	f, err := os.Open("testdata/" + file)
	dbtest.Must(t, err, "open")
	defer f.Close()
	rep, err := g.Import(context.Background(), source, f, file, date)
	dbtest.Must(t, err, "import %s", file)
	return rep
}

func docOf(t *testing.T, d *db.DB, id int64) stores.Doc {
	t.Helper()
	var raw string
	dbtest.Must(t, d.QueryRow(context.Background(), "SELECT search_doc FROM stores WHERE id = $1", id).Scan(&raw), "doc")
	var doc stores.Doc
	dbtest.Must(t, json.Unmarshal([]byte(raw), &doc), "decode %s", raw)
	if !strings.Contains(raw, `"licence":`) || !strings.Contains(raw, `"enforcement":[`) {
		t.Fatalf("document lacks licence or enforcement: %s", raw)
	}
	return doc
}

func newRegistry(t *testing.T, d *db.DB) (*licences.Registry, *stores.Repo) {
	repo := stores.NewRepo(d)
	g, err := licences.New(repo, nil, nil)
	dbtest.Must(t, err, "registry")
	g.Now = func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }
	return g, repo
}

func TestImportMatchAndShow(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		g, repo := newRegistry(t, d)
		ids := createStores(t, repo)

		rep := importFile(t, g, "nyc-dcwp", "nyc-dcwp.csv", "2026-11-24")
		// 11 data rows: 1 of another kind (skipped), 5 bad (status, date,
		// empty number, repeated, position), 5 kept.
		if rep.Rows != 5 || len(rep.Errors) != 5 || rep.Added != 5 {
			t.Fatalf("report: %+v", rep)
		}
		wantErr := []string{"status \"Pending Review\"", "lic_expir_dd \"31/12/2026\"", "license_nbr is empty", "repeats the row of line 2", "position"}
		for i, w := range wantErr {
			if !strings.Contains(rep.Errors[i].Message, w) {
				t.Errorf("error %d: %+v, want %q", i, rep.Errors[i], w)
			}
		}
		if rep.Errors[0].Line != 8 {
			t.Errorf("error line: %+v", rep.Errors[0])
		}
		if rep.Sure != 3 || rep.Doubtful != 1 || rep.Unmatched != 1 {
			t.Fatalf("matching: %+v", rep)
		}

		doc := docOf(t, d, ids["Cloud Nine Vapes"])
		l := doc.Licence
		if l == nil || l.Status != "active" || l.Kind != "NYC Electronic Cigarette Retail Dealer" || l.Number != "2091234" ||
			l.Jurisdiction != "New York City" || *l.ExpiresOn != "2026-12-31" || l.CheckedAt != "2026-11-24" ||
			l.RecordURL == nil || !strings.HasSuffix(*l.RecordURL, "license_nbr=2091234") {
			t.Fatalf("licence: %+v", l)
		}
		if l := docOf(t, d, ids["Empire Smoke Shop"]).Licence; l == nil || l.Status != "revoked" {
			t.Fatalf("revoked: %+v", l)
		}
		if l := docOf(t, d, ids["Liberty Tobacco"]).Licence; l == nil || l.Status != "expired" || *l.ExpiresOn != "2025-06-30" {
			t.Fatalf("expired (matched by trade name and address): %+v", l)
		}
		// Same address, another name: waits for a moderator, shows nothing.
		if l := docOf(t, d, ids["Harbor Deli"]).Licence; l != nil {
			t.Fatalf("a doubtful match was applied: %+v", l)
		}
		// No registry covers Albany here: nothing, not "unverified".
		if doc := docOf(t, d, ids["Unlisted Vapes"]); doc.Licence != nil || len(doc.Enforcement) != 0 {
			t.Fatalf("unlisted: %+v", doc)
		}

		// The search flags travel with the change feed.
		flags := map[int64]uint8{}
		_, err := repo.ScanChanges(ctx, -1, 100, func(cs []stores.Change) error {
			for _, c := range cs {
				flags[c.ID] = c.Licence
			}
			return nil
		})
		dbtest.Must(t, err, "scan")
		if flags[ids["Cloud Nine Vapes"]] != stores.LicenceVerified || flags[ids["Empire Smoke Shop"]] != stores.LicenceDemoted ||
			flags[ids["Liberty Tobacco"]] != stores.LicenceDemoted || flags[ids["Harbor Deli"]] != 0 {
			t.Fatalf("flags: %v", flags)
		}

		// FDA: an active No-Tobacco-Sale Order (30 days from its decision),
		// a warning letter; a passed inspection records nothing.
		rep = importFile(t, g, "fda-compliance-checks", "fda-compliance-checks.csv", "2026-11-20")
		if rep.Rows != 2 || len(rep.Errors) != 2 || rep.Sure != 2 {
			t.Fatalf("fda: %+v", rep)
		}
		doc = docOf(t, d, ids["Golden Hub Tobacco"])
		if doc.Licence != nil || len(doc.Enforcement) != 1 || doc.Enforcement[0].Kind != "no_tobacco_sale_order" ||
			doc.Enforcement[0].DecidedOn != "2026-11-01" || *doc.Enforcement[0].Until != "2026-11-30" {
			t.Fatalf("ntso: %+v", doc)
		}
		if doc := docOf(t, d, ids["Empire Smoke Shop"]); len(doc.Enforcement) != 1 || doc.Enforcement[0].Kind != "warning_letter" {
			t.Fatalf("warning letter: %+v", doc.Enforcement)
		}
		if doc := docOf(t, d, ids["Cloud Nine Vapes"]); len(doc.Enforcement) != 0 {
			t.Fatalf("no violation recorded as an action: %+v", doc.Enforcement)
		}

		rep = importFile(t, g, "nys-tobacco-vendors", "nys-tobacco-vendors.csv", "2026-11-01")
		if rep.Rows != 1 || len(rep.Errors) != 1 || rep.Sure != 1 {
			t.Fatalf("nys: %+v", rep)
		}
		rep = importFile(t, g, "philadelphia-tobacco-permits", "philadelphia-tobacco-permits.json", "2026-11-02")
		if rep.Rows != 1 || len(rep.Errors) != 1 || rep.Sure != 1 {
			t.Fatalf("philadelphia: %+v", rep)
		}
		if l := docOf(t, d, ids["Nimbus Vape Lounge"]).Licence; l == nil || l.Kind != "Philadelphia Tobacco Retailer Permit" || l.Status != "active" {
			t.Fatalf("philadelphia licence: %+v", l)
		}

		st, err := g.Status(ctx)
		dbtest.Must(t, err, "status")
		if len(st) != 4 || st[1].Source != "nyc-dcwp" || st[1].Rows != 5 || st[1].FileDate != "2026-11-24" ||
			st[1].Matched != 3 || st[1].Ambiguous != 1 || st[1].Unmatched != 1 || st[1].Errors != 5 {
			t.Fatalf("status: %+v", st)
		}
	})
}

// eachNYC runs fn on each engine with a registry over the fixture stores and
// the NYC fixture imported.
func eachNYC(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, g *licences.Registry, repo *stores.Repo, ids map[string]int64)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		g, repo := newRegistry(t, d)
		ids := createStores(t, repo)
		importFile(t, g, "nyc-dcwp", "nyc-dcwp.csv", "2026-11-24")
		fn(t, context.Background(), d, g, repo, ids)
	})
}

func TestModeratorDecisionsSurviveReimport(t *testing.T) {
	t.Parallel()
	eachNYC(t, func(t *testing.T, ctx context.Context, d *db.DB, g *licences.Registry, _ *stores.Repo, ids map[string]int64) {

		q, err := g.Queue(ctx)
		dbtest.Must(t, err, "queue")
		if len(q) != 1 || q[0].StoreID != ids["Harbor Deli"] || q[0].Number != "2091500" {
			t.Fatalf("queue: %+v", q)
		}
		dbtest.Must(t, g.Decide(ctx, q[0].MatchID, true, "mod@example.com"), "accept")
		if l := docOf(t, d, ids["Harbor Deli"]).Licence; l == nil || l.Number != "2091500" {
			t.Fatalf("accepted match not applied: %+v", l)
		}
		// A moderator says Liberty Tobacco's row is not that store.
		var libertyMatch int64
		dbtest.Must(t, d.QueryRow(ctx, `SELECT m.id FROM licence_matches m JOIN licence_rows r ON r.id = m.row_id
			WHERE r.number = '2091400'`).Scan(&libertyMatch), "match")
		dbtest.Must(t, g.Decide(ctx, libertyMatch, false, "mod@example.com"), "reject")
		if l := docOf(t, d, ids["Liberty Tobacco"]).Licence; l != nil {
			t.Fatalf("rejected match still shown: %+v", l)
		}

		// The same file again, later: nothing a moderator decided changes.
		rep := importFile(t, g, "nyc-dcwp", "nyc-dcwp.csv", "2026-11-25")
		if rep.Added != 0 || rep.Changed != 0 || rep.Sure != 3 || rep.Doubtful != 0 || rep.Unmatched != 2 {
			t.Fatalf("re-import: %+v", rep)
		}
		if l := docOf(t, d, ids["Harbor Deli"]).Licence; l == nil || l.CheckedAt != "2026-11-25" {
			t.Fatalf("accepted match lost: %+v", l)
		}
		if l := docOf(t, d, ids["Liberty Tobacco"]).Licence; l != nil {
			t.Fatalf("rejection lost: %+v", l)
		}
		// An older file is refused.
		f, _ := os.Open("testdata/nyc-dcwp.csv")
		defer f.Close()
		if _, err := g.Import(ctx, "nyc-dcwp", f, "old.csv", "2026-10-01"); err == nil || !strings.Contains(err.Error(), "newer file") {
			t.Fatalf("older file: %v", err)
		}

		// A file without Cloud Nine's licence: the row is gone, its store
		// shows nothing, the history keeps both states.
		var body strings.Builder
		raw, _ := os.ReadFile("testdata/nyc-dcwp.csv")
		for _, line := range strings.Split(string(raw), "\n") {
			if !strings.Contains(line, "2091234") {
				body.WriteString(line + "\n")
			}
		}
		g.Now = func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) } // a file is not dated after tomorrow
		rep, err = g.Import(ctx, "nyc-dcwp", strings.NewReader(body.String()), "later.csv", "2026-12-01")
		dbtest.Must(t, err, "import later")
		if rep.Gone != 1 {
			t.Fatalf("gone: %+v", rep)
		}
		if l := docOf(t, d, ids["Cloud Nine Vapes"]).Licence; l != nil {
			t.Fatalf("gone licence still shown: %+v", l)
		}
		hist := dbtest.Texts(t, d, "", `SELECT h.status FROM licence_row_history h JOIN licence_rows r ON r.id = h.row_id
			WHERE r.number = '2091234' ORDER BY h.id`)
		if strings.Join(hist, ",") != "active,gone" {
			t.Fatalf("history: %v", hist)
		}
	})
}

func TestPickCreateAndOwnerNumber(t *testing.T) {
	t.Parallel()
	eachNYC(t, func(t *testing.T, ctx context.Context, d *db.DB, g *licences.Registry, repo *stores.Repo, ids map[string]int64) {

		// The doubtful row belongs to another store, a moderator says.
		q, err := g.Queue(ctx)
		dbtest.Must(t, err, "queue")
		dbtest.Must(t, g.Pick(ctx, q[0].RowID, ids["Golden Hub Tobacco"], "mod@example.com"), "pick")
		if l := docOf(t, d, ids["Golden Hub Tobacco"]).Licence; l == nil || l.Number != "2091500" {
			t.Fatalf("picked: %+v", l)
		}
		if q, _ := g.Queue(ctx); len(q) != 0 {
			t.Fatalf("queue after pick: %+v", q)
		}

		// The licensed dealer without a store, near a place.
		rows, err := g.Unmatched(ctx, 40.7167, -73.99, 2)
		dbtest.Must(t, err, "unmatched")
		if len(rows) != 1 || rows[0].Number != "2091600" || rows[0].Name != "ORCHARD VAPES" {
			t.Fatalf("unmatched: %+v", rows)
		}
		if far, _ := g.Unmatched(ctx, 42.65, -73.75, 2); len(far) != 0 {
			t.Fatalf("unmatched far away: %+v", far)
		}
		id, err := g.CreateStore(ctx, rows[0].RowID, "mod@example.com")
		dbtest.Must(t, err, "create store")
		s, err := repo.Get(ctx, id)
		dbtest.Must(t, err, "get")
		if s.Status != stores.Pending || s.Name != "Orchard Vapes" || s.Address != "77 Orchard St" || s.PostalCode != "10002" ||
			s.Licence == nil || s.Licence.Number != "2091600" {
			t.Fatalf("created store: %+v", s)
		}
		if rows, _ := g.Unmatched(ctx, 40.7167, -73.99, 2); len(rows) != 0 {
			t.Fatalf("still unmatched: %+v", rows)
		}

		// An owner's number verifies only with an active row at the store's address.
		ok, err := g.VerifyNumber(ctx, ids["Unlisted Vapes"], "2091234")
		dbtest.Must(t, err, "verify elsewhere")
		if ok {
			t.Fatal("a number at another address verified the store")
		}
		ok, err = g.VerifyNumber(ctx, ids["Liberty Tobacco"], "2091400")
		dbtest.Must(t, err, "verify expired")
		if ok {
			t.Fatal("an expired licence verified the store")
		}
		dbtest.Must(t, d.QueryRow(ctx, "SELECT 1").Scan(new(int)), "ping")
		_, err = d.Exec(ctx, "DELETE FROM licence_matches WHERE store_id = $1", ids["Cloud Nine Vapes"])
		dbtest.Must(t, err, "unmatch")
		ok, err = g.VerifyNumber(ctx, ids["Cloud Nine Vapes"], " 2091234 ")
		dbtest.Must(t, err, "verify")
		if !ok {
			t.Fatal("the store's own active licence did not verify")
		}
		if l := docOf(t, d, ids["Cloud Nine Vapes"]).Licence; l == nil || l.Number != "2091234" {
			t.Fatalf("owner's number not shown: %+v", l)
		}
	})
}

// The search flags follow the calendar without a new file: a No-Tobacco-
// Sale Order that ends stops demoting the store, an active licence whose
// expiry passed stops being verified and is demoted, each written through
// the change feed by Recheck; a second run (another replica) finds nothing.
func TestRecheckFollowsDates(t *testing.T) {
	t.Parallel()
	eachNYC(t, func(t *testing.T, ctx context.Context, d *db.DB, g *licences.Registry, repo *stores.Repo, ids map[string]int64) {
		importFile(t, g, "fda-compliance-checks", "fda-compliance-checks.csv", "2026-11-20")
		flagsSince := func(v int64) map[int64]uint8 {
			flags := map[int64]uint8{}
			_, err := repo.ScanChanges(ctx, v, 100, func(cs []stores.Change) error {
				for _, c := range cs {
					flags[c.ID] = c.Licence
				}
				return nil
			})
			dbtest.Must(t, err, "scan")
			return flags
		}
		recheck := func(date string, want int) int64 {
			t.Helper()
			day, err := time.Parse(time.DateOnly, date)
			dbtest.Must(t, err, "date")
			g.Now = func() time.Time { return day.Add(30 * time.Minute) }
			before, err := repo.Version(ctx)
			dbtest.Must(t, err, "version")
			n, err := g.Recheck(ctx)
			dbtest.Must(t, err, "recheck %s", date)
			if n != want {
				t.Fatalf("recheck on %s changed %d stores, want %d", date, n, want)
			}
			return before
		}
		cloud, golden, empire := ids["Cloud Nine Vapes"], ids["Golden Hub Tobacco"], ids["Empire Smoke Shop"]
		if f := flagsSince(-1); f[cloud] != stores.LicenceVerified || f[golden] != stores.LicenceDemoted || f[empire] != stores.LicenceDemoted {
			t.Fatalf("on import: %v", f)
		}

		// Nothing passed yet on the import's day: no write, no version.
		before := recheck("2026-11-24", 0)
		if v, _ := repo.Version(ctx); v != before {
			t.Fatalf("a recheck with nothing due bumped the version %d -> %d", before, v)
		}
		// The order ran through Nov 30 (30 days from its decision).
		before = recheck("2026-12-01", 1)
		if f := flagsSince(before); len(f) != 1 || f[golden] != 0 {
			t.Fatalf("after the order: %v", f)
		}
		if doc := docOf(t, d, golden); len(doc.Enforcement) != 1 {
			t.Fatalf("the order's record is kept: %+v", doc.Enforcement)
		}
		recheck("2026-12-01", 0)
		recheck("2026-12-31", 0) // the last day of the licence
		// The licence expired on Dec 31 and no newer file came.
		before = recheck("2027-01-01", 1)
		if f := flagsSince(before); len(f) != 1 || f[cloud] != stores.LicenceDemoted {
			t.Fatalf("after the expiry: %v", f)
		}
		if l := docOf(t, d, cloud).Licence; l == nil || l.Status != "active" || l.StatusOn("2027-01-01") != "expired" {
			t.Fatalf("the registry's record stays, judged by date: %+v", l)
		}
		// Another replica at once, or the next run: nothing left.
		before = recheck("2027-01-01", 0)
		if v, _ := repo.Version(ctx); v != before {
			t.Fatalf("a second recheck bumped the version %d -> %d", before, v)
		}
		var due int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM stores WHERE licence_recheck_on <> ''").Scan(&due), "due")
		if due != 0 {
			t.Fatalf("%d stores still wait for a recheck after every date passed", due)
		}
	})
}

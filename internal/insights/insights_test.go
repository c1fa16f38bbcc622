package insights

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/insights/insightstest"
)

var day0 = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func newAt(d *db.DB, now time.Time) *Service {
	s := New(d, Options{Clock: clock.Fixed(now)}, nil)
	return s
}

// replicas are two services at day0 on a and b (two pools on one
// database), with the day's salt loaded as serve loads it.
func replicas(t testing.TB, a, b *db.DB) (*Service, *Service) {
	t.Helper()
	ra, rb := newAt(a, day0), newAt(b, day0)
	must(t, ra.LoadSalts(context.Background()))
	must(t, rb.LoadSalts(context.Background()))
	return ra, rb
}

// week is store's report of the 7 days to day0.
func week(t testing.TB, q db.Querier, store int64) *StoreReport {
	t.Helper()
	rep, err := ReadStoreReport(context.Background(), q, store, 7, day0)
	must(t, err)
	return rep
}

// Two replicas count concurrently and flush several times: the database
// holds each visitor's call, search and visit once, whichever replica saw
// it (the salt of the day is shared through the database).
func TestReplicasAddUpExactly(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, a, b *db.DB) {
		ctx := context.Background()
		ra, rb := replicas(t, a, b)
		var wg sync.WaitGroup
		for r, svc := range []*Service{ra, rb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 300 {
					v := svc.VisitorOf(fmt.Sprintf("198.51.%d.%d", i%7, i%200)) // 7 networks
					svc.Count(v, 42, Call)
					svc.CountSearch(v, Search{Latitude: 40.7128, Longitude: -74.006, Filters: FilterOpenNow, Results: i % 2, FirstPage: []int64{42, 43}})
					if i%100 == 99 {
						if err := svc.Flush(ctx); err != nil {
							t.Errorf("replica %d flush: %v", r, err)
						}
					}
				}
			}()
		}
		wg.Wait()
		must(t, ra.Flush(ctx))
		must(t, rb.Flush(ctx))
		rep := week(t, a, 42)
		if rep.Current.Call != 7 || rep.Current.Impression != 7 || rep.Uniques.Call != 7 {
			t.Fatalf("calls %d, impressions %d, unique callers %d; want 7 each (one per network)", rep.Current.Call, rep.Current.Impression, rep.Uniques.Call)
		}
		if got := rep.Series[6].Call; got != 7 || rep.Series[6].Day != "2026-03-15" {
			t.Errorf("today's series %+v", rep.Series[6])
		}
		dem, err := DemandReport(ctx, b, nil, 30, day0)
		must(t, err)
		// Each network's first search: i = 0..6, found nothing when i is even.
		if dem.Searches != 7 || dem.ZeroResults != 4 || len(dem.Cells) != 1 {
			t.Fatalf("demand %+v", dem)
		}
		if c := dem.Cells[0]; c.Latitude != 40.71 || c.Longitude != -74.01 {
			t.Errorf("cell %+v, want the 0.01 degree cell 40.71,-74.01", c)
		}
		if len(dem.Filters) != 1 || dem.Filters[0] != (FilterUse{"is_open_now", 7}) {
			t.Errorf("filters %+v", dem.Filters)
		}
		if dem.Visitors != 7 {
			t.Errorf("visitors %d, want 7", dem.Visitors)
		}
	})
}

// What a flood buys (the security test's figures, counted by two replicas
// on both engines): 2,000 views of a store page from one address count one
// view and one visitor; 60 networks sending 120 calls each count 60 calls;
// one network's 3,000 searches over as many places count
// MaxCellsPerVisitor searches (whichever replica saw them) and keep as
// many rows.
func TestFloodsCountOnce(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, a, b *db.DB) {
		ctx := context.Background()
		ra, rb := replicas(t, a, b)
		replica := func(i int) *Service { return []*Service{ra, rb}[i%2] }
		for i := range 2000 {
			r := replica(i)
			r.Count(r.VisitorOf("203.0.113.9"), 7, Page)
		}
		for n := range 60 {
			for i := range 120 {
				r := replica(i)
				r.Count(r.VisitorOf(fmt.Sprintf("2001:db8:%x::%x", n, i)), 8, Call) // one /48 each, 120 addresses in it
			}
		}
		for i := range 3000 {
			r := replica(i)
			r.CountSearch(r.VisitorOf("192.0.2.1"), Search{Latitude: float64(i%60) / 10, Longitude: float64(i/60) / 10, FirstPage: []int64{7}})
		}
		must(t, ra.Flush(ctx))
		must(t, rb.Flush(ctx))
		views := week(t, a, 7)
		if views.Current.Page != 1 || views.Uniques.Page != 1 {
			t.Errorf("2,000 views from one address: %d views, %d visitors; want 1 and 1", views.Current.Page, views.Uniques.Page)
		}
		calls := week(t, a, 8)
		if calls.Current.Call != 60 || calls.Uniques.Call != 60 {
			t.Errorf("7,200 calls from 60 networks: %d calls, %d callers; want 60", calls.Current.Call, calls.Uniques.Call)
		}
		var rows int
		must(t, a.QueryRow(ctx, "SELECT COUNT(*) FROM insight_search_days").Scan(&rows))
		dem, err := DemandReport(ctx, a, nil, 7, day0)
		must(t, err)
		if dem.Searches != MaxCellsPerVisitor || rows > MaxCellsPerVisitor || views.Current.Impression != MaxCellsPerVisitor {
			t.Errorf("3,000 searches from one network over 2 replicas: %d searches, %d rows, %d impressions; want %d",
				dem.Searches, rows, views.Current.Impression, MaxCellsPerVisitor)
		}
		if dem.Visitors != 62 {
			t.Errorf("visitors %d, want 62 (one address, 60 networks, one network)", dem.Visitors)
		}
	})
}

// Stop (the SIGTERM path of serve) writes what was counted since the last
// flush.
func TestStopFlushes(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := newAt(d, day0)
		s.Count(s.VisitorOf("192.0.2.1"), 7, Directions)
		must(t, s.LoadSalts(ctx)) // serve's insights job starts so (cmd/locator/jobs.go)
		must(t, s.Stop(5*time.Second))
		rep := week(t, d, 7)
		if rep.Current.Directions != 1 {
			t.Fatalf("directions %d after Stop, want 1", rep.Current.Directions)
		}
	})
}

// A flush that fails keeps its sums for the next one.
func TestFailedFlushKeepsCounts(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	ctx := context.Background()
	s := newAt(d, day0)
	s.Count(0, 9, Website)
	dead, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Flush(dead); err == nil {
		t.Fatal("a flush with a cancelled context succeeded")
	}
	must(t, s.Flush(ctx))
	rep := week(t, d, 9)
	if rep.Current.Website != 1 {
		t.Fatalf("website %d, want 1 (kept across the failed flush)", rep.Current.Website)
	}
}

// Counts from a known address leave it in no table (nor its network), and
// the visitor hashes and the salt of a day are gone two days later.
func TestNoAddressOrUserAgentStored(t *testing.T) {
	t.Parallel()
	const ip, ua = "203.0.113.77", "CanaryBrowser/9.9 (insights test)"
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := newAt(d, day0)
		must(t, s.LoadSalts(ctx))
		v := s.VisitorOf(ip)
		for _, k := range Kinds {
			s.Count(v, 5, k)
		}
		s.CountSearch(v, Search{Latitude: 1, Longitude: 2, FirstPage: []int64{5}})
		must(t, s.Flush(ctx))
		insightstest.AssertNoneHolds(t, d, ip, ua, "203.0.113")
		later := newAt(d, day0.AddDate(0, 0, 2))
		must(t, later.Flush(ctx))
		var n int
		must(t, d.QueryRow(ctx, "SELECT (SELECT COUNT(*) FROM insight_seen WHERE day = '2026-03-15') + (SELECT COUNT(*) FROM insight_salts WHERE day = '2026-03-15')").Scan(&n))
		if n != 0 {
			t.Fatalf("%d rows of hashes or salt of 2026-03-15 two days later", n)
		}
	})
}

// The counts past 25 months are deleted.
func TestRetention(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		old := newAt(d, day0.AddDate(0, -Retention, -1))
		old.Count(0, 1, Call)
		old.CountSearch(0, Search{})
		must(t, old.Flush(ctx))
		s := newAt(d, day0)
		s.Count(0, 1, Call)
		must(t, s.Flush(ctx)) // the first flush of the day prunes
		var n int
		must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM insight_store_days").Scan(&n))
		if n != 1 {
			t.Fatalf("%d store rows, want only today's", n)
		}
		must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM insight_search_days").Scan(&n))
		if n != 0 {
			t.Fatalf("%d search rows past retention", n)
		}
	})
}

// The monthly summary goes once (two replicas), to owners who did not
// switch it off and whose stores were counted.
func TestMonthlyMail(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, a, b *db.DB) {
		ctx := context.Background()
		var store, on, off int64
		must(t, a.QueryRow(ctx, `INSERT INTO stores (name, latitude, longitude, created_at, updated_at) VALUES ('Corner Shop', 1, 2, $1, $1) RETURNING id`, day0).Scan(&store))
		for i, id := range []*int64{&on, &off} {
			must(t, a.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at, email_verified_at)
				VALUES ($1, 'x', '', 'x', $2, $2) RETURNING id`, fmt.Sprintf("owner%d@example.com", i), day0).Scan(id))
			_, err := a.Exec(ctx, `INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')`, *id, store, day0)
			must(t, err)
		}
		must(t, SetMailEnabled(ctx, a, off, false))
		if en, err := MailEnabled(ctx, a, off); err != nil || en {
			t.Fatalf("switched off: %v %v", en, err)
		}
		march := newAt(a, day0)
		march.Count(0, store, Call)
		march.Count(0, store, Call)
		must(t, march.Flush(ctx))
		april := day0.AddDate(0, 1, -10) // 5 April
		ra, rb := newAt(a, april), newAt(b, april)
		must(t, ra.Flush(ctx))
		must(t, rb.Flush(ctx))
		rows, err := a.Query(ctx, `SELECT to_addr, subject, text_body FROM outbox`)
		must(t, err)
		defer rows.Close()
		var got []string
		for rows.Next() {
			var to, subject, text string
			must(t, rows.Scan(&to, &subject, &text))
			got = append(got, to)
			if subject != "Your listings in March 2026" || !strings.Contains(text, "Calls: 2 (0)") || !strings.Contains(text, "Corner Shop") {
				t.Errorf("mail %q: %s", subject, text)
			}
		}
		if len(got) != 1 || got[0] != "owner0@example.com" {
			t.Fatalf("mail went to %v, want owner0 once", got)
		}
	})
}

func TestParseKindAndBadPeriod(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds {
		if p, ok := ParseKind(k.String()); !ok || p != k {
			t.Errorf("kind %v round trip", k)
		}
	}
	if _, ok := ParseKind("hover"); ok {
		t.Error("hover parsed")
	}
	if _, err := ReadStoreReport(context.Background(), nil, 1, 8, day0); err == nil {
		t.Error("8 days accepted")
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCountSearch is what counting adds to one search: the visitor's
// hash and the search with a first page of 20 impressions, from all cores
// at once (docs/performance.md, "Insights").
//
//	go test -run '^$' -bench CountSearch ./internal/insights/
func BenchmarkCountSearch(b *testing.B) {
	c := NewCounter()
	var n atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		first := make([]int64, FirstPage)
		for pb.Next() {
			i := n.Add(1)
			for j := range first {
				first[j] = i%5000 + int64(j)
			}
			v := c.VisitorOf("198.51." + strconv.Itoa(int(i%250)) + ".7")
			c.CountSearch(v, Search{Latitude: 40 + float64(i%100)/100, Longitude: -74, Results: 10, FirstPage: first})
		}
	})
}

// The search side (cells, impressions) waits for SearchEvery; actions do
// not; Stop writes everything.
func TestSearchSideOnItsOwnCadence(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	ctx := context.Background()
	s := newAt(d, day0)
	s.SearchEvery = time.Hour
	must(t, s.Flush(ctx)) // the first flush writes the search side (nothing yet) and starts the hour
	s.CountSearch(0, Search{Latitude: 1, Longitude: 2, FirstPage: []int64{3}})
	s.Count(0, 3, Call)
	must(t, s.Flush(ctx))
	rep := week(t, d, 3)
	if rep.Current.Call != 1 || rep.Current.Impression != 0 {
		t.Fatalf("after a flush within the hour: %+v, want the call only", rep.Current)
	}
	must(t, s.Stop(5*time.Second))
	rep = week(t, d, 3)
	dem, err := DemandReport(ctx, d, nil, 7, day0)
	must(t, err)
	if rep.Current.Call != 1 || rep.Current.Impression != 1 || dem.Searches != 1 {
		t.Fatalf("after Stop: %+v, %d searches", rep.Current, dem.Searches)
	}
}

// BenchmarkVisitorOf is the visitor's hash alone (SHA-256 of the salt and
// the network).
func BenchmarkVisitorOf(b *testing.B) {
	c := NewCounter()
	for i := 0; b.Loop(); i++ {
		c.VisitorOf("198.51.100.7")
	}
}

// The widget's counts under a partner (docs/embed.md, "What is counted")
// are once per visitor over all replicas, on both engines: a visitor whose
// views, store opening and search reach two replicas, flushing at once,
// counts one of each (and the stores its search showed once); another
// visitor and another partner count apart; a replica started later the
// same day (a restart) counts nothing the others counted.
func TestPartnerCountsOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, a, b *db.DB) {
		ctx := context.Background()
		ra, rb := replicas(t, a, b)
		var wg sync.WaitGroup
		for r, svc := range []*Service{ra, rb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := svc.VisitorOf("203.0.113.9")
				for i := range 50 {
					svc.CountPartner(v, "acme", PartnerView, 0, 1)
					svc.CountPartner(v, "acme", PartnerPanel, 7, 1)
					svc.CountPartnerSearch(v, "acme", 40.7128, -74.006, 20)
					if i%25 == 24 {
						if err := svc.Flush(ctx); err != nil {
							t.Errorf("replica %d flush: %v", r, err)
						}
					}
				}
			}()
		}
		wg.Wait()
		rb.CountPartner(rb.VisitorOf("198.51.100.1"), "acme", PartnerView, 0, 1)
		ra.CountPartner(ra.VisitorOf("203.0.113.9"), "other-brand", PartnerView, 0, 1)
		must(t, ra.Flush(ctx))
		must(t, rb.Flush(ctx))
		rc := newAt(a, day0)
		must(t, rc.LoadSalts(ctx))
		rc.CountPartner(rc.VisitorOf("203.0.113.9"), "acme", PartnerView, 0, 1)
		rc.CountPartnerSearch(rc.VisitorOf("203.0.113.9"), "acme", 40.7128, -74.006, 20)
		must(t, rc.Flush(ctx))

		month := func(partner string) PartnerMonth {
			t.Helper()
			rep, err := PartnerReport(ctx, b, partner, day0, 1)
			must(t, err)
			return rep[0]
		}
		want := PartnerMonth{Month: "2026-03", Views: 2, Searches: 1, StoresShown: 20, Panels: 1}
		if got := month("acme"); got != want {
			t.Errorf("acme: %+v, want %+v", got, want)
		}
		if got := month("other-brand"); got != (PartnerMonth{Month: "2026-03", Views: 1}) {
			t.Errorf("other-brand: %+v", got)
		}
		var seen int
		must(t, a.QueryRow(ctx, "SELECT COUNT(*) FROM insight_partner_seen").Scan(&seen))
		if seen != 5 {
			t.Errorf("%d partner keys kept, want 5 (acme's view, panel and search by one visitor, a view by another, other-brand's view)", seen)
		}
	})
}

package reports_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity/identitytest"
	"locator/internal/reports"
	"locator/internal/stores"
)

func code(err error) apperr.Code {
	var e *apperr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func setup(t *testing.T, d *db.DB) (*reports.Service, *stores.Repo, *stores.Store, *stores.Store) {
	t.Helper()
	ctx := context.Background()
	sr := stores.NewRepo(d)
	a := &stores.Store{Name: "Cloud Nine", PhoneNumber: "+12125550100", Latitude: 40.7, Longitude: -74, TimeZone: "America/New_York", Status: stores.Published}
	b := &stores.Store{Name: "Vape Corner", Latitude: 40.71, Longitude: -74, TimeZone: "America/New_York", Status: stores.Published}
	hidden := &stores.Store{Name: "Gone", Latitude: 40.72, Longitude: -74, TimeZone: "America/New_York", Status: stores.Hidden}
	dbtest.Must(t, sr.SaveAll(ctx, []*stores.Store{a, b, hidden}), "stores")
	_, err := d.Exec(ctx, "UPDATE stores SET status = 'hidden' WHERE id = $1", hidden.ID)
	dbtest.Must(t, err, "hide")
	return reports.New(d, sr, nil), sr, a, b
}

// eachSetup runs fn once per engine on setup's service and stores.
func eachSetup(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, svc *reports.Service, sr *stores.Repo, a, b *stores.Store)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		svc, sr, a, b := setup(t, d)
		fn(t, context.Background(), d, svc, sr, a, b)
	})
}

func TestSubmitValidatesAndLimits(t *testing.T) {
	t.Parallel()
	eachSetup(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *reports.Service, _ *stores.Repo, a, b *stores.Store) {
		for _, c := range []struct {
			name string
			in   reports.Input
			want apperr.Code
		}{
			{"no reason", reports.Input{StoreID: a.ID}, apperr.Invalid},
			{"an unknown reason", reports.Input{StoreID: a.ID, Reason: "rude"}, apperr.Invalid},
			{"a 501-character note", reports.Input{StoreID: a.ID, Reason: "other", Note: strings.Repeat("é", 501)}, apperr.Invalid},
			{"a NUL in the note", reports.Input{StoreID: a.ID, Reason: "other", Note: "a\x00b"}, apperr.Invalid},
			{"an unknown store", reports.Input{StoreID: 999999, Reason: "other"}, apperr.NotFound},
			{"a hidden store", reports.Input{StoreID: a.ID + 2, Reason: "other"}, apperr.NotFound},
		} {
			if _, err := svc.Submit(ctx, c.in); code(err) != c.want {
				t.Errorf("%s: %v, want %s", c.name, err, c.want)
			}
		}
		r, err := svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "wrong_hours", Note: "  Closed on Sundays now  ", ClientIP: "10.0.0.1", CustomerID: 7})
		dbtest.Must(t, err, "submit")
		if r.ID == 0 || r.Note != "Closed on Sundays now" || !r.Signed || r.Status != "open" {
			t.Fatalf("report %+v", r)
		}
		// One network (an IPv4 /24) sends three a day about one store: the
		// third repeats an open reason without a note and merges into it;
		// past three, the network is thanked and nothing is kept.
		for _, in := range []reports.Input{
			{StoreID: a.ID, Reason: "other", Note: "Sign fell down", ClientIP: "10.0.0.2"},
			{StoreID: a.ID, Reason: "other", ClientIP: "10.0.0.3"},
		} {
			_, err := svc.Submit(ctx, in)
			dbtest.Must(t, err, "submit %+v", in)
		}
		thanked, err := svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "wrong_phone", ClientIP: "10.0.0.77"})
		if err != nil || thanked.Status != "open" || thanked.ID != 0 {
			t.Fatalf("fourth report from the network: %+v %v", thanked, err)
		}
		_, err = svc.Submit(ctx, reports.Input{StoreID: b.ID, Reason: "wrong_phone", ClientIP: "10.0.0.1"})
		dbtest.Must(t, err, "another store")
		_, err = svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "permanently_closed", ClientIP: "10.0.1.2"})
		dbtest.Must(t, err, "another network")
		rows := func(id int64) (n, copies int) {
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*), COALESCE(SUM(copies), 0) FROM store_reports WHERE store_id = $1", id).Scan(&n, &copies), "count")
			return
		}
		if n, c := rows(a.ID); n != 3 || c != 4 {
			t.Fatalf("store a: %d reports, %d copies, want 3 and 4", n, c)
		}

		q, total, err := svc.Open(ctx, 1, 20)
		dbtest.Must(t, err, "open")
		if total != 2 || len(q) != 2 || q[0].Store.ID != a.ID || len(q[0].Reports) != 3 || q[1].Store.ID != b.ID || len(q[1].Reports) != 1 {
			t.Fatalf("queue: %d %+v", total, q)
		}
		if q[0].Reports[0].Reason != reports.WrongHours || q[0].Store.PhoneNumber != "+12125550100" || q[0].Reports[1].Copies != 2 {
			t.Fatalf("first group: %+v", q[0])
		}
		// Paged: one store a page.
		q, total, err = svc.Open(ctx, 2, 1)
		dbtest.Must(t, err, "page 2")
		if total != 2 || len(q) != 1 || q[0].Store.ID != b.ID {
			t.Fatalf("page 2: %d %+v", total, q)
		}
		if q, _, _ = svc.Open(ctx, 3, 1); len(q) != 0 {
			t.Fatalf("page 3: %+v", q)
		}
	})
}

// A flood from many networks cannot use a store's budget up against a
// genuine shopper: past perStorePerDay new entries, repeats merge, and a
// reason the queue does not hold yet is still kept.
func TestStoreBudgetNeverShutsAShopperOut(t *testing.T) {
	t.Parallel()
	eachSetup(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *reports.Service, _ *stores.Repo, a, _ *stores.Store) {
		for i := 0; i < 40; i++ {
			_, err := svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "wrong_hours", Note: fmt.Sprintf("flood %d", i), ClientIP: fmt.Sprintf("198.51.%d.9", i)})
			dbtest.Must(t, err, "flood %d", i)
		}
		var n, copies int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*), SUM(copies) FROM store_reports WHERE store_id = $1", a.ID).Scan(&n, &copies), "count")
		if n != 31 || copies != 40 { // the first, then 30 new entries with a note; the rest merged
			t.Fatalf("after the flood: %d entries, %d copies", n, copies)
		}
		for _, reason := range []string{"wrong_hours", "wrong_location"} {
			r, err := svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: reason, Note: "genuine", ClientIP: "2001:db8:5:6::1"})
			if err != nil || r.ID == 0 {
				t.Fatalf("a genuine shopper's %s: %+v %v", reason, r, err)
			}
		}
		// Many addresses of one IPv6 /64 are one network: 10 an hour.
		var e *apperr.Error
		for i := 0; i < 11; i++ {
			_, err := svc.Submit(ctx, reports.Input{StoreID: a.ID + int64(i%2), Reason: "other", ClientIP: fmt.Sprintf("2001:db8:9:9::%x", i+1)})
			if i < 10 && err != nil {
				t.Fatalf("report %d from the /64: %v", i, err)
			}
			if i >= 10 && (!errors.As(err, &e) || e.Code != apperr.TooMany || e.RetryAfter <= 0) {
				t.Fatalf("report %d from the /64: %v, want 429", i, err)
			}
		}
	})
}

func TestResolve(t *testing.T) {
	t.Parallel()
	eachSetup(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *reports.Service, sr *stores.Repo, a, b *stores.Store) {
		var mailed []int64
		svc.Owner = func(_ context.Context, _ db.Querier, id int64) (string, error) {
			mailed = append(mailed, id)
			if id == a.ID {
				return "owner@example.com", nil
			}
			return "", nil
		}
		for _, id := range []int64{a.ID, a.ID, b.ID} {
			_, err := svc.Submit(ctx, reports.Input{StoreID: id, Reason: "wrong_phone", ClientIP: "10.0.0." + string(rune('1'+len(mailed)))})
			dbtest.Must(t, err, "submit")
		}
		if _, err := svc.Resolve(ctx, "mod@example.com", a.ID, "burn", nil, ""); code(err) != apperr.Invalid {
			t.Fatalf("unknown action: %v", err)
		}
		if _, err := svc.Resolve(ctx, "mod@example.com", a.ID, reports.FixStore, &reports.Fix{}, ""); code(err) != apperr.Invalid {
			t.Fatalf("a fix without changes: %v", err)
		}
		// An invalid fix changes nothing: the reports stay open.
		long := strings.Repeat("x", 500)
		if _, err := svc.Resolve(ctx, "mod@example.com", a.ID, reports.FixStore, &reports.Fix{Details: stores.Details{Name: &long}}, ""); code(err) != apperr.Invalid {
			t.Fatalf("a too long name: %v", err)
		}
		phone := "+12125550199"
		dec, err := svc.Resolve(ctx, "mod@example.com", a.ID, reports.FixStore, &reports.Fix{PhoneNumber: &phone}, "called them")
		dbtest.Must(t, err, "fix")
		if dec.Reports != 2 || dec.Status != "accepted" || !dec.Notified {
			t.Fatalf("fix decision %+v", dec)
		}
		st, err := sr.Get(ctx, a.ID)
		dbtest.Must(t, err, "store")
		doc, err := sr.PublishedDoc(ctx, a.ID)
		dbtest.Must(t, err, "doc")
		if st.PhoneNumber != phone || !strings.Contains(string(doc), phone) {
			t.Fatalf("fix not written: %q %s", st.PhoneNumber, doc)
		}
		// A moderator's fix verifies the store (shown as "Verified ...").
		if st.VerifiedAt == nil || time.Since(*st.VerifiedAt) > time.Minute || !strings.Contains(string(doc), `"last_verified_at"`) {
			t.Fatalf("fix did not verify the store: %v %s", st.VerifiedAt, doc)
		}
		if _, err := svc.Resolve(ctx, "mod@example.com", a.ID, reports.Dismiss, nil, ""); code(err) != apperr.Conflict {
			t.Fatalf("nothing left to resolve: %v", err)
		}
		_, err = svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "permanently_closed", ClientIP: "10.9.9.9"})
		dbtest.Must(t, err, "submit")
		dec, err = svc.Resolve(ctx, "mod@example.com", a.ID, reports.Close, nil, "")
		dbtest.Must(t, err, "close")
		if st, _ := sr.Get(ctx, a.ID); !st.PermanentlyClosed || st.Status != stores.Published || !dec.Notified {
			t.Fatalf("close: %+v %+v", st, dec)
		}
		dec, err = svc.Resolve(ctx, "mod@example.com", b.ID, reports.Hide, nil, "")
		dbtest.Must(t, err, "hide")
		if st, _ := sr.Get(ctx, b.ID); st.Status != stores.Hidden || dec.Notified {
			t.Fatalf("hide: %+v %+v", st, dec)
		}
		// The audit log and the owner's mail.
		var actions []string
		rows, err := d.Query(ctx, "SELECT action, details, COALESCE(store_id, 0) FROM audit_log ORDER BY id")
		dbtest.Must(t, err, "audit")
		for rows.Next() {
			var action, details string
			var storeID int64
			dbtest.Must(t, rows.Scan(&action, &details, &storeID), "scan")
			actions = append(actions, action)
			if want := map[string]int64{"report.fix": a.ID, "report.close": a.ID, "report.hide": b.ID}[action]; storeID != want {
				t.Errorf("%s audit entry names store %d, want %d", action, storeID, want)
			}
			if action == "report.fix" && !strings.Contains(details, `"last_verified_at":null`) {
				t.Errorf("fix audit without the verification: %s", details)
			}
			if action == "report.fix" && (!strings.Contains(details, `"phone_number":"+12125550100"`) || !strings.Contains(details, `"phone_number":"+12125550199"`)) {
				t.Errorf("fix audit without old and new values: %s", details)
			}
		}
		rows.Close()
		if strings.Join(actions, ",") != "report.fix,report.close,report.hide" {
			t.Fatalf("audit %v", actions)
		}
		var subject string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT subject FROM outbox WHERE to_addr = 'owner@example.com' ORDER BY id LIMIT 1").Scan(&subject), "mail")
		if subject != "A report about Cloud Nine was accepted" {
			t.Fatalf("mail %q", subject)
		}
		q, _, err := svc.Open(ctx, 1, 20)
		dbtest.Must(t, err, "open")
		if len(q) != 0 {
			t.Fatalf("queue after resolving: %+v", q)
		}
	})
}

func TestOwnerFromClaims(t *testing.T) {
	t.Parallel()
	eachSetup(t, func(t *testing.T, ctx context.Context, d *db.DB, _ *reports.Service, _ *stores.Repo, a, b *stores.Store) {
		now := time.Now().UTC()
		_, err := d.Exec(ctx, `INSERT INTO claims (business_name, email, phone, country, address1, city, postal_code, status, store_id, dedupe_key, created_at, updated_at, decided_at)
			VALUES ('Cloud Nine', 'owner@example.com', '1', 'US', '1 Main', 'NYC', '10001', 'approved', $1, 'k1', $2, $2, $2)`, a.ID, now)
		dbtest.Must(t, err, "claim")
		if got, err := reports.OwnerFromClaims(ctx, d, a.ID); err != nil || got != "owner@example.com" {
			t.Fatalf("owner of a: %q %v", got, err)
		}
		if got, err := reports.OwnerFromClaims(ctx, d, b.ID); err != nil || got != "" {
			t.Fatalf("owner of b: %q %v", got, err)
		}
		// A claimant waiting for consent, or declined, is not the owner even
		// when no account is linked (the owners were all removed).
		for i, consent := range []string{"pending", "declined"} {
			_, err = d.Exec(ctx, `INSERT INTO claims (business_name, email, phone, country, address1, city, postal_code, status, store_id, dedupe_key, created_at, updated_at, decided_at, consent)
				VALUES ('Stranger', $1, '1', 'US', '2 Main', 'NYC', '10001', 'approved', $2, $3, $4, $4, $4, $5)`,
				consent+"@example.com", b.ID, fmt.Sprintf("s%d", i), now.Add(time.Duration(i)*time.Minute), consent)
			dbtest.Must(t, err, "claim waiting for consent")
		}
		if got, err := reports.OwnerFromClaims(ctx, d, b.ID); err != nil || got != "" {
			t.Fatalf("owner of b with only a pending and a declined claim: %q %v", got, err)
		}
		// A business account linked to the store (its own email, which may
		// differ from the claim's) comes first; the latest link wins.
		link := func(email string, at time.Time, storeID int64) {
			id := identitytest.Business(t, d, email, at)
			_, err := d.Exec(ctx, "INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')", id, storeID, at)
			dbtest.Must(t, err, "link")
		}
		link("first@example.com", now.Add(-time.Hour), a.ID)
		link("manager@example.com", now, a.ID)
		link("linked@example.com", now, b.ID)
		if got, err := reports.OwnerFromClaims(ctx, d, a.ID); err != nil || got != "manager@example.com" {
			t.Fatalf("owner of a with links: %q %v", got, err)
		}
		if got, err := reports.OwnerFromClaims(ctx, d, b.ID); err != nil || got != "linked@example.com" {
			t.Fatalf("owner of b, linked without a claim: %q %v", got, err)
		}
	})
}

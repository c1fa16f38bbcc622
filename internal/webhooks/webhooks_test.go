package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/catalog/catalogtest"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/partners"
	"locator/internal/reviews"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
	"locator/internal/webhooks"
)

// received is one request a test receiver got.
type received struct {
	id, ts, sig, body string
}

// receiver is a local https receiver (httptest.NewTLSServer) that answers
// each request with the next status of answers (the last one repeated).
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     []received
	answers []int
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	r := &receiver{answers: answers}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Get("Webhook-Id"), req.Header.Get("Webhook-Timestamp"), req.Header.Get("Webhook-Signature"), string(b)})
		status := r.answers[min(len(r.got), len(r.answers))-1]
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// testGuard lets the local receiver through, as only tests may.
var testGuard = webhooks.Guard{AllowLoopback: true}

// worker is a delivery worker at the time *now, trusting the receiver's
// certificate, with the guard given. Its attempts may take 30 s: the local
// receivers answer at once, and a busy machine (the race detector, CI's
// two cores) once took more than 2 s for a TLS handshake, which failed an
// attempt the test expected to arrive.
func worker(d *db.DB, r *receiver, g webhooks.Guard, now *time.Time) *webhooks.Worker {
	tr := r.srv.Client().Transport.(*http.Transport).Clone()
	return &webhooks.Worker{DB: d, Log: slog.New(slog.DiscardHandler), Client: g.Client(30*time.Second, tr), Now: func() time.Time { return *now }}
}

// verify is the recipe of docs/webhooks.md: HMAC-SHA256 keyed with the
// secret over the timestamp, a dot and the raw body, hex, after "v1=".
func verify(secret string, r received) bool {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(r.ts + "." + r.body))
	want := "v1=" + hex.EncodeToString(m.Sum(nil))
	return hmac.Equal([]byte(want), []byte(r.sig))
}

func partner(t *testing.T, d *db.DB) partners.Partner {
	p, err := partners.New(d, nil).Create(context.Background(), partners.Input{Name: "Acme", Kind: "chain"})
	dbtest.Must(t, err, "partner")
	return p
}

// A store created, updated and closed through the one write path is
// fanned out to the receiver that wants those events, signed by the
// documented recipe; a receiver that wants other events gets nothing.
func TestStoreEventsAreSignedAndDelivered(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		r := newReceiver(t, 200)
		other := newReceiver(t, 200)
		p := partner(t, d)
		svc := webhooks.New(d, clock.Fixed(now), testGuard)
		h, secret, err := svc.Register(ctx, p.ID, r.srv.URL+"/hooks", []string{"store.created", "store.updated", "store.closed"})
		dbtest.Must(t, err, "register")
		if !strings.HasPrefix(secret, webhooks.SecretPrefix) || len(h.Events) != 3 {
			t.Fatalf("registered %+v %q", h, secret)
		}
		_, _, err = svc.Register(ctx, p.ID, other.srv.URL, []string{"review.published"})
		dbtest.Must(t, err, "register other")

		s := storestest.CloudNine()
		dbtest.Must(t, repo.Create(ctx, s), "create")
		s.Website = "https://cloudnine.example"
		dbtest.Must(t, repo.Update(ctx, s), "update")
		dbtest.Must(t, repo.Update(ctx, s), "an update that changes nothing")
		s.PermanentlyClosed = true
		dbtest.Must(t, repo.Update(ctx, s), "close")

		w := worker(d, r, testGuard, &now)
		dbtest.Must(t, w.Run(ctx), "run")
		got := r.requests()
		if len(got) != 4 || len(other.requests()) != 0 {
			t.Fatalf("receiver got %d, the other %d: %+v", len(got), len(other.requests()), got)
		}
		var types []string
		for _, g := range got {
			if !verify(secret, g) || !strings.HasPrefix(g.id, "whd_") {
				t.Fatalf("not signed by the recipe: %+v", g)
			}
			if ts, _ := strconv.ParseInt(g.ts, 10, 64); ts != now.Unix() {
				t.Errorf("timestamp %s", g.ts)
			}
			var b struct {
				Type string `json:"type"`
				Data struct {
					StoreID int64    `json:"store_id"`
					Changed []string `json:"changed_fields"`
				} `json:"data"`
			}
			dbtest.Must(t, json.Unmarshal([]byte(g.body), &b), "body")
			if b.Data.StoreID != s.ID {
				t.Errorf("store %d in %s", b.Data.StoreID, g.body)
			}
			if b.Type == "store.updated" && len(b.Data.Changed) == 0 {
				t.Errorf("an update without changed_fields: %s", g.body)
			}
			types = append(types, b.Type)
		}
		if strings.Join(types, ",") != "store.created,store.updated,store.updated,store.closed" {
			t.Fatalf("events %v", types)
		}
		if !strings.Contains(got[1].body, `"website"`) {
			t.Errorf("the website change is not named: %s", got[1].body)
		}
		list, err := svc.List(ctx, p.ID)
		dbtest.Must(t, err, "list")
		if list[1].ID != h.ID || list[1].LastStatus != "200" || list[1].LastAt == nil {
			t.Errorf("hook after delivery %+v", list[1])
		}
		// A second run sends nothing again.
		dbtest.Must(t, w.Run(ctx), "run again")
		if n := len(r.requests()); n != 4 {
			t.Fatalf("%d requests after a second run", n)
		}
	})
}

// A receiver answering 500 is retried with backoff by a new worker (a
// restart), with the same Webhook-Id and body; one that keeps failing is
// failed once 24 hours have passed since the event, and not sent again.
func TestRetriesAcrossRestartThenFail(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		r := newReceiver(t, 500, 500, 200)
		p := partner(t, d)
		svc := webhooks.New(d, clock.Fixed(now), testGuard)
		h, secret, err := svc.Register(ctx, p.ID, r.srv.URL, []string{"store.created"})
		dbtest.Must(t, err, "register")
		dbtest.Must(t, repo.Create(ctx, storestest.CloudNine()), "create")

		dbtest.Must(t, worker(d, r, testGuard, &now).Run(ctx), "first worker")
		dbtest.Must(t, worker(d, r, testGuard, &now).Run(ctx), "not due yet")
		if n := len(r.requests()); n != 1 {
			t.Fatalf("%d requests before the retry is due", n)
		}
		now = now.Add(webhooks.DefaultBase)
		dbtest.Must(t, worker(d, r, testGuard, &now).Run(ctx), "after a restart")
		now = now.Add(2 * webhooks.DefaultBase)
		dbtest.Must(t, worker(d, r, testGuard, &now).Run(ctx), "third")
		got := r.requests()
		if len(got) != 3 || got[0].id != got[2].id || got[0].body != got[2].body || !verify(secret, got[2]) {
			t.Fatalf("retries: %+v", got)
		}
		recent, err := svc.Recent(ctx, h.ID, 10)
		dbtest.Must(t, err, "recent")
		if len(recent) != 1 || recent[0].DeliveredAt == nil || recent[0].Attempts != 3 || recent[0].LastStatus != "200" {
			t.Fatalf("delivery %+v", recent)
		}

		// A receiver that answers 500 for a day.
		bad := newReceiver(t, 500)
		_, _, err = svc.Register(ctx, p.ID, bad.srv.URL, []string{"store.created"})
		dbtest.Must(t, err, "register bad")
		dbtest.Must(t, repo.Create(ctx, storestest.CloudNine()), "create")
		start := now
		for i := 0; i < 60 && now.Sub(start) < 26*time.Hour; i++ {
			dbtest.Must(t, worker(d, bad, testGuard, &now).Run(ctx), "run %d", i)
			now = now.Add(webhooks.DefaultMax)
		}
		n := len(bad.requests())
		if n < 20 || n > 40 {
			t.Fatalf("%d attempts in a day", n)
		}
		dbtest.Must(t, worker(d, bad, testGuard, &now).Run(ctx), "after failing")
		if len(bad.requests()) != n {
			t.Fatal("a failed delivery was sent again")
		}
		if got := dbtest.Texts(t, d, "|", "SELECT last_status FROM webhooks ORDER BY id DESC LIMIT 1"); got[0] != "failed: 500" {
			t.Fatalf("last status %q", got)
		}
	})
}

// The delay doubles from the base up to the bound, never past it.
func TestBackoffBounds(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := webhooks.Delay(i+1, webhooks.DefaultBase, webhooks.DefaultMax); got != w {
			t.Errorf("attempt %d: %v, want %v", i+1, got, w)
		}
	}
	if got := webhooks.Delay(1000, webhooks.DefaultBase, webhooks.DefaultMax); got != time.Hour {
		t.Errorf("attempt 1000: %v", got)
	}
}

// Registration refuses URLs that are not https or point at loopback,
// private, link-local, multicast or unspecified addresses; the test-only
// option lets a local receiver through; at delivery, a worker whose guard
// does not allow loopback never reaches it, and the delivery is retried.
func TestSSRFGuard(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "224.0.0.1", "0.0.0.0", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "100.64.0.1", "ff02::1"} {
		if (webhooks.Guard{}).Allowed(netip.MustParseAddr(a)) {
			t.Errorf("%s allowed", a)
		}
	}
	if !(webhooks.Guard{}).Allowed(netip.MustParseAddr("93.184.216.34")) || !testGuard.Allowed(netip.MustParseAddr("127.0.0.1")) || testGuard.Allowed(netip.MustParseAddr("10.0.0.1")) {
		t.Error("the guard's allowed addresses")
	}
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		p := partner(t, d)
		r := newReceiver(t, 200)
		strict := webhooks.New(d, clock.Fixed(now), webhooks.Guard{})
		for _, u := range []string{"http://example.com/hook", r.srv.URL, "https://localhost/hook", "https://10.0.0.1/x", "https://[::1]/x",
			"https://169.254.169.254/latest/meta-data", "https://user:pw@example.com/", "ftp://example.com", "", "https://0.0.0.0/", "https://127.1/"} {
			if _, _, err := strict.Register(ctx, p.ID, u, []string{"store.created"}); apperr.CodeOf(err) != apperr.Invalid || !strings.HasPrefix(err.Error(), "url:") {
				t.Errorf("%q: %v", u, err)
			}
		}
		if _, _, err := strict.Register(ctx, p.ID, "https://example.com/", []string{"store.exploded"}); apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("an unknown event: %v", err)
		}
		// Registered with the test option, delivered by a strict worker: refused at the dial.
		_, _, err := webhooks.New(d, clock.Fixed(now), testGuard).Register(ctx, p.ID, r.srv.URL, []string{"store.created"})
		dbtest.Must(t, err, "register local")
		dbtest.Must(t, repo.Create(ctx, storestest.CloudNine()), "create")
		dbtest.Must(t, worker(d, r, webhooks.Guard{}, &now).Run(ctx), "strict worker")
		if n := len(r.requests()); n != 0 {
			t.Fatalf("the strict worker reached the loopback receiver %d times", n)
		}
		st := dbtest.Texts(t, d, "|", "SELECT attempts, last_status FROM webhook_deliveries")
		if len(st) != 1 || !strings.HasPrefix(st[0], "1|") || !strings.Contains(st[0], "loopback") {
			t.Fatalf("delivery after a refused dial: %q", st)
		}
	})
}

// A receiver that hangs is cut off by the client's timeout, and retried.
func TestHangingReceiverTimesOut(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		release := make(chan struct{})
		srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		t.Cleanup(func() { close(release); srv.Close() })
		p := partner(t, d)
		_, _, err := webhooks.New(d, clock.Fixed(now), testGuard).Register(ctx, p.ID, srv.URL, []string{"store.created"})
		dbtest.Must(t, err, "register")
		dbtest.Must(t, repo.Create(ctx, storestest.CloudNine()), "create")
		tr := srv.Client().Transport.(*http.Transport).Clone()
		w := &webhooks.Worker{DB: d, Log: slog.New(slog.DiscardHandler), Client: testGuard.Client(300*time.Millisecond, tr), Now: func() time.Time { return now }}
		start := time.Now()
		dbtest.Must(t, w.Run(ctx), "run")
		if el := time.Since(start); el > 5*time.Second {
			t.Fatalf("the worker waited %v", el)
		}
		st := dbtest.Texts(t, d, "|", "SELECT attempts, delivered_at IS NULL, failed_at IS NULL FROM webhook_deliveries")
		if len(st) != 1 || (st[0] != "1|true|true" && st[0] != "1|1|1") {
			t.Fatalf("delivery after a timeout: %q", st)
		}
	})
}

// The stock and licence write paths fire their events: a stock row put
// through inventory (one stock.changed per store), a licence record set
// through the stores' writer (licence.changed; setting the same record
// again changes nothing and fires nothing).
func TestStockAndLicenceEvents(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		r := newReceiver(t, 200)
		p := partner(t, d)
		_, _, err := webhooks.New(d, clock.Fixed(now), testGuard).Register(ctx, p.ID, r.srv.URL, []string{"stock.changed", "licence.changed"})
		dbtest.Must(t, err, "register")
		s := storestest.CloudNine()
		dbtest.Must(t, repo.Create(ctx, s), "create")
		cat := catalogtest.Imported(t, d)
		idx, err := cat.Index(ctx)
		dbtest.Must(t, err, "catalogue keys")
		mango, _, _ := idx.ByID("nx-mango-5")
		dbtest.Must(t, inventory.NewRepo(repo, cat).Put(ctx, []inventory.Row{{StoreID: s.ID, ProductID: mango, Availability: inventory.InStock, ReportedAt: now}}), "stock")
		rec := stores.LicenceRecord{Licence: &stores.Licence{Status: "active", Jurisdiction: "NY", Kind: "retail", Number: "L-1", CheckedAt: "2026-12-01"}}
		for range 2 {
			dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
				return repo.Write(ctx, tx, func(w *stores.Writer) error { _, err := w.SetLicence(ctx, s.ID, rec, "2026-12-03"); return err })
			}), "licence")
		}
		dbtest.Must(t, worker(d, r, testGuard, &now).Run(ctx), "run")
		var types []string
		for _, g := range r.requests() {
			var b struct {
				Type string `json:"type"`
				Data struct {
					StoreID int64 `json:"store_id"`
				} `json:"data"`
			}
			dbtest.Must(t, json.Unmarshal([]byte(g.body), &b), "body")
			if b.Data.StoreID != s.ID {
				t.Errorf("store in %s", g.body)
			}
			types = append(types, b.Type)
		}
		if strings.Join(types, ",") != "stock.changed,licence.changed" {
			t.Fatalf("events %v", types)
		}
	})
}

// A member's review published at once is fanned out, signed, to the
// receiver that wants review.published (with the review's store, id,
// rating and text); a review held for a moderator is not, until a
// moderator keeps it; a receiver that wants other events gets nothing.
func TestReviewPublishedEvent(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		now := time.Now().UTC()
		r := newReceiver(t, 200)
		other := newReceiver(t, 200)
		p := partner(t, d)
		svc := webhooks.New(d, clock.Fixed(now), testGuard)
		_, secret, err := svc.Register(ctx, p.ID, r.srv.URL+"/reviews", []string{"review.published"})
		dbtest.Must(t, err, "register")
		_, _, err = svc.Register(ctx, p.ID, other.srv.URL, []string{"store.updated", "stock.changed"})
		dbtest.Must(t, err, "register other")
		s := storestest.CloudNine()
		dbtest.Must(t, repo.Create(ctx, s), "create")
		w := worker(d, r, testGuard, &now)
		dbtest.Must(t, w.Run(ctx), "run: the store's creation, wanted by nobody")

		member := func(email string) reviews.Author {
			since := now.Add(-90 * 24 * time.Hour)
			var id int64
			dbtest.Must(t, d.QueryRow(ctx, `INSERT INTO customers (email, first_name, last_name, phone, password_hash, created_at,
				updated_at, email_verified_at) VALUES ($1, 'Ada', 'Lovelace', '', 'x', $2, $2, $2) RETURNING id`, email, since).Scan(&id), "member")
			return reviews.Author{ID: id, Email: email, FirstName: "Ada", LastName: "Lovelace", Proven: true, Since: since}
		}
		rr := reviews.New(d, repo, clock.Fixed(now), "")
		published, err := rr.Write(ctx, member("ada@example.com"), s.ID, reviews.Input{Rating: 5, Content: "Friendly staff and fair prices."}, "203.0.113.0")
		dbtest.Must(t, err, "a review published at once")
		held, err := rr.Write(ctx, member("bea@example.com"), s.ID, reviews.Input{Rating: 2, Content: "Write to me at bea@example.com about it."}, "203.0.113.0")
		dbtest.Must(t, err, "a review held")
		if published.Status != reviews.Approved || held.Status != reviews.Held {
			t.Fatalf("statuses %q and %q", published.Status, held.Status)
		}
		dbtest.Must(t, w.Run(ctx), "run")
		type body struct {
			ID   string `json:"id"`
			Type string `json:"type"`
			Data struct {
				StoreID  int64  `json:"store_id"`
				ReviewID int64  `json:"review_id"`
				Rating   int    `json:"rating"`
				Content  string `json:"content"`
			} `json:"data"`
		}
		check := func(want ...*reviews.Review) {
			t.Helper()
			got := r.requests()
			if len(got) != len(want) {
				t.Fatalf("%d deliveries, want %d: %+v", len(got), len(want), got)
			}
			for i, g := range got {
				var b body
				dbtest.Must(t, json.Unmarshal([]byte(g.body), &b), "body")
				if !verify(secret, g) || !strings.HasPrefix(g.id, "whd_") || !strings.HasPrefix(b.ID, "evt_") {
					t.Errorf("not signed by the recipe: %+v", g)
				}
				if b.Type != "review.published" || b.Data.StoreID != s.ID || b.Data.ReviewID != want[i].ID ||
					b.Data.Rating != want[i].Rating || b.Data.Content != want[i].Content {
					t.Errorf("delivery %d: %s, want review %d", i, g.body, want[i].ID)
				}
			}
		}
		check(published)

		kept, err := rr.Decide(ctx, held.ID, "keep", "screen-mistake", "moderator:1:mod@example.com")
		dbtest.Must(t, err, "keep the held review")
		dbtest.Must(t, w.Run(ctx), "run after keeping")
		check(published, kept)
		if n := len(other.requests()); n != 0 {
			t.Errorf("the receiver of other events got %d deliveries", n)
		}
	})
}

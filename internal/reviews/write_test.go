package reviews_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/ownership"
	"locator/internal/reviews"
	"locator/internal/stores"
)

// world is a database with published stores, one hidden store, and a
// clock the test moves.
type world struct {
	t      *testing.T
	d      *db.DB
	sr     *stores.Repo
	rr     *reviews.Repo
	at     *atomic.Int64 // the clock, in Unix nanoseconds
	stores []*stores.Store
	hidden *stores.Store
	n      int // accounts made so far
}

var start = time.Date(2026, 11, 2, 15, 0, 0, 0, time.UTC)

func newWorld(t *testing.T, d *db.DB, nStores int) *world {
	t.Helper()
	w := &world{t: t, d: d, sr: stores.NewRepo(d), at: &atomic.Int64{}}
	w.at.Store(start.UnixNano())
	clk := clock.Clock(func() time.Time { return time.Unix(0, w.at.Load()).UTC() })
	w.rr = reviews.New(d, w.sr, clk, "https://locator.test")
	var all []*stores.Store
	for i := range nStores {
		all = append(all, &stores.Store{Name: fmt.Sprintf("Cloud %d", i), StoreID: fmt.Sprintf("c%d", i),
			Latitude: 40.7, Longitude: -74 + float64(i)/100, TimeZone: "America/New_York"})
	}
	w.hidden = &stores.Store{Name: "Hidden", StoreID: "hidden", Latitude: 40.7, Longitude: -73, TimeZone: "America/New_York", Status: stores.Hidden}
	dbtest.Must(t, w.sr.SaveAll(t.Context(), append(all, w.hidden)), "stores")
	w.stores = all
	return w
}

// eachWorld runs fn on a fresh world of nStores stores on each engine.
func eachWorld(t *testing.T, nStores int, fn func(t *testing.T, ctx context.Context, w *world)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, t.Context(), newWorld(t, d, nStores)) })
}

func (w *world) now() time.Time { return time.Unix(0, w.at.Load()).UTC() }

func (w *world) advance(d time.Duration) { w.at.Add(int64(d)) }

// regular makes the usual reviewer: a proven member of 90 days.
func (w *world) regular(first, last string) reviews.Author {
	w.t.Helper()
	return w.member(first, last, 90*24*time.Hour, true)
}

// member makes a member whose account is age old, proven or not.
func (w *world) member(first, last string, age time.Duration, proven bool) reviews.Author {
	w.t.Helper()
	w.n++
	email := fmt.Sprintf("m%d@example.com", w.n)
	since := w.now().Add(-age)
	var verified any
	if proven {
		verified = since
	}
	var id int64
	dbtest.Must(w.t, w.d.QueryRow(w.t.Context(), `INSERT INTO customers (email, first_name, last_name, phone, password_hash, created_at,
		updated_at, email_verified_at) VALUES ($1, $2, $3, '', 'x', $4, $4, $5) RETURNING id`, email, first, last, since, verified).Scan(&id), "member")
	return reviews.Author{ID: id, Email: email, FirstName: first, LastName: last, Proven: proven, Since: since}
}

// owner makes a proven business account owning store storeID.
func (w *world) owner(email string, storeID int64, proven bool) int64 {
	w.t.Helper()
	var verified any
	if proven {
		verified = w.now()
	}
	var id int64
	dbtest.Must(w.t, w.d.QueryRow(w.t.Context(), `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at,
		email_verified_at) VALUES ($1, 'Shop', '', 'x', $2, $3) RETURNING id`, email, w.now(), verified).Scan(&id), "owner")
	_, err := ownership.Link(w.t.Context(), w.d, id, storeID, w.now(), "test")
	dbtest.Must(w.t, err, "link")
	return id
}

// rows counts the reviews of store id by status.
func (w *world) rows(id int64) map[string]int {
	w.t.Helper()
	rows, err := w.d.Query(w.t.Context(), "SELECT status, COUNT(*) FROM reviews WHERE store_id = $1 GROUP BY status", id)
	dbtest.Must(w.t, err, "count")
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		dbtest.Must(w.t, rows.Scan(&s, &n), "scan")
		out[s] = n
	}
	return out
}

// rating is the store's rating as its row (and so the search document) keeps it.
func (w *world) rating(id int64) (sum, count int64) {
	w.t.Helper()
	dbtest.Must(w.t, w.d.QueryRow(w.t.Context(), "SELECT rating_sum, review_count FROM stores WHERE id = $1", id).Scan(&sum, &count), "rating")
	return sum, count
}

func wantCode(t *testing.T, what string, err error, code apperr.Code) {
	t.Helper()
	if apperr.CodeOf(err) != code {
		t.Fatalf("%s: %v (%s), want %s", what, err, apperr.CodeOf(err), code)
	}
	if e, ok := apperr.As(err); !ok || e.Message == "" {
		t.Fatalf("%s: no message for the user: %v", what, err)
	}
}

const fine = "Friendly staff and a good choice of pods."

func TestWriteEditDelete(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		ann := w.regular("Ann", "lee")
		rv, err := w.rr.Write(ctx, ann, st.ID, reviews.Input{Rating: 4, Content: "  " + fine + "  "}, "203.0.113.0/24")
		dbtest.Must(t, err, "write")
		if rv.Status != reviews.Approved || rv.Content != fine || rv.CustomerFirstName != "Ann" || rv.CustomerLastName != "L." || rv.Sample {
			t.Fatalf("written %+v", rv)
		}
		if sum, n := w.rating(st.ID); sum != 4 || n != 1 {
			t.Fatalf("rating %d/%d", sum, n)
		}
		list, _, err := w.rr.List(ctx, st.ID, 0, 10)
		dbtest.Must(t, err, "list")
		if len(list) != 1 || list[0].MemberID != ann.ID || !list[0].EditedAt.IsZero() || list[0].CreatedAt != start {
			t.Fatalf("list %+v", list)
		}

		w.advance(time.Hour)
		ed, err := w.rr.Edit(ctx, ann, st.ID, reviews.Input{Rating: 2, Content: "Pods were out of stock twice."})
		dbtest.Must(t, err, "edit")
		mine, err := w.rr.Mine(ctx, ann.ID, st.ID)
		dbtest.Must(t, err, "mine")
		if ed.Rating != 2 || !mine.EditedAt.Equal(start.Add(time.Hour)) || mine.Rating != 2 || !mine.CreatedAt.Equal(start) {
			t.Fatalf("edited %+v, read back %+v", ed, mine)
		}
		if sum, n := w.rating(st.ID); sum != 2 || n != 1 {
			t.Fatalf("rating after edit %d/%d", sum, n)
		}

		dbtest.Must(t, w.rr.Delete(ctx, ann.ID, st.ID), "delete")
		if sum, n := w.rating(st.ID); sum != 0 || n != 0 {
			t.Fatalf("rating after delete %d/%d", sum, n)
		}
		wantCode(t, "delete twice", w.rr.Delete(ctx, ann.ID, st.ID), apperr.NotFound)
		_, err = w.rr.Edit(ctx, ann, st.ID, reviews.Input{Rating: 3, Content: fine})
		wantCode(t, "edit deleted", err, apperr.NotFound)
		// Deleted, it may be written again.
		_, err = w.rr.Write(ctx, ann, st.ID, reviews.Input{Rating: 5, Content: fine}, "203.0.113.0/24")
		dbtest.Must(t, err, "write again")
	})
}

func TestWriteRefusesAndStoresNothing(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		ann := w.regular("Ann", "Lee")
		for _, c := range []struct {
			what string
			in   reviews.Input
		}{
			{"rating 0", reviews.Input{Rating: 0, Content: fine}},
			{"rating 6", reviews.Input{Rating: 6, Content: fine}},
			{"empty", reviews.Input{Rating: 3, Content: "   "}},
			{"nine characters trimmed", reviews.Input{Rating: 3, Content: " too short "}},
			{"nine characters", reviews.Input{Rating: 3, Content: "123456789"}},
			{"over-long", reviews.Input{Rating: 3, Content: strings.Repeat("é", reviews.MaxTextLen+1)}},
			{"NUL", reviews.Input{Rating: 3, Content: "fine text\x00 here"}},
			{"control", reviews.Input{Rating: 3, Content: "fine text\x1b[31m here"}},
		} {
			_, err := w.rr.Write(ctx, ann, st.ID, c.in, "")
			wantCode(t, c.what, err, apperr.Invalid)
		}
		// The longest text is allowed (characters, not bytes).
		long := reviews.Input{Rating: 3, Content: strings.Repeat("é", reviews.MaxTextLen)}
		unproven := w.member("Bob", "Ray", 90*24*time.Hour, false)
		_, err := w.rr.Write(ctx, unproven, st.ID, long, "")
		wantCode(t, "unproven", err, apperr.Forbidden)
		_, err = w.rr.Write(ctx, ann, 999999, long, "")
		wantCode(t, "unknown store", err, apperr.NotFound)
		_, err = w.rr.Write(ctx, ann, w.hidden.ID, long, "")
		wantCode(t, "hidden store", err, apperr.NotFound)
		if got := w.rows(st.ID); len(got) != 0 {
			t.Fatalf("refusals stored %v", got)
		}
		_, err = w.rr.Write(ctx, ann, st.ID, long, "")
		dbtest.Must(t, err, "longest text")
		_, err = w.rr.Write(ctx, ann, st.ID, reviews.Input{Rating: 1, Content: fine}, "")
		wantCode(t, "second review", err, apperr.Conflict)
		if got := w.rows(st.ID); got[reviews.Approved] != 1 || len(got) != 1 {
			t.Fatalf("after a duplicate: %v", got)
		}
		if sum, n := w.rating(st.ID); sum != 3 || n != 1 {
			t.Fatalf("rating %d/%d", sum, n)
		}
	})
}

// Insider reviews: a member whose address is that of an owner or co-owner
// of the store may not review it; the owner of another store may.
func TestInsiderReviewsRefused(t *testing.T) {
	t.Parallel()
	eachWorld(t, 2, func(t *testing.T, ctx context.Context, w *world) {
		a, b := w.stores[0], w.stores[1]
		owner := w.regular("Olga", "Owner")
		co := w.regular("Carl", "Co")
		w.owner(owner.Email, a.ID, true)
		w.owner(co.Email, a.ID, false) // a co-owner, even one not proven yet
		// The address as the member typed it, in another case.
		shouting := owner
		shouting.Email = strings.ToUpper(owner.Email)
		for _, m := range []reviews.Author{owner, co, shouting} {
			_, err := w.rr.Write(ctx, m, a.ID, reviews.Input{Rating: 5, Content: "Best store in town, go there!"}, "")
			wantCode(t, "insider "+m.Email, err, apperr.Forbidden)
		}
		if got := w.rows(a.ID); len(got) != 0 {
			t.Fatalf("insider reviews stored: %v", got)
		}
		_, err := w.rr.Write(ctx, owner, b.ID, reviews.Input{Rating: 4, Content: "A neighbour's shop, nicely kept."}, "")
		dbtest.Must(t, err, "the owner reviews another store")
	})
}

func TestScreen(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		fine: "",
		"Open late, prices fair ($19.99 a pack), 5 stars in 2024.": "",
		"Call Joe at (212) 555-0123 for deals":                     reviews.HeldPhone,
		"text me 212.555.0123":                                     reviews.HeldPhone,
		"ring 555-0123 and ask":                                    reviews.HeldPhone,
		"mail joe.doe@example.com for deals":                       reviews.HeldEmail,
		"These pods helped me quit smoking!":                       reviews.HeldHealth,
		"Vaping here cured my cough":                               reviews.HeldHealth,
		"Way safer than cigarettes":                                reviews.HeldHealth,
		"Good for smoking cessation":                               reviews.HeldHealth,
		"a healthier alternative":                                  reviews.HeldHealth,
		"The staff treats everyone well":                           "",
		"Securely packed, curbside pickup was quick":               "",
	} {
		if got := reviews.Screen(text); got != want {
			t.Errorf("Screen(%q) = %q, want %q", text, got, want)
		}
	}
}

// Screening holds a review, tells its author why, and leaves the rating
// alone; an edit that trips it holds a published review; an edit never
// publishes a held one.
func TestScreeningHolds(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		ann := w.regular("Ann", "Lee")
		rv, err := w.rr.Write(ctx, ann, st.ID, reviews.Input{Rating: 5, Content: "These pods helped me quit smoking!"}, "")
		dbtest.Must(t, err, "write")
		if rv.Status != reviews.Held || rv.HeldReason != reviews.HeldHealth {
			t.Fatalf("held %+v", rv)
		}
		mine, err := w.rr.Mine(ctx, ann.ID, st.ID)
		dbtest.Must(t, err, "mine")
		if mine.Status != reviews.Held || mine.HeldReason != reviews.HeldHealth {
			t.Fatalf("the author reads %+v", mine)
		}
		if list, _, _ := w.rr.List(ctx, st.ID, 0, 10); len(list) != 0 {
			t.Fatalf("a held review is listed: %+v", list)
		}
		if sum, n := w.rating(st.ID); sum != 0 || n != 0 {
			t.Fatalf("held review counted: %d/%d", sum, n)
		}
		ed, err := w.rr.Edit(ctx, ann, st.ID, reviews.Input{Rating: 5, Content: fine})
		dbtest.Must(t, err, "edit held")
		if ed.Status != reviews.Held {
			t.Fatalf("an edit published a held review: %+v", ed)
		}

		bob := w.regular("Bob", "Ray")
		_, err = w.rr.Write(ctx, bob, st.ID, reviews.Input{Rating: 4, Content: fine}, "")
		dbtest.Must(t, err, "write clean")
		ed, err = w.rr.Edit(ctx, bob, st.ID, reviews.Input{Rating: 4, Content: "Ask for Joe: joe@example.com"})
		dbtest.Must(t, err, "edit with an email")
		if ed.Status != reviews.Held || ed.HeldReason != reviews.HeldEmail {
			t.Fatalf("edit not held: %+v", ed)
		}
		if sum, n := w.rating(st.ID); sum != 0 || n != 0 {
			t.Fatalf("rating after the held edit %d/%d", sum, n)
		}
	})
}

// The flood: 20 accounts made today each try to review 10 stores (200
// reviews). Each account writes MemberDailyCap (5) and is refused the
// other 5; each of the 5 stores reviewed gets BurstPublished (3)
// published and the rest held. From one network, NetworkDailyCap (20)
// reviews pass in all. Older accounts are not held by the burst rule,
// and a day later the caps open again.
func TestFlood(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                     string
		oneNetwork               bool
		published, held, refused int
	}{
		{"a network each", false, 15, 85, 100},
		{"one network", true, 15, 5, 180},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			eachWorld(t, 10, func(t *testing.T, ctx context.Context, w *world) {
				got := map[string]int{}
				for a := range 20 {
					m := w.member("New", "Comer", 2*time.Hour, true)
					network := fmt.Sprintf("198.51.%d.0/24", a)
					if c.oneNetwork {
						network = "192.0.2.0/24"
					}
					for _, st := range w.stores {
						w.advance(time.Minute)
						rv, err := w.rr.Write(ctx, m, st.ID, reviews.Input{Rating: 5, Content: "Great store, great prices!"}, network)
						switch {
						case err == nil:
							got[rv.Status]++
						case apperr.CodeOf(err) == apperr.TooMany:
							got["refused"]++
						default:
							t.Fatalf("account %d, store %d: %v", a, st.ID, err)
						}
					}
				}
				if got[reviews.Approved] != c.published || got[reviews.Held] != c.held || got["refused"] != c.refused {
					t.Fatalf("flood: %v, want %d published, %d held, %d refused", got, c.published, c.held, c.refused)
				}
				var stored int
				dbtest.Must(t, w.d.QueryRow(ctx, "SELECT COUNT(*) FROM reviews").Scan(&stored), "count")
				if stored != c.published+c.held {
					t.Fatalf("%d rows stored", stored)
				}
				for i, st := range w.stores {
					want := int64(0)
					if i < 5 {
						want = 3
					}
					if _, n := w.rating(st.ID); n != want {
						t.Errorf("store %d counts %d reviews, want %d", i, n, want)
					}
				}
				// An established account is not held by the burst rule.
				old := w.member("Old", "Timer", 400*24*time.Hour, true)
				rv, err := w.rr.Write(ctx, old, w.stores[0].ID, reviews.Input{Rating: 4, Content: fine}, "100.64.0.0/24")
				dbtest.Must(t, err, "established account")
				if rv.Status != reviews.Approved {
					t.Fatalf("established account held: %+v", rv)
				}
				// A day later a new account's review is published again.
				w.advance(reviews.LimitWindow + time.Minute)
				late := w.member("Late", "Comer", time.Hour, true)
				network := "192.0.2.0/24"
				rv, err = w.rr.Write(ctx, late, w.stores[0].ID, reviews.Input{Rating: 4, Content: fine}, network)
				dbtest.Must(t, err, "a day later")
				if rv.Status != reviews.Approved {
					t.Fatalf("a day later: %+v", rv)
				}
				// Housekeeping forgets the networks of the day before, not today's.
				dbtest.Must(t, w.rr.ForgetNetworks(ctx), "forget networks")
				var kept int
				dbtest.Must(t, w.d.QueryRow(ctx, "SELECT COUNT(*) FROM reviews WHERE network <> ''").Scan(&kept), "networks")
				if kept != 1 {
					t.Fatalf("%d reviews keep a network, want today's one", kept)
				}
			})
		})
	}
}

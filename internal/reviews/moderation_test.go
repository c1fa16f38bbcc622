package reviews_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db/dbtest"
	"locator/internal/reviews"
)

// outbox lists the recipients and subjects of the queued mail.
func (w *world) outbox() []string {
	w.t.Helper()
	rows, err := w.d.Query(w.t.Context(), "SELECT to_addr, subject FROM outbox ORDER BY id")
	dbtest.Must(w.t, err, "outbox")
	defer rows.Close()
	var out []string
	for rows.Next() {
		var to, subject string
		dbtest.Must(w.t, rows.Scan(&to, &subject), "scan")
		out = append(out, to+" "+subject)
	}
	return out
}

// Replies: one per published review, by the store (the caller checks the
// owner), edited with a date, deleted; never to another store's review or
// a held one.
func TestReplies(t *testing.T) {
	t.Parallel()
	eachWorld(t, 2, func(t *testing.T, ctx context.Context, w *world) {
		a, b := w.stores[0], w.stores[1]
		ann := w.regular("Ann", "Lee")
		rv, err := w.rr.Write(ctx, ann, a.ID, reviews.Input{Rating: 2, Content: "Out of my usual pods again."}, "")
		dbtest.Must(t, err, "write")
		held, err := w.rr.Write(ctx, w.regular("Bob", "Ray"), a.ID,
			reviews.Input{Rating: 5, Content: "Call me at 212 555 0123"}, "")
		dbtest.Must(t, err, "write held")

		for _, c := range []struct {
			what          string
			store, review int64
			text          string
			code          apperr.Code
		}{
			{"empty", a.ID, rv.ID, "  ", apperr.Invalid},
			{"over-long", a.ID, rv.ID, strings.Repeat("x", reviews.MaxReplyLen+1), apperr.Invalid},
			{"NUL", a.ID, rv.ID, "thanks\x00", apperr.Invalid},
			{"another store's review", b.ID, rv.ID, "Thanks!", apperr.NotFound},
			{"a held review", a.ID, held.ID, "Thanks!", apperr.NotFound},
			{"no such review", a.ID, 999999, "Thanks!", apperr.NotFound},
		} {
			_, err := w.rr.SetReply(ctx, c.store, c.review, c.text)
			wantCode(t, c.what, err, c.code)
		}
		wantCode(t, "delete a reply that is not there", w.rr.DeleteReply(ctx, a.ID, rv.ID), apperr.NotFound)

		w.advance(time.Hour)
		_, err = w.rr.SetReply(ctx, a.ID, rv.ID, "  Sorry! New stock arrives on Mondays.  ")
		dbtest.Must(t, err, "reply")
		w.advance(time.Hour)
		_, err = w.rr.SetReply(ctx, a.ID, rv.ID, "Sorry! New stock arrives on Mondays and Thursdays.")
		dbtest.Must(t, err, "edit reply")
		list, _, err := w.rr.List(ctx, a.ID, 0, 10)
		dbtest.Must(t, err, "list")
		if len(list) != 1 || list[0].Reply.Text != "Sorry! New stock arrives on Mondays and Thursdays." ||
			!list[0].Reply.At.Equal(start.Add(time.Hour)) || !list[0].Reply.EditedAt.Equal(start.Add(2*time.Hour)) {
			t.Fatalf("reply as listed: %+v", list)
		}
		// The review itself is untouched by the reply.
		if list[0].Content != "Out of my usual pods again." || list[0].Rating != 2 || !list[0].EditedAt.IsZero() {
			t.Fatalf("the reply changed the review: %+v", list[0])
		}
		dbtest.Must(t, w.rr.DeleteReply(ctx, a.ID, rv.ID), "delete reply")
		list, _, _ = w.rr.List(ctx, a.ID, 0, 10)
		if list[0].Reply.Text != "" || !list[0].Reply.At.IsZero() {
			t.Fatalf("reply after delete: %+v", list[0].Reply)
		}
	})
}

// Owners are mailed each new published review unless they switched it off;
// an unproven owner and a held review mail nobody.
func TestOwnerMail(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		on := w.owner("on@shop.example", st.ID, true)
		off := w.owner("off@shop.example", st.ID, true)
		w.owner("unproven@shop.example", st.ID, false)
		dbtest.Must(t, w.rr.SetMailEnabled(ctx, off, false), "switch off")
		if got, err := w.rr.MailEnabled(ctx, off); err != nil || got {
			t.Fatalf("switched off reads %v, %v", got, err)
		}
		if got, err := w.rr.MailEnabled(ctx, on); err != nil || !got {
			t.Fatalf("default reads %v, %v", got, err)
		}
		_, err := w.rr.Write(ctx, w.regular("Ann", "Lee"), st.ID, reviews.Input{Rating: 4, Content: fine}, "")
		dbtest.Must(t, err, "write")
		heldRv, err := w.rr.Write(ctx, w.regular("Bob", "Ray"), st.ID, reviews.Input{Rating: 1, Content: "It cures nothing"}, "")
		dbtest.Must(t, err, "write held")
		if got := w.outbox(); len(got) != 1 || got[0] != "on@shop.example New review of Cloud 0" {
			t.Fatalf("outbox %q", got)
		}
		// Published by a moderator, it is mailed then.
		_, err = w.rr.Decide(ctx, heldRv.ID, "keep", "screen-mistake", "moderator:1:mod@example.com")
		dbtest.Must(t, err, "publish")
		if got := w.outbox(); len(got) != 2 || got[1] != "on@shop.example New review of Cloud 0" {
			t.Fatalf("outbox %q", got)
		}
	})
}

// Flags: a reason from the list, once per network and review, at most
// FlagDailyCap a day per network, only on published reviews.
func TestFlags(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		var ids []int64
		for i := range reviews.FlagDailyCap + 1 {
			rv, err := w.rr.Write(ctx, w.regular("Ann", "Lee"), st.ID, reviews.Input{Rating: 3, Content: fine},
				fmt.Sprintf("198.51.%d.0/24", i))
			dbtest.Must(t, err, "write")
			ids = append(ids, rv.ID)
		}
		const net = "192.0.2.0/24"
		wantCode(t, "unknown reason", w.rr.Flag(ctx, ids[0], "boring", net), apperr.Invalid)
		wantCode(t, "no such review", w.rr.Flag(ctx, 999999, "hateful", net), apperr.NotFound)
		dbtest.Must(t, w.rr.Flag(ctx, ids[0], "hateful", net), "flag")
		wantCode(t, "twice from a network", w.rr.Flag(ctx, ids[0], "off-topic", net), apperr.Conflict)
		dbtest.Must(t, w.rr.Flag(ctx, ids[0], "off-topic", "198.51.100.0/24"), "flag from another network")
		for _, id := range ids[1:reviews.FlagDailyCap] {
			dbtest.Must(t, w.rr.Flag(ctx, id, "off-topic", net), "flag %d", id)
		}
		wantCode(t, "flag flood", w.rr.Flag(ctx, ids[reviews.FlagDailyCap], "off-topic", net), apperr.TooMany)
		var n int
		dbtest.Must(t, w.d.QueryRow(ctx, "SELECT COUNT(*) FROM review_flags").Scan(&n), "count")
		if n != reviews.FlagDailyCap+1 {
			t.Fatalf("%d flags stored", n)
		}
		w.advance(reviews.LimitWindow + time.Minute)
		dbtest.Must(t, w.rr.Flag(ctx, ids[reviews.FlagDailyCap], "off-topic", net), "a day later")
	})
}

// The queue holds held and flagged reviews with their reasons and counts;
// a removal takes a review off the list and the rating, and counts on the
// public page; a keep publishes a held review and closes flags.
func TestModeration(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		const mod = "moderator:1:mod@example.com"
		flagged, err := w.rr.Write(ctx, w.regular("Ann", "Lee"), st.ID, reviews.Input{Rating: 1, Content: "The owner is a crook, everyone knows"}, "")
		dbtest.Must(t, err, "write")
		w.advance(time.Minute)
		held, err := w.rr.Write(ctx, w.regular("Bob", "Ray"), st.ID, reviews.Input{Rating: 5, Content: "Safer than cigarettes for sure"}, "")
		dbtest.Must(t, err, "write held")
		w.advance(time.Minute)
		calm, err := w.rr.Write(ctx, w.regular("Cy", "Day"), st.ID, reviews.Input{Rating: 2, Content: "Slow service, but honest advice."}, "")
		dbtest.Must(t, err, "write calm")
		dbtest.Must(t, w.rr.Flag(ctx, flagged.ID, "hateful", "192.0.2.0/24"), "flag")
		dbtest.Must(t, w.rr.Flag(ctx, flagged.ID, "hateful", "198.51.100.0/24"), "flag")
		dbtest.Must(t, w.rr.Flag(ctx, flagged.ID, "off-topic", "203.0.113.0/24"), "flag")
		dbtest.Must(t, w.rr.Flag(ctx, calm.ID, "conflict-of-interest", "192.0.2.0/24"), "flag")

		q, err := w.rr.Queue(ctx, 50)
		dbtest.Must(t, err, "queue")
		if len(q) != 3 || q[0].ID != held.ID || q[0].HeldReason != reviews.HeldHealth || q[1].ID != flagged.ID ||
			q[1].FlagCount != 3 || q[1].Flags["hateful"] != 2 || q[1].Flags["off-topic"] != 1 || q[2].ID != calm.ID || q[0].StoreName != "Cloud 0" {
			t.Fatalf("queue %+v", q)
		}

		for _, c := range []struct{ what, action, reason string }{
			{"unknown action", "hide", "hateful"},
			{"remove for a keep reason", "remove", "honest-opinion"},
			{"keep for a removal reason", "keep", "hateful"},
			{"remove for a negative opinion", "remove", "negative"},
		} {
			_, err := w.rr.Decide(ctx, flagged.ID, c.action, c.reason, mod)
			wantCode(t, c.what, err, apperr.Invalid)
		}
		_, err = w.rr.Decide(ctx, 999999, "remove", "hateful", mod)
		wantCode(t, "no such review", err, apperr.NotFound)

		_, err = w.rr.Decide(ctx, flagged.ID, "remove", "hateful", mod)
		dbtest.Must(t, err, "remove")
		_, err = w.rr.Decide(ctx, flagged.ID, "remove", "hateful", mod)
		wantCode(t, "remove twice", err, apperr.Conflict)
		_, err = w.rr.Decide(ctx, held.ID, "keep", "screen-mistake", mod)
		dbtest.Must(t, err, "publish held")
		_, err = w.rr.Decide(ctx, calm.ID, "keep", "honest-opinion", mod)
		dbtest.Must(t, err, "keep")

		if q, _ := w.rr.Queue(ctx, 50); len(q) != 0 {
			t.Fatalf("queue after the decisions: %+v", q)
		}
		list, _, _ := w.rr.List(ctx, st.ID, 0, 10)
		if len(list) != 2 || list[0].ID != calm.ID || list[1].ID != held.ID {
			t.Fatalf("published after the decisions: %+v", list)
		}
		if sum, n := w.rating(st.ID); sum != 7 || n != 2 {
			t.Fatalf("rating %d/%d", sum, n)
		}
		// The author reads why.
		mine, err := w.rr.Mine(ctx, flagged.MemberID, st.ID)
		dbtest.Must(t, err, "mine")
		if mine.Status != reviews.Removed || !strings.Contains(mine.HeldReason, "Hateful") {
			t.Fatalf("the author reads %+v", mine)
		}
		_, err = w.rr.Edit(ctx, reviews.Author{ID: flagged.MemberID, Proven: true}, st.ID, reviews.Input{Rating: 3, Content: fine})
		wantCode(t, "edit a removed review", err, apperr.Conflict)

		// The public page: one removal this month, still counted after the
		// author deletes the review; another next month.
		dbtest.Must(t, w.rr.Delete(ctx, flagged.MemberID, st.ID), "the author deletes it")
		w.advance(31 * 24 * time.Hour)
		dbtest.Must(t, w.rr.Flag(ctx, calm.ID, "personal-information", "100.64.0.0/24"), "flag again")
		_, err = w.rr.Decide(ctx, calm.ID, "remove", "personal-information", mod)
		dbtest.Must(t, err, "remove next month")
		got, err := w.rr.Removals(ctx, 12)
		dbtest.Must(t, err, "removals")
		want := []reviews.MonthCount{{Month: "2026-12", Reason: "personal-information", Count: 1}, {Month: "2026-11", Reason: "hateful", Count: 1}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("removals %v, want %v", got, want)
		}
	})
}

func TestListSorted(t *testing.T) {
	t.Parallel()
	eachWorld(t, 1, func(t *testing.T, ctx context.Context, w *world) {
		st := w.stores[0]
		for _, rating := range []int{3, 5, 1, 4} {
			w.advance(time.Minute)
			_, err := w.rr.Write(ctx, w.regular("Ann", "Lee"), st.ID, reviews.Input{Rating: rating, Content: fine}, "")
			dbtest.Must(t, err, "write")
		}
		ratings := func(sort string, offset, limit int) string {
			list, more, err := w.rr.ListSorted(ctx, st.ID, sort, offset, limit)
			dbtest.Must(t, err, "list")
			var s []string
			for _, rv := range list {
				s = append(s, fmt.Sprint(rv.Rating))
			}
			return fmt.Sprintf("%s more=%v", strings.Join(s, ","), more)
		}
		for _, c := range []struct {
			sort          string
			offset, limit int
			want          string
		}{
			{reviews.Newest, 0, 10, "4,1,5,3 more=false"},
			{reviews.Highest, 0, 2, "5,4 more=true"},
			{reviews.Highest, 2, 2, "3,1 more=false"},
			{reviews.Lowest, 0, 3, "1,3,4 more=true"},
		} {
			if got := ratings(c.sort, c.offset, c.limit); got != c.want {
				t.Errorf("%s %d+%d: %s, want %s", c.sort, c.offset, c.limit, got, c.want)
			}
		}
		// The store pages' JSON-LD: members' reviews only, never the samples.
		dbtest.Must(t, w.rr.AddAll(ctx, []*reviews.Review{{StoreID: st.ID, Rating: 5, Content: "sample", CreatedAt: w.now().Add(time.Hour)}}), "sample")
		members, more, err := w.rr.ListMembers(ctx, st.ID, 3)
		dbtest.Must(t, err, "members")
		if len(members) != 3 || !more || members[0].Rating != 4 || members[0].Sample {
			t.Fatalf("members' reviews %+v", members)
		}
		if list, _, _ := w.rr.List(ctx, st.ID, 0, 1); len(list) != 1 || !list[0].Sample {
			t.Fatalf("the sample is listed first: %+v", list)
		}
		// The owners' insights: published reviews written in a period and the one before.
		day := start.Truncate(24 * time.Hour)
		for _, c := range []struct {
			from, to time.Time
			want     reviews.Period
		}{
			{day, day.AddDate(0, 0, 1), reviews.Period{Current: 5}},
			{day.AddDate(0, 0, 1), day.AddDate(0, 0, 2), reviews.Period{Previous: 5}},
			{day.AddDate(0, 0, 2), day.AddDate(0, 0, 3), reviews.Period{}},
		} {
			got, err := w.rr.CountPeriod(ctx, st.ID, c.from, c.to)
			dbtest.Must(t, err, "count")
			if got != c.want {
				t.Errorf("%s to %s: %+v, want %+v", c.from, c.to, got, c.want)
			}
		}
		if err := reviews.ValidSort("random"); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("sort=random: %v", err)
		}
	})
}

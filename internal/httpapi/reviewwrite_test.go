package httpapi_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// memberReply is the typed reply of a member's review calls.
type memberReview struct {
	ID         int64  `json:"id"`
	Status     string `json:"status"`
	HeldReason string `json:"held_reason"`
	Rating     int    `json:"rating"`
	Sample     bool   `json:"sample"`
	EditedAt   any    `json:"edited_at"`
	Customer   struct {
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
	} `json:"customer"`
	Reply *struct {
		Text string `json:"text"`
	} `json:"reply"`
}

type reviewPage struct {
	Summary struct {
		Count int `json:"count"`
	} `json:"summary"`
	Reviews []memberReview `json:"reviews"`
}

// signedUpMember signs a member up and in, its mailbox proven or not.
func signedUpMember(t *testing.T, d *db.DB, c *client, email string, proven bool) {
	t.Helper()
	c.run([]step{
		{method: "POST", target: "/api/store/customers", body: map[string]string{"first_name": "Rita", "last_name": "moss", "phone": "1", "email": email, "password": "tulip-lamp-7"}, status: 201},
		{method: "POST", target: "/api/store/auth", body: map[string]string{"email": email, "password": "tulip-lamp-7"}, status: 200},
	})
	if proven {
		_, err := d.Exec(t.Context(), "UPDATE customers SET email_verified_at = created_at WHERE email = $1", email)
		dbtest.Must(t, err, "prove %s", email)
	}
}

// The whole life of a review over HTTP: the refusals (each a 4xx with a
// message, nothing stored), the write, the list, an insider, the owner's
// reply, a flag, the moderator's removal and the public count.
func TestReviewsOverHTTP(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := t.Context()
		near := "/api/store/physical-store/" + strconvI(s.nearID) + "/reviews"
		good := map[string]any{"rating": 4, "content": "Friendly staff and a good choice of pods."}

		anon := &client{t: t, h: s.srv}
		anon.run([]step{{name: "signed out", method: "POST", target: near, body: good, status: 401}})

		rita := &client{t: t, h: s.srv}
		signedUpMember(t, d, rita, "rita@example.com", false)
		rita.run([]step{{name: "unproven mailbox", method: "POST", target: near, body: good, status: 403}})
		_, err := d.Exec(ctx, "UPDATE customers SET email_verified_at = created_at WHERE email = 'rita@example.com'")
		dbtest.Must(t, err, "prove")

		rita.runEach([]step{
			{name: `rating "5"`, method: "POST", target: near, body: map[string]any{"rating": "5", "content": "Friendly staff and pods."}, status: 400},
			{name: "rating 0", method: "POST", target: near, body: map[string]any{"rating": 0, "content": "Friendly staff and pods."}, status: 400},
			{name: "rating 6", method: "POST", target: near, body: map[string]any{"rating": 6, "content": "Friendly staff and pods."}, status: 400},
			{name: "rating 4.5", method: "POST", target: near, body: map[string]any{"rating": 4.5, "content": "Friendly staff and pods."}, status: 400},
			{name: "no rating", method: "POST", target: near, body: map[string]any{"content": "Friendly staff and pods."}, status: 400},
			{name: "empty text", method: "POST", target: near, body: map[string]any{"rating": 4, "content": "   "}, status: 400},
			{name: "over-long text", method: "POST", target: near, body: map[string]any{"rating": 4, "content": strings.Repeat("a", 2001)}, status: 400},
			{name: "NUL", method: "POST", target: near, body: `{"rating": 4, "content": "Friendly staff\u0000 and pods."}`, status: 400},
			{name: "not an object", method: "POST", target: near, body: `[4]`, status: 400},
			{name: "hidden store", method: "POST", target: "/api/store/physical-store/" + strconvI(s.hiddenID) + "/reviews", body: good, status: 404},
			{name: "unknown store", method: "POST", target: "/api/store/physical-store/999999/reviews", body: good, status: 404},
			{name: "no review yet", method: "GET", target: near + "/mine", status: 404},
		})
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM reviews WHERE member_id IS NOT NULL").Scan(&n), "count")
		if n != 0 {
			t.Fatalf("refusals stored %d reviews", n)
		}

		var id int64
		rita.run([]step{
			{method: "POST", target: near, body: good, status: 201, reply: reply(func(t *testing.T, r memberReview) {
				if r.Status != "Approved" || r.Sample || r.Customer.FirstName != "Rita" || r.Customer.LastName != "M." || r.EditedAt != nil {
					t.Errorf("written %+v", r)
				}
				id = r.ID
			})},
			{name: "a second review", method: "POST", target: near, body: good, status: 409},
			{method: "PATCH", target: near + "/mine", body: map[string]any{"rating": 2, "content": "Out of stock of my usual pods."}, status: 200,
				reply: reply(func(t *testing.T, r memberReview) {
					if r.Rating != 2 || r.EditedAt == nil {
						t.Errorf("edited %+v", r)
					}
				})},
			{method: "GET", target: near + "?sort=rating_asc", status: 200, reply: reply(func(t *testing.T, r reviewPage) {
				// The fixture's three sample reviews (5, 4, 1) and Rita's 2.
				if r.Summary.Count != 4 || len(r.Reviews) != 4 || r.Reviews[0].Rating != 1 || r.Reviews[1].ID != id || !r.Reviews[0].Sample || r.Reviews[1].Sample {
					t.Errorf("list %+v", r)
				}
			})},
			{name: "bad sort", method: "GET", target: near + "?sort=random", status: 400},
		})

		// The store page's JSON-LD carries the member's review (and no sample).
		moved := serve(t, s.srv, httptest.NewRequest("GET", "/stores/x/y/"+strconvI(s.nearID), nil))
		page := serve(t, s.srv, httptest.NewRequest("GET", moved.Header().Get("Location"), nil))
		if body := page.Body.String(); page.Code != 200 || !strings.Contains(body, `"review":[{"@type":"Review","author":{"@type":"Person","name":"Rita M."}`) ||
			strings.Contains(body, `"reviewBody":"good"`) {
			t.Fatalf("store page %d (from %s): %s", page.Code, moved.Header().Get("Location"), truncate(body))
		}

		// other@example.com owns Near: a member with that address is an insider.
		insider := &client{t: t, h: s.srv}
		signedUpMember(t, d, insider, "other@example.com", true)
		insider.run([]step{{name: "insider", method: "POST", target: near, body: good, status: 403}})

		replyPath := "/api/business/stores/" + strconvI(s.nearID) + "/reviews/" + strconvI(id) + "/reply"
		if rec, _ := s.owner.call("PUT", replyPath, map[string]string{"text": "Thanks"}); rec.Code != 404 {
			t.Fatalf("a reply by the owner of another store: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.other.call("PUT", replyPath, map[string]string{"text": "  "}); rec.Code != 400 {
			t.Fatalf("an empty reply: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.other.call("PUT", replyPath, map[string]string{"text": "Sorry! New stock arrives on Mondays."}); rec.Code != 200 {
			t.Fatalf("the owner's reply: %d %s", rec.Code, rec.Body)
		}
		// The owner's insights count the store's new published reviews (the
		// fixture's samples were written today too).
		if rec, body := s.other.call("GET", "/api/business/stores/"+strconvI(s.nearID)+"/insights?days=7", nil); rec.Code != 200 ||
			fmt.Sprint(body["reviews"]) != "map[current:4 previous:0]" {
			t.Fatalf("insights: %d %v", rec.Code, body["reviews"])
		}
		anon.run([]step{
			{method: "GET", target: near, status: 200, reply: reply(func(t *testing.T, r reviewPage) {
				if r.Reviews[0].ID != id || r.Reviews[0].Reply == nil || r.Reviews[0].Reply.Text != "Sorry! New stock arrives on Mondays." {
					t.Errorf("reply not listed: %+v", r.Reviews[0])
				}
			})},
			{name: "unknown reason", method: "POST", target: "/api/reviews/" + strconvI(id) + "/flags", body: map[string]string{"reason": "boring"}, status: 400},
			{method: "POST", target: "/api/reviews/" + strconvI(id) + "/flags", body: map[string]string{"reason": "hateful"}, status: 201},
			{name: "again", method: "POST", target: "/api/reviews/" + strconvI(id) + "/flags", body: map[string]string{"reason": "hateful"}, status: 409},
			{name: "no such review", method: "POST", target: "/api/reviews/999999/flags", body: map[string]string{"reason": "hateful"}, status: 404},
		})

		dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		type queue struct {
			Reviews []struct {
				ID        int64          `json:"id"`
				FlagCount int            `json:"flag_count"`
				Flags     map[string]int `json:"flags"`
			} `json:"reviews"`
		}
		mod.run([]step{
			{method: "GET", target: "/api/admin/reviews", status: 200, reply: reply(func(t *testing.T, q queue) {
				if len(q.Reviews) != 1 || q.Reviews[0].ID != id || q.Reviews[0].Flags["hateful"] != 1 {
					t.Errorf("queue %+v", q)
				}
			})},
			{name: "a keep reason to remove", method: "POST", target: "/api/admin/reviews/" + strconvI(id) + "/remove", body: map[string]string{"reason": "honest-opinion"}, status: 400},
			{method: "POST", target: "/api/admin/reviews/" + strconvI(id) + "/remove", body: map[string]string{"reason": "hateful"}, status: 200},
			{name: "removed twice", method: "POST", target: "/api/admin/reviews/" + strconvI(id) + "/keep", body: map[string]string{"reason": "within-policy"}, status: 409},
		})
		anon.run([]step{
			{method: "GET", target: "/api/reviews/policy", status: 200, reply: reply(func(t *testing.T, p struct {
				Removals []struct {
					Reason string `json:"reason"`
					Count  int    `json:"count"`
				} `json:"removals"`
			}) {
				if len(p.Removals) != 1 || p.Removals[0].Reason != "hateful" || p.Removals[0].Count != 1 {
					t.Errorf("removals %+v", p.Removals)
				}
			})},
			{method: "GET", target: near, status: 200, reply: reply(func(t *testing.T, r reviewPage) {
				if r.Summary.Count != 3 || len(r.Reviews) != 3 {
					t.Errorf("after the removal: %+v", r)
				}
			})},
		})
		rita.run([]step{
			{method: "GET", target: near + "/mine", status: 200, reply: reply(func(t *testing.T, r memberReview) {
				if r.Status != "Removed" || r.HeldReason == "" {
					t.Errorf("the author reads %+v", r)
				}
			})},
			{method: "DELETE", target: near + "/mine", status: 200},
			{name: "deleted", method: "GET", target: near + "/mine", status: 404},
		})
		if rec, _ := s.other.call("GET", "/api/business/review-mail", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), "true") {
			t.Fatalf("review mail switch: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.other.call("PUT", "/api/business/review-mail", map[string]bool{"enabled": false}); rec.Code != 200 || !strings.Contains(rec.Body.String(), "false") {
			t.Fatalf("review mail off: %d %s", rec.Code, rec.Body)
		}
	})
}

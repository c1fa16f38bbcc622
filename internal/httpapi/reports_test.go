package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// reportQueue is the typed reply of GET /api/admin/reports.
type reportQueue struct {
	Stores []struct {
		Store struct {
			ID          int64  `json:"id"`
			PhoneNumber string `json:"phone_number"`
		} `json:"store"`
		Reports []struct {
			Reason   string `json:"reason"`
			Note     string `json:"note"`
			SignedIn bool   `json:"signed_in"`
		} `json:"reports"`
	} `json:"stores"`
	Page    int  `json:"page"`
	Total   int  `json:"total"`
	HasMore bool `json:"has_more"`
}

// resolveReply is the typed reply of a moderator's decision on reports.
type resolveReply struct {
	Reports     int    `json:"reports"`
	Status      string `json:"status"`
	StoreStatus string `json:"store_status"`
}

func TestReportsAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		reportsOf := func(id int64) string { return "/api/store/physical-store/" + itoa(id) + "/reports" }
		shopper := &client{t: t, h: f.srv}
		shopper.runEach([]step{
			{name: "an anonymous report", method: "POST", target: reportsOf(f.nearID), body: map[string]string{"reason": "wrong_hours", "note": "Closes at 8 now"}, status: 201},
			{name: "no reason", method: "POST", target: reportsOf(f.nearID), body: map[string]string{"note": "x"}, status: 400, message: "Choose what is wrong"},
			{name: "an unknown reason", method: "POST", target: reportsOf(f.nearID), body: map[string]string{"reason": "rude"}, status: 400, message: "Choose what is wrong"},
			{name: "a 501-character note", method: "POST", target: reportsOf(f.nearID), body: map[string]string{"reason": "other", "note": strings.Repeat("n", 501)}, status: 400,
				message: "The note should be at most 500 characters"},
			{name: "a hidden store", method: "POST", target: reportsOf(f.hiddenID), body: map[string]string{"reason": "other"}, status: 404},
			{name: "an unknown store", method: "POST", target: reportsOf(999999), body: map[string]string{"reason": "other"}, status: 404},
			{name: "a bad id", method: "POST", target: "/api/store/physical-store/abc/reports", body: map[string]string{"reason": "other"}, status: 400},
			{name: "a malformed body", method: "POST", target: reportsOf(f.nearID), body: `{"reason":`, status: 400},
			{name: "the queue without a moderator", method: "GET", target: "/api/admin/reports", status: 401},
		})
		member := &client{t: t, h: f.srv}
		member.run([]step{
			{method: "POST", target: "/api/store/customers", body: map[string]string{"first_name": "M", "last_name": "M", "phone": "1", "email": "member@example.com", "password": "tulip-lamp-7"}, status: 201},
			{method: "POST", target: "/api/store/auth", body: map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"}, status: 200},
			{name: "a member's report", method: "POST", target: reportsOf(f.nearID), body: map[string]string{"reason": "wrong_phone"}, status: 201},
			{name: "a member on the queue", method: "GET", target: "/api/admin/reports", status: 401},
		})

		dbtest.Must(t, newClaims(d, stores.NewRepo(d), nil).Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		resolve := "/api/admin/reports/" + itoa(f.nearID) + "/resolve"
		mod.run([]step{
			{name: "the queue", method: "GET", target: "/api/admin/reports", status: 200, reply: reply(func(t *testing.T, q reportQueue) {
				if len(q.Stores) != 1 || q.Stores[0].Store.ID != f.nearID || len(q.Stores[0].Reports) != 2 ||
					q.Stores[0].Reports[0].Note != "Closes at 8 now" || q.Stores[0].Reports[0].SignedIn || !q.Stores[0].Reports[1].SignedIn {
					t.Errorf("queue %+v", q)
				}
				if q.Page != 1 || q.Total != 1 || q.HasMore {
					t.Errorf("queue paging %+v", q)
				}
			})},
			{name: "the queue's second page", method: "GET", target: "/api/admin/reports?page=2&limit=1", status: 200, reply: reply(func(t *testing.T, q reportQueue) {
				if len(q.Stores) != 0 || q.Page != 2 || q.Total != 1 || q.HasMore {
					t.Errorf("page 2 %+v", q)
				}
			})},
			{name: "a page too long", method: "GET", target: "/api/admin/reports?limit=21", status: 400},
			{name: "a page written +1", method: "GET", target: "/api/admin/reports?page=%2B1", status: 400},
			{name: "an unknown action", method: "POST", target: resolve, body: map[string]string{"action": "burn"}, status: 400},
			{name: "a fix without changes", method: "POST", target: resolve, body: map[string]string{"action": "fix"}, status: 400},
			{name: "a fix with a bad weekday", method: "POST", target: resolve, body: map[string]any{"action": "fix",
				"changes": map[string]any{"workingHours": []map[string]any{{"weekDay": "Funday", "startTime": "09:00", "endTime": "17:00"}}}}, status: 400},
			{name: "fix the phone and the hours", method: "POST", target: resolve, body: map[string]any{"action": "fix", "note": "called the shop",
				"changes": map[string]any{"phone_number": "+12125550123", "workingHours": []map[string]any{{"weekDay": "Monday", "startTime": "09:00", "endTime": "20:00"}}}},
				status: 200, reply: reply(func(t *testing.T, r resolveReply) {
					if r.Reports != 2 || r.Status != "accepted" || r.StoreStatus != "published" {
						t.Errorf("decision %+v", r)
					}
				})},
			{name: "the queue is empty", method: "GET", target: "/api/admin/reports", status: 200, reply: reply(func(t *testing.T, q reportQueue) {
				if len(q.Stores) != 0 {
					t.Errorf("queue %+v", q)
				}
			})},
			{name: "nothing left to decide", method: "POST", target: resolve, body: map[string]string{"action": "dismiss"}, status: 409},
			{name: "the store shows the fix", method: "GET", target: "/api/store/physical-store/" + itoa(f.nearID), status: 200, reply: func(t *testing.T, body []byte) {
				if !strings.Contains(string(body), `"phone_number":"+12125550123"`) || !strings.Contains(string(body), `"endTime":"20:00"`) {
					t.Errorf("store %s", body)
				}
			}},
		})
	})
}

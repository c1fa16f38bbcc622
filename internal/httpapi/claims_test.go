package httpapi_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"locator/internal/claims"
	"locator/internal/claims/claimstest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

func newClaims(d *db.DB, sr *stores.Repo, log *slog.Logger) *claims.Service {
	return claimstest.New(d, sr, log)
}

var claimForm = map[string]string{
	"business_name": "Lone Star Vapes", "email": "owner@example.com", "phone": "+15125550100", "country": "United States",
	"state": "TX", "address1": "100 Congress Ave", "city": "Austin", "postal_code": "78701", "website": "https://lonestar.example",
	"working_hours": "Mon-Sat 10am-8pm", "category": "Vape shop",
}

// copyClaimForm is claimForm to change for one test.
func copyClaimForm() map[string]string {
	out := make(map[string]string, len(claimForm))
	for k, v := range claimForm {
		out[k] = v
	}
	return out
}

// claimReply is the typed reply of POST /api/store/claim.
type claimReply struct {
	Claim struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
	} `json:"claim"`
}

// adminClaimsReply is the typed reply of the moderators' claim list.
type adminClaimsReply struct {
	Claims []struct {
		ID                 int64           `json:"id"`
		SuggestedLocation  json.RawMessage `json:"suggested_location"`
		WorkingHoursParsed bool            `json:"working_hours_parsed"`
		LicenceNumber      string          `json:"licence_number"`
		DeliveryHours      string          `json:"delivery_hours"`
		ServiceHoursRead   []struct {
			Service string `json:"service"`
			Parsed  bool   `json:"parsed"`
		} `json:"service_hours_read"`
	} `json:"claims"`
}

// decisionReply is the typed reply of a moderator's approval.
type decisionReply struct {
	Status  string `json:"status"`
	StoreID *int64 `json:"store_id"`
}

func TestClaimAndModerationAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		owner := &client{t: t, h: f.srv}
		with := func(changes map[string]string) map[string]string {
			out := copyClaimForm()
			for k, v := range changes {
				out[k] = v
			}
			return out
		}
		var first claimReply
		full := with(map[string]string{"licence_number": "2091234", "delivery_hours": "Mon-Sat 11am-7pm"}) // the optional fields too
		owner.run([]step{
			{name: "claim", method: "POST", target: "/api/store/claim", body: full, status: 201, reply: into(&first)},
		})
		if first.Claim.Status != "pending" {
			t.Fatalf("new claim: %+v", first)
		}
		user := map[string]string{"store_name": "Lone Star Vapes", "email": "owner@example.com", "password": "owner-pass-1", "phone_number": "+15125550100", "referred_by": "locator-claim-form"}
		owner.run([]step{
			{name: "the same claim again answers the first", method: "POST", target: "/api/store/claim", body: full, status: 200,
				reply: reply(func(t *testing.T, r claimReply) {
					if r.Claim.ID != first.Claim.ID {
						t.Errorf("claim %d, want %d", r.Claim.ID, first.Claim.ID)
					}
				})},
			{name: "a bad email", method: "POST", target: "/api/store/claim", body: with(map[string]string{"email": "no-at-sign"}), status: 400},
			{name: "an oversized licence number", method: "POST", target: "/api/store/claim", body: with(map[string]string{"licence_number": strings.Repeat("1", 65)}), status: 400},
			{name: "an oversized name", method: "POST", target: "/api/store/claim", body: with(map[string]string{"business_name": strings.Repeat("x", 300)}), status: 400},
			{name: "create the business account", method: "POST", target: "/api/store/create-user", body: user, status: 201},
			// Unproven, the account does not hold its address: the same answer.
			{name: "create it twice before the proof", method: "POST", target: "/api/store/create-user", body: user, status: 201},
			// Anonymous callers and members are refused by the admin API.
			{name: "anonymous on the admin API", method: "GET", target: "/api/admin/claims", status: 401},
		})
		member := &client{t: t, h: f.srv}
		member.run([]step{
			{method: "POST", target: "/api/store/customers", body: map[string]string{"first_name": "M", "last_name": "M", "phone": "1", "email": "member@example.com", "password": "tulip-lamp-7"}, status: 201},
			{method: "POST", target: "/api/store/auth", body: map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"}, status: 200},
			{name: "a member on the admin API", method: "GET", target: "/api/admin/claims", status: 401},
			{name: "member credentials on the admin sign-in", method: "POST", target: "/api/admin/auth", body: map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"}, status: 401},
		})

		cs := newClaims(d, stores.NewRepo(d), nil)
		dbtest.Must(t, cs.Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		claim := "/api/admin/claims/" + itoa(first.Claim.ID)
		mod.run([]step{
			{name: "pending claims", method: "GET", target: "/api/admin/claims", status: 200, reply: reply(func(t *testing.T, r adminClaimsReply) {
				if len(r.Claims) != 1 || r.Claims[0].ID != first.Claim.ID || string(r.Claims[0].SuggestedLocation) == "null" || !r.Claims[0].WorkingHoursParsed ||
					r.Claims[0].LicenceNumber != "2091234" || r.Claims[0].DeliveryHours != full["delivery_hours"] ||
					len(r.Claims[0].ServiceHoursRead) != 1 || r.Claims[0].ServiceHoursRead[0].Service != "delivery" || !r.Claims[0].ServiceHoursRead[0].Parsed {
					t.Errorf("pending claims: %+v", r.Claims)
				}
			})},
			{name: "reject without a reason", method: "POST", target: claim + "/reject", body: map[string]string{"reason": ""}, status: 400},
			{name: "approve", method: "POST", target: claim + "/approve", body: map[string]any{}, status: 200, reply: reply(func(t *testing.T, r decisionReply) {
				if r.Status != "approved" || r.StoreID == nil {
					t.Errorf("approval %+v", r)
				}
			})},
			{name: "approve twice", method: "POST", target: claim + "/approve", body: map[string]any{}, status: 409},
			{name: "an unknown claim", method: "GET", target: "/api/admin/claims/999999", status: 404},
			{name: "approved claims", method: "GET", target: "/api/admin/claims?status=approved", status: 200, reply: reply(func(t *testing.T, r adminClaimsReply) {
				if len(r.Claims) != 1 {
					t.Errorf("approved claims: %+v", r.Claims)
				}
			})},
			{name: "a bogus status", method: "GET", target: "/api/admin/claims?status=bogus", status: 400},
			{name: "sign out", method: "DELETE", target: "/api/admin/auth", status: 200},
			{name: "after signing out", method: "GET", target: "/api/admin/claims", status: 401},
		})
	})
}

func modSignIn(t *testing.T, h http.Handler, c *client) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/admin/auth", strings.NewReader(`{"email":"mod@example.com","password":"moderator-pass"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	checkContract(t, req, []byte(`{"email":"mod@example.com","password":"moderator-pass"}`), rec, true)
	if rec.Code != 200 {
		t.Fatalf("moderator sign in: %d %s", rec.Code, rec.Body)
	}
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "locator_admin" {
			c.cookie = ck
		}
	}
	if c.cookie == nil || c.cookie.SameSite != http.SameSiteStrictMode || !c.cookie.HttpOnly {
		t.Fatalf("admin cookie: %+v", c.cookie)
	}
	return rec
}

func TestConcurrentCreateUserOverHTTP(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req := jsonRequest("POST", "/api/store/create-user", `{"store_name":"S","email":"same@example.com","password":"pw-123456","phone_number":"1","referred_by":"x"}`)
			req.RemoteAddr = "10.0." + itoa(int64(i)) + ".1:1234" // 50 clients, no per-IP limit
			codes <- serve(t, f.srv, req).Code
		}(i)
	}
	wg.Wait()
	close(codes)
	// One account; an unproven one does not hold its address, so the
	// first 5 sign-ups (business.MaxSignUpsPerEmail an hour) each mail a
	// link, and the rest are refused for the hour.
	created := 0
	for c := range codes {
		switch c {
		case 201:
			created++
		case 429:
		default:
			t.Errorf("status %d", c)
		}
	}
	var n, links int
	dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM business_accounts").Scan(&n), "count")
	dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM email_proofs").Scan(&links), "links")
	if created != 5 || n != 1 || links != 5 {
		t.Fatalf("%d created, %d rows, %d links", created, n, links)
	}
}

// An owner claims a second store with the email of their proven business
// account: the claim is saved (201), the account call answers 409 with its
// own message (the wizard thanks and points to the dashboard's sign-in),
// and the approval adds the store to the same account's dashboard.
func TestSecondStoreClaimWithAnExistingAccount(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		anon := newBizClient(t, s.srv)
		second := copyClaimForm()
		second["business_name"], second["address1"], second["postal_code"] = "Lone Star Vapes South", "1500 S Congress Ave", "78704"
		rec, out := anon.call("POST", "/api/store/claim", second)
		if rec.Code != 201 {
			t.Fatalf("second claim: %d %v", rec.Code, out)
		}
		rec, out = anon.call("POST", "/api/store/create-user", map[string]string{"store_name": "Lone Star Vapes South",
			"email": "Owner@Example.com", "password": "another-pass-9", "phone_number": "1", "referred_by": "locator-claim-form"})
		if rec.Code != 409 || out["message"] != "A business account with this email already exists. Sign in to the store dashboard with it." {
			t.Fatalf("create-user with the account's email: %d %v", rec.Code, out)
		}
		list, err := s.cs.List(context.Background(), claims.Pending, 10)
		dbtest.Must(t, err, "pending")
		if len(list) != 1 || list[0].BusinessName != "Lone Star Vapes South" {
			t.Fatalf("pending claims: %+v", list)
		}
		lat, lon := 30.2489, -97.7501 // the moderator places it (the test geocoder knows 78701 only)
		c, err := s.cs.Approve(context.Background(), list[0].ID, "cli:test", claims.Approval{Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve")
		if _, out := s.owner.call("GET", "/api/business/stores", nil); len(storeIDs(out)) != 2 || !slices.Contains(storeIDs(out), c.StoreID) {
			t.Fatalf("the account's stores after the second approval: %v", out)
		}
		// The account's password is the one it had: the wizard's second password changed nothing.
		s.signIn(newBizClient(t, s.srv), "owner@example.com", ownerPass)
	})
}

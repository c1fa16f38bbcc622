package httpapi_test

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// TestModeratorSignInEndsTheSessionItWasMadeFrom: a moderator who signs in
// again from a browser that holds a session ends that session, as members
// and business accounts do (their tests: TestBusinessSessions and the
// members' sessions test), so a planted or forgotten token dies at the
// next sign-in.
func TestModeratorSignInEndsTheSessionItWasMadeFrom(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		dbtest.Must(t, s.cs.Moderators.Add(context.Background(), "rot@example.com", "moderator-pass"), "add moderator")
		mod := newBizClient(t, s.srv)
		signIn := func() string {
			t.Helper()
			if rec, out := mod.call("POST", "/api/admin/auth", map[string]string{"email": "rot@example.com", "password": "moderator-pass"}); rec.Code != 200 {
				t.Fatalf("moderator sign in: %d %v", rec.Code, out)
			}
			return mod.token("locator_admin")
		}
		old := signIn()
		if rec, _ := withCookie(t, s.srv, "locator_admin", old).call("GET", "/api/admin/me", nil); rec.Code != 200 {
			t.Fatalf("first session: %d", rec.Code)
		}
		if signIn() == old {
			t.Fatal("the session id did not rotate")
		}
		if rec, _ := withCookie(t, s.srv, "locator_admin", old).call("GET", "/api/admin/me", nil); rec.Code != 401 {
			t.Fatalf("the session the sign-in was made from is alive: %d", rec.Code)
		}
		if rec, _ := mod.call("GET", "/api/admin/me", nil); rec.Code != 200 {
			t.Fatalf("new session: %d", rec.Code)
		}
	})
}

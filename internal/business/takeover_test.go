package business_test

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"testing"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/business"
	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/secret"
	"locator/internal/stores"
)

// The takeover paths of issue 21, walked as the attacker who knows the
// owner's address but cannot read the owner's mailbox, then as the owner.
// The outbox stands in for the mailbox: only the owner "reads" it.

const (
	ownerEmail    = "owner@lonestar.example"
	ownerPass     = "owner-tulip-lamp-7"
	attackerPass  = "attacker-harp-seal-9"
	attackerProbe = "no-such-token-from-the-mail"
)

type world struct {
	d      *db.DB
	biz    *business.Service
	claims *claims.Service
}

func newWorld(t *testing.T, d *db.DB) *world {
	t.Helper()
	sr := stores.NewRepo(d)
	h := secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	biz := business.New(d, sr, "http://locator.test", nil, nil, identity.Options{})
	biz.Hasher = h
	t.Cleanup(biz.Wait)
	cl := claims.New(d, sr, claims.Options{ZoneAt: func(float64, float64) string { return "America/Chicago" }}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	cl.Moderators.Hasher = h
	return &world{d: d, biz: biz, claims: cl}
}

// claimApproved submits the owner's claim and a moderator approves it.
func (w *world) claimApproved(t *testing.T) *claims.Claim {
	t.Helper()
	ctx := context.Background()
	c, _, err := w.claims.Submit(ctx, claims.Input{BusinessName: "Lone Star Vapes", Email: ownerEmail, Phone: "+1 512 555 0100",
		Country: "United States", State: "TX", Address1: "100 Congress Ave", City: "Austin", PostalCode: "78701"}, "192.0.2.1")
	dbtest.Must(t, err, "submit claim")
	lat, lon := 30.2711, -97.7437
	c, err = w.claims.Approve(ctx, c.ID, "moderator@locator.test", claims.Approval{Latitude: &lat, Longitude: &lon})
	dbtest.Must(t, err, "approve")
	return c
}

var linkToken = regexp.MustCompile(`/business/verify\?token=([A-Za-z0-9_-]+)`)

// links returns the confirmation links mailed to ownerEmail, oldest first.
func (w *world) links(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, body := range dbtest.Texts(t, w.d, "", "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject LIKE 'Confirm your email%' ORDER BY id", ownerEmail) {
		m := linkToken.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no link in %q", body)
		}
		out = append(out, m[1])
	}
	return out
}

// linked is the number of accounts linked to the claim's store.
func (w *world) linked(t *testing.T, storeID int64) int {
	var n int
	dbtest.Must(t, w.d.QueryRow(context.Background(), "SELECT COUNT(*) FROM business_stores WHERE store_id = $1", storeID).Scan(&n), "links")
	return n
}

func (w *world) waiting(t *testing.T, id int64) bool {
	c, err := w.claims.Get(context.Background(), id)
	dbtest.Must(t, err, "claim")
	v, err := w.claims.View(context.Background(), c, false)
	dbtest.Must(t, err, "claim view")
	return v.WaitingForEmail
}

// attackerLocked checks that the attacker's password opens nothing.
func (w *world) attackerLocked(t *testing.T, oldSession string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := w.biz.SignIn(ctx, ownerEmail, attackerPass, ""); err != business.ErrBadCredentials {
		t.Fatalf("attacker signs in after the owner's proof: %v", err)
	}
	if oldSession != "" {
		if _, err := w.biz.Authenticate(ctx, oldSession); err != business.ErrNoSession {
			t.Fatalf("attacker's session survives the owner's proof: %v", err)
		}
	}
}

// ownerProves follows the owner's own link (the last mailed) and checks
// that the store is the owner's and the attacker's password opens nothing.
func (w *world) ownerProves(t *testing.T, c *claims.Claim, attackerSession string) {
	t.Helper()
	ctx := context.Background()
	links := w.links(t)
	a, session, err := w.biz.ConfirmEmail(ctx, links[len(links)-1], ownerPass, "")
	dbtest.Must(t, err, "owner confirms")
	if !a.Verified || a.Email != ownerEmail || session == "" {
		t.Fatalf("owner after proof: %+v", a)
	}
	list, err := w.biz.ListStores(ctx, a)
	dbtest.Must(t, err, "owner's stores")
	if len(list) != 1 || list[0].ID != c.StoreID {
		t.Fatalf("owner's stores: %+v, want store %d", list, c.StoreID)
	}
	if w.waiting(t, c.ID) {
		t.Fatal("claim still waiting after the owner's proof")
	}
	// The link is in the audit log, credited to the account that proved the address.
	var actor string
	err = w.d.QueryRow(ctx, `SELECT actor FROM audit_log WHERE action = 'store.link' AND store_id = $1 ORDER BY id DESC LIMIT 1`, c.StoreID).Scan(&actor)
	dbtest.Must(t, err, "audit of the link")
	if want := audit.BusinessActor(a.ID, ownerEmail); actor != want {
		t.Fatalf("link audited as %q, want %q", actor, want)
	}
	// A spent link does not work twice.
	if _, _, err := w.biz.ConfirmEmail(ctx, links[len(links)-1], ownerPass, ""); err != identity.ErrBadProof {
		t.Fatalf("second use of the link: %v", err)
	}
	w.attackerLocked(t, attackerSession)
	if _, _, err := w.biz.SignIn(ctx, ownerEmail, ownerPass, ""); err != nil {
		t.Fatalf("owner signs in: %v", err)
	}
}

// attackerGetsNothing: the attacker's sign-in opens no store.
func (w *world) attackerGetsNothing(t *testing.T, c *claims.Claim) string {
	t.Helper()
	ctx := context.Background()
	a, session, err := w.biz.SignIn(ctx, ownerEmail, attackerPass, "")
	dbtest.Must(t, err, "attacker signs in to the unproven account")
	if a.Verified {
		t.Fatal("attacker's account is proven")
	}
	if _, err := w.biz.ListStores(ctx, a); apperr.CodeOf(err) != apperr.Forbidden {
		t.Fatalf("attacker lists stores: %v", err)
	}
	if _, err := w.biz.GetStore(ctx, a, c.StoreID); apperr.CodeOf(err) != apperr.Forbidden {
		t.Fatalf("attacker reads the store: %v", err)
	}
	if n := w.linked(t, c.StoreID); n != 0 {
		t.Fatalf("%d accounts linked to the store before any proof", n)
	}
	if !w.waiting(t, c.ID) {
		t.Fatal("approved claim does not say it waits for the owner's email")
	}
	// Without the mailbox, no token.
	if _, _, err := w.biz.ConfirmEmail(ctx, attackerProbe, attackerPass, ""); err != identity.ErrBadProof {
		t.Fatalf("guessed token: %v", err)
	}
	// A moderator's link is refused too.
	if err := w.claims.LinkStore(ctx, c.StoreID, ownerEmail, "moderator@locator.test"); err != claims.ErrUnprovenAccount {
		t.Fatalf("LinkStore to an unproven account: %v", err)
	}
	return session
}

func TestTakeoverPaths(t *testing.T) {
	t.Parallel()
	t.Run("A: claim with the owner's email, account with the attacker's password", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, d *db.DB) {
			w, ctx := newWorld(t, d), context.Background()
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: attackerPass}), "attacker signs up")
			c := w.claimApproved(t)
			session := w.attackerGetsNothing(t, c)
			// The owner, clicking the link the attacker's sign-up mailed,
			// cannot complete it with the owner's own password.
			if _, _, err := w.biz.ConfirmEmail(ctx, w.links(t)[0], ownerPass, ""); err != identity.ErrProofPassword {
				t.Fatalf("owner on the attacker's link: %v", err)
			}
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: ownerPass}), "owner signs up")
			w.ownerProves(t, c, session)
		})
	})
	t.Run("B: the attacker registers first, the owner's wizard follows", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, d *db.DB) {
			w, ctx := newWorld(t, d), context.Background()
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: attackerPass}), "attacker signs up")
			// The owner's wizard: no 409, the same answer as a fresh sign-up.
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: ownerPass}), "owner signs up")
			c := w.claimApproved(t)
			session := w.attackerGetsNothing(t, c)
			// The attacker asks for a new link: it needs the account's
			// (attacker's) password, so the owner cannot complete it.
			a, _ := w.biz.Authenticate(ctx, session)
			dbtest.Must(t, w.biz.ResendProof(ctx, a), "attacker resends")
			links := w.links(t)
			if len(links) != 3 {
				t.Fatalf("%d links mailed, want 3", len(links))
			}
			if _, _, err := w.biz.ConfirmEmail(ctx, links[2], ownerPass, ""); err != identity.ErrProofPassword {
				t.Fatalf("owner on the attacker's resent link: %v", err)
			}
			// The owner's own link is the second one.
			a2, _, err := w.biz.ConfirmEmail(ctx, links[1], ownerPass, "")
			dbtest.Must(t, err, "owner confirms")
			list, err := w.biz.ListStores(ctx, a2)
			dbtest.Must(t, err, "stores")
			if len(list) != 1 || list[0].ID != c.StoreID {
				t.Fatalf("owner's stores: %+v", list)
			}
			w.attackerLocked(t, session)
			if w.linked(t, c.StoreID) != 1 {
				t.Fatal("store linked to more than the owner")
			}
		})
	})
	t.Run("C: a claim approved before any account exists", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, d *db.DB) {
			w, ctx := newWorld(t, d), context.Background()
			c := w.claimApproved(t)
			if !w.waiting(t, c.ID) {
				t.Fatal("approved claim without an account is not waiting")
			}
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: attackerPass}), "attacker signs up")
			session := w.attackerGetsNothing(t, c)
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: ownerPass}), "owner signs up")
			w.ownerProves(t, c, session)
			// Proven now: a new sign-up with the address is refused as before.
			if err := w.biz.SignUp(ctx, business.SignUpInput{StoreName: "X", Email: ownerEmail, Password: attackerPass}); err != business.ErrEmailTaken {
				t.Fatalf("sign-up with a proven email: %v", err)
			}
		})
	})
	t.Run("a completed password reset proves the mailbox", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, d *db.DB) {
			w, ctx := newWorld(t, d), context.Background()
			c := w.claimApproved(t)
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Lone Star Vapes", Email: ownerEmail, Password: attackerPass}), "attacker signs up")
			dbtest.Must(t, w.biz.RequestReset(ctx, ownerEmail), "reset request")
			w.biz.Wait()
			var body string
			dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject LIKE 'Reset%'", ownerEmail).Scan(&body), "reset mail")
			m := regexp.MustCompile(`token=([A-Za-z0-9_-]+)`).FindStringSubmatch(body)
			dbtest.Must(t, w.biz.ResetPassword(ctx, ownerEmail, ownerPass, m[1]), "reset")
			a, _, err := w.biz.SignIn(ctx, ownerEmail, ownerPass, "")
			dbtest.Must(t, err, "owner signs in")
			list, err := w.biz.ListStores(ctx, a)
			dbtest.Must(t, err, "stores")
			if !a.Verified || len(list) != 1 || list[0].ID != c.StoreID {
				t.Fatalf("after reset: %+v %+v", a, list)
			}
			w.attackerLocked(t, "")
		})
	})
}

// Unproven accounts go after identity.UnprovenTTL; proven ones stay.
func TestPruneUnproven(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w, ctx := newWorld(t, d), context.Background()
		dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Old", Email: "old@example.com", Password: attackerPass}), "old")
		dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "New", Email: "new@example.com", Password: attackerPass}), "new")
		_, err := d.Exec(ctx, "UPDATE business_accounts SET created_at = $1 WHERE email = 'old@example.com'", w.biz.Now().UTC().Add(-identity.UnprovenTTL-1))
		dbtest.Must(t, err, "age")
		dbtest.Must(t, w.biz.Prune(ctx), "prune")
		var accounts, proofs int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM business_accounts").Scan(&accounts), "count")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM email_proofs").Scan(&proofs), "count")
		if accounts != 1 || proofs != 1 {
			t.Fatalf("%d accounts, %d links left, want 1 and 1", accounts, proofs)
		}
	})
}

package claims_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/claims"
	"locator/internal/consent"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/secret"
)

// Consent before co-ownership (docs/claims.md, "Consent of the owners"):
// a moderator's approval of a stranger's claim on a store that has an
// owner makes a pending co-owner, who cannot change the store until an
// owner or a moderator accepts.

// pendingCoOwner is an owned store with mallory's look-alike claim on it
// approved (mallory's mailbox proven): the owner and mallory signed in to
// the dashboard.
type pendingCoOwner struct {
	owned
	claim   *claims.Claim
	biz     *business.Service
	owner   *business.Account
	mallory *business.Account
}

func newPendingCoOwner(t *testing.T, d *db.DB) pendingCoOwner {
	t.Helper()
	ctx := context.Background()
	o := newOwned(t, d)
	provenAccount(t, d, "mallory@example.com", "mallory-pass-1")
	in := form()
	in.Email, in.Phone = "mallory@example.com", "+1 512 555 0666"
	c, _, err := o.s.Submit(ctx, in, "10.6.6.6")
	dbtest.Must(t, err, "look-alike claim")
	c, err = o.s.Approve(ctx, c.ID, "moderator:1:mod@example.com", claims.Approval{})
	dbtest.Must(t, err, "approve with nothing picked")
	biz, owner := businessSignIn(t, d, "owner@example.com", "owner-pass-1")
	_, mallory := businessSignIn(t, d, "mallory@example.com", "mallory-pass-1")
	return pendingCoOwner{owned: o, claim: c, biz: biz, owner: owner, mallory: mallory}
}

var consentLink = regexp.MustCompile(`/business/consent\?token=([A-Za-z0-9_-]+)`)

// link is the consent token mailed to to.
func (p pendingCoOwner) link(t *testing.T, d *db.DB, to string) string {
	t.Helper()
	texts := dbtest.Texts(t, d, "", "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject LIKE 'A claim on your store was approved%' ORDER BY id", to)
	if len(texts) != 1 {
		t.Fatalf("consent mails to %s: %q", to, texts)
	}
	m := consentLink.FindStringSubmatch(texts[0])
	if m == nil {
		t.Fatalf("no consent link in %q", texts[0])
	}
	return m[1]
}

// phone is the store's published phone number.
func (p pendingCoOwner) phone(t *testing.T) string {
	t.Helper()
	st, err := p.sr.Get(context.Background(), p.storeID)
	dbtest.Must(t, err, "store")
	return st.PhoneNumber
}

// canPublish says whether mallory's dashboard change reaches the store.
func (p pendingCoOwner) canPublish(t *testing.T) bool {
	t.Helper()
	phone := "+1 512 555 0777"
	_, err := p.biz.Update(context.Background(), p.mallory, p.storeID, business.Patch{PhoneNumber: &phone})
	if err != nil {
		return false
	}
	return p.phone(t) == phone
}

func mailsTo(t *testing.T, d *db.DB, to string) []string {
	t.Helper()
	return dbtest.Texts(t, d, ": ", "SELECT subject, text_body FROM outbox WHERE to_addr = $1 ORDER BY id", to)
}

func TestPendingCoOwnerCannotPublish(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPendingCoOwner(t, d)
		if p.claim.Status != claims.Approved || p.claim.Consent != consent.Pending || p.claim.WaitingForEmail {
			t.Fatalf("approved claim: %+v", p.claim)
		}
		before := public(p.before)
		phone := "+1 512 555 0777"
		for name, call := range map[string]func() error{
			"patch": func() error {
				_, err := p.biz.Update(ctx, p.mallory, p.storeID, business.Patch{PhoneNumber: &phone})
				return err
			},
			"get":    func() error { _, err := p.biz.GetStore(ctx, p.mallory, p.storeID); return err },
			"verify": func() error { _, err := p.biz.Verify(ctx, p.mallory, p.storeID); return err },
			// Nor can the pending co-owner accept itself.
			"self-accept": func() error {
				_, err := p.biz.DecidePendingOwner(ctx, p.mallory, p.storeID, p.claim.ID, true)
				return err
			},
		} {
			if err := call(); err != consent.ErrWaiting {
				t.Errorf("%s by the pending co-owner: %v", name, err)
			}
		}
		if st, _ := p.sr.Get(ctx, p.storeID); public(st) != before {
			t.Fatalf("the pending co-owner changed the store:\n%s\n%s", before, public(st))
		}
		if list, err := p.biz.ListStores(ctx, p.mallory); err != nil || len(list) != 0 {
			t.Fatalf("pending co-owner's stores: %+v %v", list, err)
		}
		waiting, err := p.biz.Waiting(ctx, p.mallory)
		dbtest.Must(t, err, "waiting")
		if len(waiting) != 1 || waiting[0].StoreID != p.storeID || waiting[0].ClaimID != p.claim.ID || waiting[0].Name != "Lone Star Vapes" {
			t.Fatalf("waiting: %+v", waiting)
		}
		// The owner sees who waits; the moderator's view says it too.
		view, err := p.biz.GetStore(ctx, p.owner, p.storeID)
		dbtest.Must(t, err, "owner's view")
		if len(view.Owners) != 1 || len(view.PendingOwners) != 1 || view.PendingOwners[0].Email != "mallory@example.com" || view.PendingOwners[0].ClaimID != p.claim.ID {
			t.Fatalf("owner's view: owners %+v pending %+v", view.Owners, view.PendingOwners)
		}
		v, err := p.s.View(ctx, p.claim, false)
		dbtest.Must(t, err, "claim view")
		if v.Consent != "pending" || v.WaitingForEmail {
			t.Fatalf("claim view: consent %q waiting %v", v.Consent, v.WaitingForEmail)
		}
	})
}

func TestConsentByLink(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPendingCoOwner(t, d)
		token := p.link(t, d, "owner@example.com")
		// Opening the link only reads the request (mail scanners follow links).
		for range 2 {
			r, err := p.s.ConsentRequest(ctx, token)
			dbtest.Must(t, err, "read the request")
			if r.ClaimID != p.claim.ID || r.StoreID != p.storeID || r.Email != "mallory@example.com" || r.StoreName != "Lone Star Vapes" ||
				r.ExpiresAt.Sub(r.Since) < consent.TokenTTL || r.ExpiresAt.Sub(r.Since) > consent.TokenTTL+time.Minute {
				t.Fatalf("request: %+v", r)
			}
		}
		if p.canPublish(t) {
			t.Fatal("reading the link consented")
		}
		r, err := p.s.ConsentByLink(ctx, token, true)
		dbtest.Must(t, err, "accept by link")
		if r.ClaimID != p.claim.ID {
			t.Fatalf("decided: %+v", r)
		}
		if !p.canPublish(t) {
			t.Fatal("the accepted co-owner cannot publish")
		}
		// Single use: the link is spent, for reading and deciding alike.
		if _, err := p.s.ConsentRequest(ctx, token); err != consent.ErrBadLink {
			t.Fatalf("read a used link: %v", err)
		}
		if _, err := p.s.ConsentByLink(ctx, token, false); err != consent.ErrBadLink {
			t.Fatalf("decline with a used link: %v", err)
		}
		if owners, _ := p.s.Owners(ctx, p.storeID); len(owners) != 2 || owners[1].Email != "mallory@example.com" {
			t.Fatalf("owners: %+v", owners)
		}
		mails := mailsTo(t, d, "mallory@example.com")
		if last := mails[len(mails)-1]; !strings.HasPrefix(last, "You can now change your store: ") {
			t.Fatalf("claimant's mail: %q", last)
		}
		c, err := p.s.Get(ctx, p.claim.ID)
		dbtest.Must(t, err, "claim")
		if c.Consent != consent.Accepted {
			t.Fatalf("consent: %q", c.Consent)
		}
		audit := dbtest.Texts(t, d, " ", "SELECT actor, action, details FROM audit_log WHERE action = 'claim.consent'")
		if len(audit) != 1 || !strings.HasPrefix(audit[0], "business:1:owner@example.com claim.consent ") || !strings.Contains(audit[0], `"via":"mail link"`) {
			t.Fatalf("audit: %q", audit)
		}
	})
}

// A link is refused once expired, when its owner no longer owns the
// store, and when it is not a link at all; each is the same answer.
func TestConsentLinkRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPendingCoOwner(t, d)
		token := p.link(t, d, "owner@example.com")
		for _, bad := range []string{"", "x", token + "x", strings.Repeat("a", 300), strings.ToUpper(token)} {
			if _, err := p.s.ConsentByLink(ctx, bad, true); err != consent.ErrBadLink {
				t.Fatalf("token %q: %v", bad, err)
			}
		}
		clock := p.s.Now
		p.s.Now = func() time.Time { return clock().Add(consent.TokenTTL + time.Minute) }
		if _, err := p.s.ConsentRequest(ctx, token); err != consent.ErrBadLink {
			t.Fatalf("read an expired link: %v", err)
		}
		if _, err := p.s.ConsentByLink(ctx, token, true); err != consent.ErrBadLink {
			t.Fatalf("accept with an expired link: %v", err)
		}
		p.s.Now = clock
		if p.canPublish(t) {
			t.Fatal("an expired link consented")
		}
		// An owner removed since cannot decide with the link mailed before.
		dbtest.Must(t, p.s.UnlinkStore(ctx, p.storeID, "owner@example.com", "cli:ops"), "unlink the owner")
		if _, err := p.s.ConsentByLink(ctx, token, true); err != consent.ErrBadLink {
			t.Fatalf("a removed owner's link: %v", err)
		}
		if c, _ := p.s.Get(ctx, p.claim.ID); c.Consent != consent.Pending {
			t.Fatalf("consent after refused links: %q", c.Consent)
		}
	})
}

// In the dashboard an owner decides only on their own store's requests:
// another account (another store's owner, the claimant, an unrelated one)
// gets the answer of any store not theirs, and a claim on another store is
// not pending on this one.
func TestConsentInDashboardIsTheOwners(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPendingCoOwner(t, d)
		// A second store with its own owner.
		provenAccount(t, d, "other@example.com", "other-pass-1")
		in := form()
		in.BusinessName, in.Email, in.Address1 = "Other Shop", "other@example.com", "200 Congress Ave"
		c2, _, err := p.s.Submit(ctx, in, "10.0.0.20")
		dbtest.Must(t, err, "other claim")
		lat, lon := 30.2660, -97.7440
		c2, err = p.s.Approve(ctx, c2.ID, "cli:mod", claims.Approval{Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve other")
		_, other := businessSignIn(t, d, "other@example.com", "other-pass-1")
		if _, err := p.biz.DecidePendingOwner(ctx, other, p.storeID, p.claim.ID, true); err != business.ErrNotYours {
			t.Fatalf("another store's owner accepts: %v", err)
		}
		if _, err := p.biz.DecidePendingOwner(ctx, other, p.storeID, p.claim.ID, false); err != business.ErrNotYours {
			t.Fatalf("another store's owner declines: %v", err)
		}
		// The other owner names its own store and this store's claim.
		if _, err := p.biz.DecidePendingOwner(ctx, other, c2.StoreID, p.claim.ID, true); err != consent.ErrNotPending {
			t.Fatalf("a claim on another store: %v", err)
		}
		// The owner names the other store.
		if _, err := p.biz.DecidePendingOwner(ctx, p.owner, c2.StoreID, p.claim.ID, true); err != business.ErrNotYours {
			t.Fatalf("the owner on another store: %v", err)
		}
		// A claim that needed no consent is not pending.
		if _, err := p.biz.DecidePendingOwner(ctx, other, c2.StoreID, c2.ID, true); err != consent.ErrNotPending {
			t.Fatalf("a claim without consent: %v", err)
		}
		if p.canPublish(t) {
			t.Fatal("someone else's consent let the co-owner in")
		}
		// The owner declines: the co-owner is gone and told.
		view, err := p.biz.DecidePendingOwner(ctx, p.owner, p.storeID, p.claim.ID, false)
		dbtest.Must(t, err, "decline")
		if len(view.PendingOwners) != 0 || len(view.Owners) != 1 {
			t.Fatalf("after the decline: %+v %+v", view.Owners, view.PendingOwners)
		}
		if _, err := p.biz.DecidePendingOwner(ctx, p.owner, p.storeID, p.claim.ID, true); err != consent.ErrNotPending {
			t.Fatalf("accept after the decline: %v", err)
		}
		if _, err := p.biz.GetStore(ctx, p.mallory, p.storeID); err != business.ErrNotYours {
			t.Fatalf("the declined claimant reaches the store: %v", err)
		}
		if w, _ := p.biz.Waiting(ctx, p.mallory); len(w) != 0 {
			t.Fatalf("still waiting: %+v", w)
		}
		mails := mailsTo(t, d, "mallory@example.com")
		if last := mails[len(mails)-1]; !strings.HasPrefix(last, "Your claim on a store with an owner was declined: ") || !strings.Contains(last, "You cannot change the store.") {
			t.Fatalf("claimant's mail: %q", last)
		}
		// The mailed link died with the decision.
		if _, err := p.s.ConsentByLink(ctx, p.link(t, d, "owner@example.com"), true); err != consent.ErrBadLink {
			t.Fatalf("link after the decision: %v", err)
		}
		c, err := p.s.Get(ctx, p.claim.ID)
		dbtest.Must(t, err, "claim")
		if c.Consent != consent.Declined || c.WaitingForEmail {
			t.Fatalf("declined claim: %+v", c)
		}
	})
}

func TestConsentByModerator(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPendingCoOwner(t, d)
		c, err := p.s.DecideConsent(ctx, p.claim.ID, true, "moderator:1:mod@example.com")
		dbtest.Must(t, err, "moderator accepts")
		if c.Consent != consent.Accepted {
			t.Fatalf("consent: %q", c.Consent)
		}
		if !p.canPublish(t) {
			t.Fatal("accepted by a moderator, the co-owner cannot publish")
		}
		if _, err := p.s.DecideConsent(ctx, p.claim.ID, false, "moderator:1:mod@example.com"); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("decide twice: %v", err)
		}
		if _, err := p.s.DecideConsent(ctx, 9999, true, "m"); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("unknown claim: %v", err)
		}
		audit := dbtest.Texts(t, d, " ", "SELECT actor, action, details FROM audit_log WHERE action = 'claim.consent'")
		if len(audit) != 1 || !strings.HasPrefix(audit[0], "moderator:1:mod@example.com claim.consent ") || !strings.Contains(audit[0], `"via":"moderator"`) {
			t.Fatalf("audit: %q", audit)
		}
	})
}

// A claimant without a proven account waits for consent and for proof of
// mailbox: proof alone does not link a store whose owners have not
// consented (nor one they declined); after consent it does.
func TestConsentBeforeProofOfMailbox(t *testing.T) {
	eachOwned(t, func(t *testing.T, ctx context.Context, d *db.DB, o owned) {
		in := form()
		in.Email = "late@example.com"
		c, _, err := o.s.Submit(ctx, in, "10.8.8.8")
		dbtest.Must(t, err, "claim")
		c, err = o.s.Approve(ctx, c.ID, "cli:mod", claims.Approval{})
		dbtest.Must(t, err, "approve")
		if c.Consent != consent.Pending {
			t.Fatalf("consent: %q", c.Consent)
		}
		biz := business.New(d, o.sr, "http://locator.test", nil, nil, identity.Options{})
		biz.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
		a := signUpAndProve(t, d, biz, "late@example.com", "late-pass-12345")
		if list, _ := biz.ListStores(ctx, a); len(list) != 0 {
			t.Fatalf("proof of mailbox linked a store waiting for consent: %+v", list)
		}
		_, err = o.s.DecideConsent(ctx, c.ID, true, "cli:mod")
		dbtest.Must(t, err, "accept")
		if list, _ := biz.ListStores(ctx, a); len(list) != 1 || list[0].ID != o.storeID {
			t.Fatalf("after consent: %+v", list)
		}
	})
}

var proofLink = regexp.MustCompile(`/business/verify\?token=([A-Za-z0-9_-]+)`)

// signUpAndProve makes a business account and follows its mailed link.
func signUpAndProve(t *testing.T, d *db.DB, biz *business.Service, email, password string) *business.Account {
	t.Helper()
	ctx := context.Background()
	dbtest.Must(t, biz.SignUp(ctx, business.SignUpInput{Email: email, Password: password, StoreName: "Lone Star Vapes"}), "sign up")
	biz.Wait()
	texts := dbtest.Texts(t, d, "", "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject LIKE 'Confirm your email%' ORDER BY id DESC", email)
	if len(texts) == 0 {
		t.Fatal("no proof mail")
	}
	m := proofLink.FindStringSubmatch(texts[0])
	if m == nil {
		t.Fatalf("no link in %q", texts[0])
	}
	a, _, err := biz.ConfirmEmail(ctx, m[1], password, "")
	dbtest.Must(t, err, "confirm")
	return a
}

package claims_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/secret"
	"locator/internal/stores"
)

// owned is a store published from the owner's claim at an exact position,
// linked to the owner's business account.
type owned struct {
	s       *claims.Service
	sr      *stores.Repo
	storeID int64
	before  *stores.Store
}

func newOwned(t *testing.T, d *db.DB) owned {
	t.Helper()
	ctx := context.Background()
	s := newService(d)
	provenAccount(t, d, "owner@example.com", "owner-pass-1")
	c, _, err := s.Submit(ctx, form(), "10.0.0.1")
	dbtest.Must(t, err, "owner's claim")
	lat, lon := 30.26905, -97.74291 // the shop's door, not the postal code's centre (30.2711, -97.7437)
	c, err = s.Approve(ctx, c.ID, "cli:mod", claims.Approval{Latitude: &lat, Longitude: &lon})
	dbtest.Must(t, err, "approve the owner's claim")
	sr := stores.NewRepo(d)
	st, err := sr.Get(ctx, c.StoreID)
	dbtest.Must(t, err, "store")
	return owned{s: s, sr: sr, storeID: st.ID, before: st}
}

// eachOwned runs fn once per engine on newOwned's store.
func eachOwned(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, o owned)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, context.Background(), d, newOwned(t, d)) })
}

// provenAccount writes a business account whose owner has followed the
// confirmation link (the sign-up and the link itself are tested in
// internal/business): only such an account can be linked to a store.
func provenAccount(t *testing.T, d *db.DB, email, password string) {
	t.Helper()
	ctx := context.Background()
	hash, err := secret.Hasher{Memory: 64, Time: 1, Threads: 1}.Hash(ctx, password)
	dbtest.Must(t, err, "hash")
	now := time.Now().UTC()
	_, err = d.Exec(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at, email_verified_at)
		VALUES ($1, 'Lone Star Vapes', '', $2, $3, $3)`, email, hash, now)
	dbtest.Must(t, err, "proven account %s", email)
}

func outbox(t *testing.T, d *db.DB) []string {
	t.Helper()
	return dbtest.Texts(t, d, ": ", "SELECT to_addr, subject, text_body FROM outbox ORDER BY id")
}

func businessSignIn(t *testing.T, d *db.DB, email, password string) (*business.Service, *business.Account) {
	t.Helper()
	svc := business.New(d, stores.NewRepo(d), "http://locator.test", nil, nil, identity.Options{})
	svc.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	a, _, err := svc.SignIn(context.Background(), email, password, "")
	dbtest.Must(t, err, "business sign in")
	return svc, a
}

// public is what shoppers see of a store.
func public(st *stores.Store) string {
	b, _ := json.Marshal([]any{st.Name, st.PhoneNumber, st.Website, st.Address, st.City, st.State, st.PostalCode, st.CountryName,
		st.Hours, st.WorkingHours, st.SpecialHours, st.Latitude, st.Longitude, st.GeoPrecision, st.Status, st.VerifiedAt})
	return string(b)
}

// Takeover path D walked as an attacker: a look-alike claim on a store
// that has an owner. The moderator sees the owner, the owner is mailed at
// submission and at the decision, an approval with no field picked changes
// nothing public and keeps the owner, and the owner (or a moderator) can
// remove the account the approval added; each step is in the audit log.
func TestLookalikeClaimOnOwnedStore(t *testing.T) {
	t.Parallel()
	eachOwned(t, func(t *testing.T, ctx context.Context, d *db.DB, o owned) {
		s := o.s
		mailsBefore := len(outbox(t, d))
		// The attacker proved their own mailbox: path D needs no one else's.
		provenAccount(t, d, "mallory@example.com", "mallory-pass-1")
		in := form()
		in.Email, in.Phone, in.Website = "mallory@example.com", "+1 512 555 0666", "https://lonestar-vapes.example"
		c, _, err := s.Submit(ctx, in, "10.6.6.6")
		dbtest.Must(t, err, "look-alike claim")
		if c.DuplicateOfStoreID != o.storeID {
			t.Fatalf("look-alike not matched: %+v", c)
		}
		// The owner hears of it in the day's digest (claimdigest_test.go), not at once.
		if mails := outbox(t, d)[mailsBefore:]; len(mails) != 0 {
			t.Fatalf("mails at submission: %q", mails)
		}
		// The moderator sees the owner and the comparison.
		v, err := s.View(ctx, c, true)
		dbtest.Must(t, err, "view")
		e := v.ExistingStore
		if e == nil || e.ID != o.storeID || len(e.Owners) != 1 || e.Owners[0].Email != "owner@example.com" ||
			!strings.HasPrefix(e.OwnersSummary, "This store has 1 verified owner since ") || !strings.HasSuffix(e.OwnersSummary, ": owner@example.com.") ||
			e.Latitude != o.before.Latitude || len(e.Fields) != len(claims.CompareFields)-3 { // no service hours claimed: no service rows
			t.Fatalf("existing store: %+v", e)
		}
		for _, f := range e.Fields {
			differs := f.Field == "phone_number" || f.Field == "website"
			if f.Same == differs {
				t.Errorf("field %s: %+v", f.Field, f)
			}
		}
		// Approved with nothing picked: nothing public changes.
		_, err = s.Approve(ctx, c.ID, "moderator:1:mod@example.com", claims.Approval{})
		dbtest.Must(t, err, "approve")
		after, err := o.sr.Get(ctx, o.storeID)
		dbtest.Must(t, err, "store")
		if public(after) != public(o.before) {
			t.Fatalf("approval with no field picked changed the store:\n%s\n%s", public(o.before), public(after))
		}
		mails := outbox(t, d)[mailsBefore:]
		if len(mails) != 2 || !strings.HasPrefix(mails[0], "mallory@example.com: Your store claim was approved") || !strings.Contains(mails[0], "the store already has an owner") ||
			!strings.HasPrefix(mails[1], "owner@example.com: A claim on your store was approved: do you accept a co-owner?") || !strings.Contains(mails[1], "No detail of the store was changed.") {
			t.Fatalf("mails at the decision: %q", mails)
		}
		// The owner stays the only owner: the attacker waits for consent
		// (consent_test.go), which the owner here gives.
		owners, err := s.Owners(ctx, o.storeID)
		dbtest.Must(t, err, "owners")
		if len(owners) != 1 || owners[0].Email != "owner@example.com" {
			t.Fatalf("owners: %+v", owners)
		}
		bs, owner := businessSignIn(t, d, "owner@example.com", "owner-pass-1")
		_, mallory := businessSignIn(t, d, "mallory@example.com", "mallory-pass-1")
		_, err = bs.DecidePendingOwner(ctx, owner, o.storeID, c.ID, true)
		dbtest.Must(t, err, "the owner accepts")
		view, err := bs.GetStore(ctx, owner, o.storeID)
		dbtest.Must(t, err, "owner's view")
		if len(view.Owners) != 2 || !view.Owners[0].You || view.Owners[0].Removable || view.Owners[1].You || !view.Owners[1].Removable {
			t.Fatalf("co-owners as the owner sees them: %+v", view.Owners)
		}
		// The later account cannot push the owner out, nor remove itself.
		if _, err := bs.RemoveOwner(ctx, mallory, o.storeID, owner.ID); apperr.CodeOf(err) != apperr.Forbidden {
			t.Fatalf("attacker removes the owner: %v", err)
		}
		if _, err := bs.RemoveOwner(ctx, mallory, o.storeID, mallory.ID); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("remove oneself: %v", err)
		}
		view, err = bs.RemoveOwner(ctx, owner, o.storeID, mallory.ID)
		dbtest.Must(t, err, "owner removes the attacker")
		if len(view.Owners) != 1 || view.Owners[0].Email != "owner@example.com" {
			t.Fatalf("after the removal: %+v", view.Owners)
		}
		if _, err := bs.GetStore(ctx, mallory, o.storeID); err != business.ErrNotYours {
			t.Fatalf("attacker still reaches the store: %v", err)
		}
		if _, err := bs.RemoveOwner(ctx, owner, o.storeID, mallory.ID); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("remove twice: %v", err)
		}
		// A moderator removes any link, the owner's too.
		if err := s.UnlinkStore(ctx, o.storeID, "mallory@example.com", "cli:ops"); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("unlink a removed owner: %v", err)
		}
		dbtest.Must(t, s.UnlinkStore(ctx, o.storeID, " Owner@Example.com ", "cli:ops"), "moderator unlinks")
		if owners, _ := s.Owners(ctx, o.storeID); len(owners) != 0 {
			t.Fatalf("owners after the moderator's unlink: %+v", owners)
		}
		// The audit log has each step, with the store and the account that acted.
		got := dbtest.Texts(t, d, " ", "SELECT actor, action, details FROM audit_log WHERE store_id = $1 ORDER BY id", o.storeID)
		want := []string{
			`cli:mod store.link {"business_id":1,"email":"owner@example.com"}`,
			`cli:mod claim.approve `,
			`moderator:1:mod@example.com claim.approve {"applied":[],"changes":{},`,
			`business:1:owner@example.com store.link {"business_id":2,"email":"mallory@example.com","reason":"owner's consent"}`,
			`business:1:owner@example.com claim.consent {"business_id":2,"decision":"accepted","email":"mallory@example.com","via":"store dashboard"}`,
			`business:1:owner@example.com store.unlink {"business_id":2,"email":"mallory@example.com",`,
			`cli:ops store.unlink {"business_id":1,"email":"owner@example.com",`,
		}
		if len(got) != len(want) {
			t.Fatalf("audit:\n%s", strings.Join(got, "\n"))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("audit %d: %s\nwant prefix %s", i, got[i], want[i])
			}
		}
		if !strings.Contains(got[2], `"verified":false`) || !strings.Contains(got[2], `"consent":"pending"`) {
			t.Errorf("a claim the moderator did not take is not a verification: %s", got[2])
		}
	})
}

// Approving a look-alike claim applies only the picked fields, keeps the
// store's exact position (the geocoder's postal-code centre never replaces
// it) and marks the store verified only when every field of the comparison
// holds what the moderator saw in the claim.
func TestApproveAppliesPickedFields(t *testing.T) {
	t.Parallel()
	eachOwned(t, func(t *testing.T, ctx context.Context, d *db.DB, o owned) {
		s := o.s
		// A verification some time ago, to see whether the approval renews it.
		old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		o.before.VerifiedAt = &old
		dbtest.Must(t, o.sr.Update(ctx, o.before), "age the verification")

		in := form()
		in.Email, in.Phone, in.Address1, in.WorkingHours = "new-manager@example.com", "+1 512 555 0199", "102 Congress Ave", "Daily 08:00-22:00"
		c, _, err := s.Submit(ctx, in, "10.0.0.9")
		dbtest.Must(t, err, "claim")
		for _, bad := range [][]string{{"colour"}, {"state", "image"}} {
			if _, err := s.Approve(ctx, c.ID, "m", claims.Approval{Fields: bad}); apperr.CodeOf(err) != apperr.Invalid {
				t.Fatalf("fields %v: %v", bad, err)
			}
		}
		noSite := form()
		noSite.Email, noSite.Website = "x@example.com", ""
		c3, _, err := s.Submit(ctx, noSite, "10.0.0.10")
		dbtest.Must(t, err, "claim without a website")
		if _, err := s.Approve(ctx, c3.ID, "m", claims.Approval{Fields: []string{"website"}}); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "no website") {
			t.Fatalf("an empty claimed website erases the store's: %v", err)
		}
		// Phone and address picked, hours left: the position stays, and the
		// store is not marked verified (the hours differ and were not taken).
		_, err = s.Approve(ctx, c.ID, "m", claims.Approval{Fields: []string{"phone_number", "address"}})
		dbtest.Must(t, err, "approve phone and address")
		st, err := o.sr.Get(ctx, o.storeID)
		dbtest.Must(t, err, "store")
		if st.PhoneNumber != in.Phone || st.Address != in.Address1 || st.Hours != o.before.Hours || len(st.WorkingHours) != len(o.before.WorkingHours) ||
			st.Latitude != o.before.Latitude || st.Longitude != o.before.Longitude || st.GeoPrecision != "exact" ||
			st.VerifiedAt == nil || !st.VerifiedAt.Equal(old) || st.Name != o.before.Name {
			t.Fatalf("after picking phone and address: %+v", st)
		}
		// A claim whose every other field agrees, with the hours picked:
		// now the whole comparison holds what the moderator saw: verified.
		in2 := form()
		in2.Email, in2.Phone, in2.Address1, in2.WorkingHours, in2.Website = "third@example.com", st.PhoneNumber, st.Address, "Daily 08:00-22:00", st.Website
		c2, _, err := s.Submit(ctx, in2, "10.0.0.11")
		dbtest.Must(t, err, "claim 2")
		lat, lon := 30.2691, -97.7428 // the moderator moves the marker a few metres: a person's placement
		_, err = s.Approve(ctx, c2.ID, "m", claims.Approval{Fields: []string{"hours"}, Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve hours")
		st, err = o.sr.Get(ctx, o.storeID)
		dbtest.Must(t, err, "store")
		if st.Hours != "Daily 08:00-22:00" || len(st.WorkingHours) != 7 || st.VerifiedAt == nil || st.VerifiedAt.Equal(old) ||
			st.Latitude != lat || st.Longitude != lon || st.GeoPrecision != "exact" {
			t.Fatalf("after picking the hours: %+v", st)
		}
		// A claim for a new store takes no fields.
		fresh := form()
		fresh.BusinessName, fresh.Email = "Another Shop", "another@example.com"
		c4, _, err := s.Submit(ctx, fresh, "10.0.0.12")
		dbtest.Must(t, err, "new store claim")
		if _, err := s.Approve(ctx, c4.ID, "m", claims.Approval{Fields: []string{"name"}}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("fields on a new store: %v", err)
		}
	})
}

package claims

import (
	"context"
	"fmt"
	"html"
	"strings"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/consent"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/stores"
)

// The owners of a store (its business_stores rows) hear of every claim on
// it: when it is submitted and when it is decided, through the outbox in
// the transaction of the claim. An owner whose address is the claim's own
// gets the claimant's mail instead.
//
// An owner's mail carries no text the claimant typed (name, address,
// website, hours...): a look-alike claim is otherwise a way to put any words
// and links into an owner's mailbox under our name. It says only fixed
// text, the claim's number, the store's own published data, what a
// moderator decided, and the link to the store dashboard, where the owner
// sees the claim's details (docs/claims.md).

// mailOwners mails each owner of the store (but the claimant) msg, with
// the link to the store dashboard appended.
func (s *Service) mailOwners(ctx context.Context, tx *db.Tx, owners []ownership.Owner, c *Claim, msg func(ownership.Owner) mail.Message) error {
	dashboard := strings.TrimRight(s.PublicURL, "/") + "/business"
	for _, o := range owners {
		if strings.EqualFold(o.Email, c.Email) {
			continue
		}
		m := msg(o)
		m.Text += "\nStore dashboard: " + dashboard + "\n"
		m.HTML += "<p>Store dashboard: " + dashboardLink(s.PublicURL, dashboard) + "</p>"
		if err := mail.Enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("mail owner of store: %w", err)
		}
	}
	return nil
}

// dashboardLink is the dashboard as HTML: a link when the public address
// is known, the bare path otherwise (a command run without it).
func dashboardLink(publicURL, dashboard string) string {
	h := html.EscapeString(dashboard)
	if publicURL == "" {
		return h
	}
	return `<a href="` + h + `">` + h + `</a>`
}

// storeOwners are the owners of the store a claim matches (none for a new
// store).
func storeOwners(ctx context.Context, q db.Querier, c *Claim) ([]ownership.Owner, error) {
	if c.DuplicateOfStoreID == 0 {
		return nil, nil
	}
	return ownership.List(ctx, q, c.DuplicateOfStoreID)
}

// linkAndAudit links the store of an approved claim to the claimant's
// account (linkClaimStore) and writes "store.link" when that made a new
// link: the claimant may have no account yet, or own the store already.
func (s *Service) linkAndAudit(ctx context.Context, tx *db.Tx, storeID int64, c *Claim, actor string) error {
	email := strings.ToLower(c.Email)
	linked := func() (int64, error) { return ownership.OwnerByEmail(ctx, tx, storeID, email) }
	before, err := linked()
	if err != nil {
		return err
	}
	if err := s.linkClaimStore(ctx, tx, storeID, c.Email, actor); err != nil {
		return err
	}
	after, err := linked()
	if err != nil || before != 0 || after == 0 {
		return err
	}
	return audit.Write(ctx, tx, s.now(), actor, "store.link", c.ID, storeID, map[string]any{"email": email, "business_id": after})
}

// UnlinkStore removes the business account with email from the owners of
// store storeID (a moderator's decision, written to the audit log; NotFound
// when the account is not an owner).
func (s *Service) UnlinkStore(ctx context.Context, storeID int64, email, actor string) error {
	return s.inLinkTx(ctx, storeID, email, func(tx *db.Tx, email string) error {
		businessID, err := ownership.OwnerByEmail(ctx, tx, storeID, email)
		if err != nil || businessID == 0 {
			return apperr.New(apperr.NotFound, "%s is not an owner of store %d", email, storeID)
		}
		_, err = ownership.Remove(ctx, tx, s.now(), storeID, businessID, actor)
		return err
	})
}

// UnlinkOwner removes account businessID from the owners of store storeID
// (the admin API names the owner by id, as it lists them).
func (s *Service) UnlinkOwner(ctx context.Context, storeID, businessID int64, actor string) (ownership.Owner, error) {
	var o ownership.Owner
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		var err error
		o, err = ownership.Remove(ctx, tx, s.now(), storeID, businessID, actor)
		return err
	})
	return o, err
}

// Owners lists the owners of a store (NotFound for an unknown store).
func (s *Service) Owners(ctx context.Context, storeID int64) ([]ownership.Owner, error) {
	if _, err := s.Stores.Get(ctx, storeID); err != nil {
		return nil, err
	}
	return ownership.List(ctx, s.DB, storeID)
}

// listed names a store by its published data only.
func listed(st *stores.Store) string {
	return fmt.Sprintf("your store #%d, %s (%s, %s %s)", st.ID, st.Name, st.Address, st.City, st.PostalCode)
}

func ownerMail(to, subject string, paras ...string) mail.Message {
	var b strings.Builder
	b.WriteString("<p>Hello,</p>")
	for _, p := range paras {
		b.WriteString("<p>" + html.EscapeString(p) + "</p>")
	}
	return mail.Message{To: to, Subject: subject, Text: "Hello,\n\n" + strings.Join(paras, "\n\n") + "\n", HTML: b.String()}
}

const ownersNote = "Sign in to the store dashboard to see every account that can change the store; you can remove an account that was linked after yours."

func ownerApprovedMail(o ownership.Owner, c *Claim, st *stores.Store, applied []string) mail.Message {
	return ownerMail(o.Email, "A claim on your store was approved",
		fmt.Sprintf("A moderator approved claim #%d, which matches %s.", c.ID, listed(st)), appliedText(applied),
		"You remain an owner of the store. The account of the claim's email, once it exists and its address is confirmed, can change the store too.",
		ownersNote)
}

// needsConsent says whether the approval of claim c on a store with these
// owners makes its claimant a pending co-owner: the store has an owner and
// the claimant is not one of them (docs/claims.md, "Consent of the owners").
func needsConsent(owners []ownership.Owner, c *Claim) bool {
	if len(owners) == 0 {
		return false
	}
	for _, o := range owners {
		if strings.EqualFold(o.Email, c.Email) {
			return false
		}
	}
	return true
}

// askOwners mails each owner of the store the approval and a link of its
// own to accept or decline the claimant as a co-owner (consent.NewLink):
// these mails go at once, since the claimant waits for them.
func (s *Service) askOwners(ctx context.Context, tx *db.Tx, owners []ownership.Owner, c *Claim, st *stores.Store, applied []string) error {
	for _, o := range owners {
		token, err := consent.NewLink(ctx, tx, s.now(), c.ID, o.BusinessID)
		if err != nil {
			return err
		}
		link := consent.LinkURL(s.PublicURL, token)
		m := ownerMail(o.Email, "A claim on your store was approved: do you accept a co-owner?",
			fmt.Sprintf("A moderator approved claim #%d, which matches %s.", c.ID, listed(st)), appliedText(applied),
			fmt.Sprintf("The account of the claim's email cannot change the store unless you (or another owner, or a moderator) accept it as a co-owner. Open the link below to see the request and accept or decline it; it works once, for %d days. Opening it changes nothing until you confirm.",
				int(consent.TokenTTL.Hours()/24)),
			"You can also accept or decline in the store dashboard, under \"Waiting for your consent\". Until someone accepts, the account cannot change your store.")
		m.Text += "\nAccept or decline: " + link + "\n"
		m.HTML += `<p><a href="` + html.EscapeString(link) + `">Accept or decline the co-owner</a></p>`
		dashboard := strings.TrimRight(s.PublicURL, "/") + "/business"
		m.Text += "\nStore dashboard: " + dashboard + "\n"
		m.HTML += "<p>Store dashboard: " + dashboardLink(s.PublicURL, dashboard) + "</p>"
		if err := mail.Enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("mail owner of store: %w", err)
		}
	}
	return nil
}

// ConsentRequest reads what a mailed consent link asks, changing nothing
// (the page it opens asks the owner to confirm).
func (s *Service) ConsentRequest(ctx context.Context, token string) (consent.Request, error) {
	return consent.Lookup(ctx, s.DB, s.now(), token)
}

// ConsentByLink accepts or declines a pending co-owner with a mailed link.
func (s *Service) ConsentByLink(ctx context.Context, token string, accept bool) (consent.Request, error) {
	var r consent.Request
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		var err error
		r, err = consent.ByLink(ctx, tx, s.now(), token, accept, s.PublicURL)
		return err
	})
	return r, err
}

// DecideConsent is a moderator's consent (or refusal) in place of the
// store's owners, on claim id.
func (s *Service) DecideConsent(ctx context.Context, id int64, accept bool, actor string) (*Claim, error) {
	var out *Claim
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := getClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Consent != consent.Pending {
			return apperr.New(apperr.Conflict, "claim %d does not wait for the owners' consent", id)
		}
		if err := consent.Decide(ctx, tx, s.now(), id, accept, actor, "moderator", s.PublicURL); err != nil {
			return err
		}
		out, err = getClaim(ctx, tx, id)
		return err
	})
	return out, err
}

// appliedText says which details an approval took from the claim.
func appliedText(applied []string) string {
	if len(applied) == 0 {
		return "No detail of the store was changed."
	}
	labels := make([]string, len(applied))
	for i, f := range applied {
		labels[i] = strings.ToLower(fieldLabels[f])
	}
	return "The moderator took these details from the claim: " + strings.Join(labels, ", ") + "."
}

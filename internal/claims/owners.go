package claims

import (
	"context"
	"fmt"
	"html"
	"strings"

	"locator/internal/apperr"
	"locator/internal/audit"
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

func ownerSubmittedMail(o ownership.Owner, c *Claim, st *stores.Store) mail.Message {
	return ownerMail(o.Email, "Someone claimed a store you own",
		fmt.Sprintf("Someone with another email address submitted claim #%d, which matches %s.", c.ID, listed(st)),
		"Nothing changes until a moderator decides: the moderator sees that the store has owners and compares the claim with its details field by field. You will be mailed the decision.",
		ownersNote)
}

func ownerApprovedMail(o ownership.Owner, c *Claim, st *stores.Store, applied []string) mail.Message {
	what := "No detail of the store was changed."
	if len(applied) > 0 {
		labels := make([]string, len(applied))
		for i, f := range applied {
			labels[i] = strings.ToLower(fieldLabels[f])
		}
		what = "The moderator took these details from the claim: " + strings.Join(labels, ", ") + "."
	}
	return ownerMail(o.Email, "A claim on your store was approved",
		fmt.Sprintf("A moderator approved claim #%d, which matches %s.", c.ID, listed(st)), what,
		"You remain an owner of the store. The account of the claim's email, once it exists and its address is confirmed, can change the store too.",
		ownersNote)
}

// ownerRejectedMail names the store by id only (it is not loaded on a
// rejection); the reason is the moderator's text.
func ownerRejectedMail(o ownership.Owner, c *Claim, storeID int64, reason string) mail.Message {
	return ownerMail(o.Email, "A claim on your store was rejected",
		fmt.Sprintf("A moderator rejected claim #%d, which matched your store #%d. Reason: %s", c.ID, storeID, reason),
		"Nothing was changed.")
}

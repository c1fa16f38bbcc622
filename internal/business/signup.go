package business

// Sign-up of business accounts (the claim wizard's create-user) and the
// proof of their mailbox. An account has no power until its mailbox is
// proven (docs/accounts.md, "Proof of mailbox"): no store is linked to it
// before, and an unproven account does not hold its address, so a second
// sign-up with the same email mails a new link carrying its own password.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/identity"
	mailbox "locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/secret"
)

// Sign-ups per email address and window: each one mails a link.
const MaxSignUpsPerEmail = 5

// maxShort bounds the short text fields of the sign-up.
const maxShort = 255

// ErrEmailTaken answers a sign-up with the email of a proven account.
var ErrEmailTaken = apperr.New(apperr.Conflict, "A business account with this email already exists. Sign in to the store dashboard with it.")

// SignUpInput is the create-user call of the claim wizard.
type SignUpInput struct {
	StoreName, Email, Password, PhoneNumber, ReferredBy string
}

// SignUp creates the store dashboard account, unproven, and mails the link
// that proves its address. The email of an unproven account is not taken:
// a new sign-up with it answers the same as a fresh one and mails a new
// link that carries the new password (the account's stays until a link is
// followed). Only a proven account's email answers 409.
func (s *Service) SignUp(ctx context.Context, in SignUpInput) error {
	in.StoreName, in.PhoneNumber, in.ReferredBy = strings.TrimSpace(in.StoreName), strings.TrimSpace(in.PhoneNumber), strings.TrimSpace(in.ReferredBy)
	switch {
	case in.StoreName == "":
		return apperr.Invalidf("Store name is required")
	case utf8.RuneCountInString(in.StoreName) > maxShort || utf8.RuneCountInString(in.ReferredBy) > maxShort || len(in.PhoneNumber) > 32:
		return apperr.Invalidf("Fields must be at most %d characters", maxShort)
	}
	var err error
	if in.Email, err = identity.ParseEmail(in.Email); err != nil {
		return err
	}
	if err := secret.CheckPassword(in.Password); err != nil {
		return err
	}
	if err := s.Limits.Take(ctx, "business-signup:"+in.Email, MaxSignUpsPerEmail, PerEmailWindow); err != nil {
		return err
	}
	hash, err := s.Hasher.Hash(ctx, in.Password)
	if err != nil {
		return err
	}
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, referred_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING RETURNING id`,
			in.Email, in.StoreName, in.PhoneNumber, hash, in.ReferredBy, s.now()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			var proven *time.Time
			if err := tx.QueryRow(ctx, "SELECT id, email_verified_at FROM business_accounts WHERE email = $1", in.Email).Scan(&id, &proven); err != nil {
				return fmt.Errorf("create business account: %w", err)
			}
			if proven != nil {
				return ErrEmailTaken
			}
		} else if err != nil {
			return fmt.Errorf("create business account: %w", err)
		}
		return s.Mailbox.Issue(ctx, tx, id, in.Email, hash)
	})
}

// ConfirmEmail follows a link with the password that goes with it (see
// identity.Mailbox) and starts a session of the proven account, ending
// oldToken's.
func (s *Service) ConfirmEmail(ctx context.Context, token, password, oldToken string) (*Account, string, error) {
	id, err := s.Mailbox.Confirm(ctx, token, password)
	if err != nil {
		return nil, "", err
	}
	return s.StartSession(ctx, id, oldToken)
}

// ResendProof mails a signed-in, unproven account a new link (limited per
// account: identity.MaxProofMailsPerAccount an hour).
func (s *Service) ResendProof(ctx context.Context, a *Account) error {
	if a.Verified {
		return identity.ErrProven
	}
	return s.Mailbox.Resend(ctx, a.ID)
}

// linkApprovedClaims links the stores of the approved claims made with the
// email of an account whose mailbox has just been proven: the claim waited
// for it (internal/claims/links.go links at approval only proven accounts).
// A claim that waits for the owners' consent, or was declined (claims.consent,
// migration 0024), is not linked. Each new link is in the audit log,
// credited to the account that proved the address.
func linkApprovedClaims(ctx context.Context, tx *db.Tx, businessID int64, at time.Time) error {
	rows, err := tx.Query(ctx, `SELECT DISTINCT c.store_id FROM business_accounts b JOIN claims c ON c.email = b.email
		WHERE b.id = $1 AND c.status = 'approved' AND c.consent IN ('', 'accepted') AND c.store_id IS NOT NULL
		ORDER BY c.store_id`, businessID)
	claimed, err := db.Collect(rows, err, "link approved claims", func(sc db.Scanner) (*int64, error) {
		var id int64
		return &id, sc.Scan(&id)
	})
	if err != nil {
		return err
	}
	var linked []int64
	for _, storeID := range claimed {
		made, err := ownership.Link(ctx, tx, businessID, storeID, at, "claim")
		if err != nil {
			return fmt.Errorf("link approved claims: %w", err)
		}
		if made {
			linked = append(linked, storeID)
		}
	}
	if len(linked) == 0 {
		return nil
	}
	var email string
	if err := tx.QueryRow(ctx, "SELECT email FROM business_accounts WHERE id = $1", businessID).Scan(&email); err != nil {
		return fmt.Errorf("link approved claims: %w", err)
	}
	for _, storeID := range linked {
		if err := audit.Write(ctx, tx, at, audit.BusinessActor(businessID, email), "store.link", 0, storeID,
			map[string]any{"email": email, "business_id": businessID, "reason": "approved claim, mailbox proven"}); err != nil {
			return err
		}
	}
	return nil
}

// pruneUnproven deletes the accounts whose mailbox was not proven within
// identity.UnprovenTTL, and their links. An account created before proof
// of mailbox existed that holds a store stays until its owner proves it.
func (s *Service) pruneUnproven(ctx context.Context) error {
	if err := s.DB.InTx(ctx, func(tx *db.Tx) error { return pruneUnlinked(ctx, tx, s.now().Add(-identity.UnprovenTTL)) }); err != nil {
		return fmt.Errorf("prune unproven business accounts: %w", err)
	}
	return nil
}

// pruneUnlinked deletes the unproven accounts created before cutoff that
// own no store (internal/ownership).
func pruneUnlinked(ctx context.Context, tx *db.Tx, cutoff time.Time) error {
	rows, err := tx.Query(ctx, "SELECT id FROM business_accounts WHERE email_verified_at IS NULL AND created_at < $1", cutoff)
	ids, err := db.Collect(rows, err, "unproven accounts", func(sc db.Scanner) (*int64, error) {
		var id int64
		return &id, sc.Scan(&id)
	})
	if err != nil {
		return err
	}
	unlinked, err := ownership.WithoutStores(ctx, tx, ids)
	if err != nil || len(unlinked) == 0 {
		return err
	}
	_, err = tx.Exec(ctx, "DELETE FROM business_accounts WHERE email_verified_at IS NULL AND id IN ("+db.IDList(tx, 1)+")", db.IDs(unlinked))
	return err
}

func proofMail(to, link string) mailbox.Message {
	text := fmt.Sprintf("Hello,\n\nSomeone signed up for the Locator store dashboard with this email address.\n"+
		"Open this link within 48 hours and enter the password you chose to confirm that this mailbox is yours:\n\n%s\n\n"+
		"If it was not you, ignore this email: nobody gets a store with your address, and the sign-up is deleted after 7 days.\n", link)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hello,</p><p>Someone signed up for the Locator store dashboard with this email address.
Open this link within 48 hours and enter the password you chose to confirm that this mailbox is yours:</p><p><a href="%s">Confirm your email</a></p>
<p>If it was not you, ignore this email: nobody gets a store with your address, and the sign-up is deleted after 7 days.</p>`, h(link))
	return mailbox.Message{To: to, Subject: "Confirm your email for the Locator store dashboard", Text: text, HTML: body}
}

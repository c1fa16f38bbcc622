package claims

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/identity"
	"locator/internal/ownership"
)

// The stores a business account may change in the store dashboard
// (internal/business) are its links (internal/ownership): made when a claim
// is approved (for the account with the claim's email, whichever of the two
// comes first), and by a moderator with LinkStore. Only an account whose
// mailbox is proven gets a store (docs/accounts.md, "Proof of mailbox"):
// an approved claim whose account is not proven yet waits, and
// internal/business links it when the owner follows the mailed link.

// ErrUnprovenAccount answers a moderator's link to an account whose owner
// has not confirmed its email.
var ErrUnprovenAccount = apperr.New(apperr.Conflict,
	"This business account has not confirmed its email yet: the store can be linked once its owner follows the link we mailed.")

// linkClaimStore links the store of an approved claim to the business
// account with the claim's email, when there is one whose mailbox is proven.
func (s *Service) linkClaimStore(ctx context.Context, tx *db.Tx, storeID int64, email, actor string) error {
	var businessID int64
	err := tx.QueryRow(ctx, "SELECT id FROM business_accounts WHERE email = $1 AND email_verified_at IS NOT NULL",
		strings.ToLower(email)).Scan(&businessID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("link store %d: %w", storeID, err)
	}
	_, err = ownership.Link(ctx, tx, businessID, storeID, s.now(), actor)
	return err
}

// LinkStore lets the business account with email change store storeID
// (a moderator's decision, written to the audit log). Linking twice is
// harmless.
func (s *Service) LinkStore(ctx context.Context, storeID int64, email, actor string) error {
	return s.inLinkTx(ctx, storeID, email, func(tx *db.Tx, email string) error {
		var businessID int64
		var proven *time.Time
		err := tx.QueryRow(ctx, "SELECT id, email_verified_at FROM business_accounts WHERE email = $1", email).Scan(&businessID, &proven)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "no business account with email %s", email)
		}
		if err != nil {
			return fmt.Errorf("link store: %w", err)
		}
		if proven == nil {
			return ErrUnprovenAccount
		}
		if _, err := s.Stores.GetTx(ctx, tx, storeID); err != nil {
			return err
		}
		made, err := ownership.Link(ctx, tx, businessID, storeID, s.now(), actor)
		if err != nil || !made {
			return err
		}
		return audit.Write(ctx, tx, s.now(), actor, "store.link", 0, storeID, map[string]any{"email": email, "business_id": businessID})
	})
}

// inLinkTx checks a moderator's store id and account email (LinkStore,
// UnlinkStore), then runs fn in one transaction with the email as
// accounts keep it.
func (s *Service) inLinkTx(ctx context.Context, storeID int64, email string, fn func(tx *db.Tx, email string) error) error {
	email = identity.NormalizeEmail(email)
	if storeID <= 0 {
		return apperr.Invalidf("store id must be a positive whole number")
	}
	if email == "" {
		return apperr.Invalidf("Email is required")
	}
	return s.DB.InTx(ctx, func(tx *db.Tx) error { return fn(tx, email) })
}

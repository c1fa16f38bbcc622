package claims

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/secret"
)

// BusinessInput is the create-user call of the claim wizard.
type BusinessInput struct {
	StoreName, Email, Password, PhoneNumber, ReferredBy string
}

// CreateBusinessAccount creates the store dashboard account. Its table is
// separate from customers; the password is hashed like members'. The email
// is unique, so concurrent identical submissions create exactly one account.
func (s *Service) CreateBusinessAccount(ctx context.Context, in BusinessInput) (int64, error) {
	in.StoreName, in.PhoneNumber, in.ReferredBy = clean(in.StoreName), clean(in.PhoneNumber), clean(in.ReferredBy)
	in.Email = strings.ToLower(clean(in.Email))
	switch {
	case in.StoreName == "":
		return 0, apperr.Invalidf("Store name is required")
	case in.Email == "":
		return 0, apperr.Invalidf("Email is required")
	case utf8.RuneCountInString(in.StoreName) > maxShort || utf8.RuneCountInString(in.ReferredBy) > maxShort || len(in.PhoneNumber) > 32:
		return 0, apperr.Invalidf("Fields must be at most %d characters", maxShort)
	}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
		return 0, apperr.Invalidf("Email is invalid")
	}
	if err := secret.CheckPassword(in.Password); err != nil {
		return 0, err
	}
	hash, err := s.Hasher.Hash(ctx, in.Password)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, referred_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING RETURNING id`,
			in.Email, in.StoreName, in.PhoneNumber, hash, in.ReferredBy, s.now()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.Conflict, "A business account with this email already exists. Sign in to the store dashboard with it.")
		}
		if err != nil {
			return fmt.Errorf("create business account: %w", err)
		}
		// A claim approved before the account existed gives it its store.
		return s.linkApprovedClaims(ctx, tx, id)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

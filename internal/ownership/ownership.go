// Package ownership owns the links between business accounts and the
// stores they may change (business_stores): only its SQL names the table
// (docs/architecture.md, "One owner per table"). Every row is an owner:
// the store dashboard, the moderators' claim view and the owners' mail all
// count owners from here, and a removal is written to the audit log in its
// transaction.
package ownership

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
)

// Owner is one business account linked to a store.
type Owner struct {
	BusinessID int64     `json:"id"`
	Email      string    `json:"email"`
	Since      time.Time `json:"since"`
	LinkedBy   string    `json:"linked_by"`
}

// List returns the owners of a store, the earliest link first.
func List(ctx context.Context, q db.Querier, storeID int64) ([]Owner, error) {
	rows, err := q.Query(ctx, `SELECT b.id, b.email, bs.created_at, bs.created_by FROM business_stores bs
		JOIN business_accounts b ON b.id = bs.business_id WHERE bs.store_id = $1 ORDER BY bs.created_at, b.id LIMIT 100`, storeID)
	return db.Collect(rows, err, fmt.Sprintf("owners of store %d", storeID), func(r db.Scanner) (*Owner, error) {
		var o Owner
		err := r.Scan(&o.BusinessID, &o.Email, &o.Since, &o.LinkedBy)
		o.Since = o.Since.UTC()
		return &o, err
	})
}

// Summary is the moderator's one line about a store's owners, e.g.
// "This store has 1 verified owner since Nov 3, 2026: owner@example.com."
// (empty for a store without owners).
func Summary(owners []Owner) string {
	if len(owners) == 0 {
		return ""
	}
	emails := make([]string, len(owners))
	for i, o := range owners {
		emails[i] = o.Email
	}
	noun := "owner"
	if len(owners) > 1 {
		noun = "owners"
	}
	return fmt.Sprintf("This store has %d verified %s since %s: %s.", len(owners), noun,
		owners[0].Since.Format("Jan 2, 2006"), strings.Join(emails, ", "))
}

// Remove deletes the link of account businessID to store storeID inside tx
// and writes "store.unlink" to the audit log (NotFound when there is no
// such link).
func Remove(ctx context.Context, tx *db.Tx, at time.Time, storeID, businessID int64, actor string) (Owner, error) {
	var o Owner
	err := tx.QueryRow(ctx, `SELECT b.id, b.email, bs.created_at, bs.created_by FROM business_stores bs
		JOIN business_accounts b ON b.id = bs.business_id WHERE bs.store_id = $1 AND bs.business_id = $2`, storeID, businessID).
		Scan(&o.BusinessID, &o.Email, &o.Since, &o.LinkedBy)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Owner{}, apperr.New(apperr.NotFound, "That account is not an owner of store %d", storeID)
		}
		return Owner{}, fmt.Errorf("unlink store %d: %w", storeID, err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM business_stores WHERE store_id = $1 AND business_id = $2", storeID, businessID); err != nil {
		return Owner{}, fmt.Errorf("unlink store %d: %w", storeID, err)
	}
	o.Since = o.Since.UTC()
	return o, audit.Write(ctx, tx, at, actor, "store.unlink", 0, storeID, map[string]any{
		"business_id": o.BusinessID, "email": o.Email, "linked_since": o.Since, "linked_by": o.LinkedBy})
}

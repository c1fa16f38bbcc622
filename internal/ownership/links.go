package ownership

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"locator/internal/db"
)

// The rows of business_stores are read and written only here
// (docs/architecture.md, "One owner per table"): the claims' approval,
// the dashboard, the reports' and the monthly mail's owners all ask this
// package. Audit entries stay with the callers, who know why a link was
// made; Remove writes its own.

// Link makes account businessID an owner of store storeID, made at by
// (created_by: "claim", a moderator, ...). It reports false when the
// account owned the store already (the link keeps its first date).
func Link(ctx context.Context, q db.Querier, businessID, storeID int64, at time.Time, by string) (bool, error) {
	res, err := q.Exec(ctx, `INSERT INTO business_stores (business_id, store_id, created_at, created_by)
		VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, businessID, storeID, at, by)
	if err != nil {
		return false, fmt.Errorf("link store %d: %w", storeID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("link store %d: %w", storeID, err)
	}
	return n > 0, nil
}

// Owns reports whether account businessID is an owner of store storeID.
func Owns(ctx context.Context, q db.Querier, businessID, storeID int64) (bool, error) {
	var one int
	err := q.QueryRow(ctx, "SELECT 1 FROM business_stores WHERE business_id = $1 AND store_id = $2", businessID, storeID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store link: %w", err)
	}
	return true, nil
}

// StoreIDs lists the stores account businessID owns, by id, at most limit.
func StoreIDs(ctx context.Context, q db.Querier, businessID int64, limit int) ([]int64, error) {
	rows, err := q.Query(ctx, "SELECT store_id FROM business_stores WHERE business_id = $1 ORDER BY store_id LIMIT $2", businessID, limit)
	return db.Collect(rows, err, fmt.Sprintf("stores of account %d", businessID), func(sc db.Scanner) (*int64, error) {
		var id int64
		return &id, sc.Scan(&id)
	})
}

// OwnerByEmail returns the id of the owner of store storeID whose account
// has email (as accounts keep it: lower case), 0 when none has.
func OwnerByEmail(ctx context.Context, q db.Querier, storeID int64, email string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT b.id FROM business_accounts b JOIN business_stores bs ON bs.business_id = b.id
		WHERE b.email = $1 AND bs.store_id = $2`, email, storeID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("link of store %d: %w", storeID, err)
	}
	return id, nil
}

// LatestEmail returns the email of the account linked to store storeID
// last (of two linked at once, the higher account id), "" when the store
// has no owner.
func LatestEmail(ctx context.Context, q db.Querier, storeID int64) (string, error) {
	var email string
	err := q.QueryRow(ctx, `SELECT a.email FROM business_stores l JOIN business_accounts a ON a.id = l.business_id
		WHERE l.store_id = $1 ORDER BY l.created_at DESC, l.business_id DESC LIMIT 1`, storeID).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("owner of store %d: %w", storeID, err)
	}
	return email, nil
}

// Pair is one link: an account and a store it owns.
type Pair struct{ BusinessID, StoreID int64 }

// Pairs returns the links of the accounts among businessIDs, by account,
// then store.
func Pairs(ctx context.Context, q db.Querier, businessIDs []int64) ([]Pair, error) {
	if len(businessIDs) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, "SELECT business_id, store_id FROM business_stores WHERE business_id IN ("+db.IDList(q, 1)+
		") ORDER BY business_id, store_id", db.IDs(businessIDs))
	return db.Collect(rows, err, "store links", func(sc db.Scanner) (*Pair, error) {
		var p Pair
		return &p, sc.Scan(&p.BusinessID, &p.StoreID)
	})
}

// WithoutStores returns those of businessIDs that own no store, in the
// order given.
func WithoutStores(ctx context.Context, q db.Querier, businessIDs []int64) ([]int64, error) {
	pairs, err := Pairs(ctx, q, businessIDs)
	if err != nil {
		return nil, err
	}
	owners := make(map[int64]bool, len(pairs))
	for _, p := range pairs {
		owners[p.BusinessID] = true
	}
	var out []int64
	for _, id := range businessIDs {
		if !owners[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

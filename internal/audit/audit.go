// Package audit writes and reads the audit log: who did what, when, to
// which claim or store, with the details (old and new values of a store
// change, say). Entries are written in the transaction of the change they
// describe, so the log never tells of a change that rolled back.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"locator/internal/db"
)

// Entry is one line of the log. ClaimID and StoreID are 0 when the entry
// is about no claim or no store.
type Entry struct {
	ID      int64           `json:"id"`
	At      time.Time       `json:"at"`
	Actor   string          `json:"actor"`
	Action  string          `json:"action"`
	ClaimID int64           `json:"claim_id,omitempty"`
	StoreID int64           `json:"store_id,omitempty"`
	Details json.RawMessage `json:"details"`
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// BusinessActor names a business account in the log: its id and its
// address, so an act of one account is never credited to another that had
// the same address before (say, an account removed and made again).
func BusinessActor(id int64, email string) string {
	return fmt.Sprintf("business:%d:%s", id, email)
}

// ModeratorActor names a moderator in the log, as BusinessActor does.
func ModeratorActor(id int64, email string) string {
	return fmt.Sprintf("moderator:%d:%s", id, email)
}

// Write adds an entry inside q (usually the transaction of the change).
func Write(ctx context.Context, q db.Querier, at time.Time, actor, action string, claimID, storeID int64, details any) error {
	b, err := json.Marshal(details)
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	if _, err := q.Exec(ctx, "INSERT INTO audit_log (at, actor, action, claim_id, store_id, details) VALUES ($1, $2, $3, $4, $5, $6)",
		at.UTC().Truncate(time.Microsecond), actor, action, nullID(claimID), nullID(storeID), string(b)); err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}

// ForStore returns the newest entries about store id (at most limit).
func ForStore(ctx context.Context, q db.Querier, storeID int64, limit int) ([]Entry, error) {
	rows, err := q.Query(ctx, `SELECT id, at, actor, action, COALESCE(claim_id, 0), COALESCE(store_id, 0), details
		FROM audit_log WHERE store_id = $1 ORDER BY id DESC LIMIT $2`, storeID, limit)
	return db.Collect(rows, err, "read audit log", func(r db.Scanner) (*Entry, error) {
		var e Entry
		var details string
		err := r.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.ClaimID, &e.StoreID, &details)
		e.Details = json.RawMessage(details)
		return &e, err
	})
}

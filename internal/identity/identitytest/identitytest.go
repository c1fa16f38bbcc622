// Package identitytest makes the account rows that tests sign in with or
// link to stores, one per area: a member, a business account, a
// moderator. Each returns the new row's id and fails the test when the
// insert does.
package identitytest

import (
	"context"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Member inserts a member with an unproven mailbox, named A B, phone 1,
// whose password hash is the text "old" (no password set).
func Member(t testing.TB, q db.Querier, email string) int64 {
	t.Helper()
	now := time.Now().UTC()
	return insert(t, q, "member "+email, `INSERT INTO customers (email, first_name, last_name, phone, password_hash, created_at, updated_at)
		VALUES ($1, 'A', 'B', '1', 'old', $2, $2) RETURNING id`, email, now)
}

// Business inserts an unproven business account made at at (store name
// "x", no phone, password hash "x").
func Business(t testing.TB, q db.Querier, email string, at time.Time) int64 {
	t.Helper()
	return insert(t, q, "business account "+email, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at)
		VALUES ($1, 'x', '', 'x', $2) RETURNING id`, email, at)
}

// Moderator inserts a moderator made now, password hash "x".
func Moderator(t testing.TB, q db.Querier, email string) int64 {
	t.Helper()
	return insert(t, q, "moderator "+email, `INSERT INTO moderators (email, password_hash, created_at) VALUES ($1, 'x', $2) RETURNING id`,
		email, time.Now().UTC())
}

func insert(t testing.TB, q db.Querier, what, query string, args ...any) int64 {
	t.Helper()
	var id int64
	dbtest.Must(t, q.QueryRow(context.Background(), query, args...).Scan(&id), "add %s", what)
	return id
}

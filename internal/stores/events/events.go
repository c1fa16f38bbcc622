// Package events writes the outbox of the partners' webhooks
// (docs/webhooks.md): each change a partner may hear of is one row of
// webhook_events, written in the transaction of the change itself, so an
// event is never told of a change that rolled back and never lost when
// the change committed. It sits under internal/stores, so the store,
// stock, licence and review write paths call it without knowing of HTTP or
// of webhooks; internal/webhooks fans the rows out to deliveries.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"locator/internal/db"
)

// The event types.
const (
	StoreCreated    = "store.created"
	StoreUpdated    = "store.updated"
	StoreClosed     = "store.closed"
	StockChanged    = "stock.changed"
	LicenceChanged  = "licence.changed"
	ReviewPublished = "review.published"
)

// Types are every event type, in the order the docs list them.
var Types = []string{StoreCreated, StoreUpdated, StoreClosed, StockChanged, LicenceChanged, ReviewPublished}

// Write adds an event of type typ about store storeID (0: none) with its
// data (encoded as JSON) inside q, the transaction of the change.
func Write(ctx context.Context, q db.Querier, typ string, storeID int64, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("event %s: %w", typ, err)
	}
	var store any
	if storeID != 0 {
		store = storeID
	}
	if _, err := q.Exec(ctx, "INSERT INTO webhook_events (type, store_id, data, created_at) VALUES ($1, $2, $3, $4)",
		typ, store, string(b), time.Now().UTC().Truncate(time.Microsecond)); err != nil {
		return fmt.Errorf("event %s: %w", typ, err)
	}
	return nil
}

// writeBatch is how many events one statement of WriteEach adds.
const writeBatch = 500

// WriteEach is Write for many stores at once (a feed's import stamps up to
// one store every few rows): an event of type typ about each of stores,
// with data(store), a statement per writeBatch events.
func WriteEach(ctx context.Context, q db.Querier, typ string, stores []int64, data func(store int64) any) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	args := make([]any, 0, 2+2*min(len(stores), writeBatch))
	for len(stores) > 0 {
		n := min(len(stores), writeBatch)
		var b strings.Builder
		b.WriteString("INSERT INTO webhook_events (type, store_id, data, created_at) VALUES ")
		args = append(args[:0], typ, now)
		for i, id := range stores[:n] {
			d, err := json.Marshal(data(id))
			if err != nil {
				return fmt.Errorf("event %s: %w", typ, err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "($1, $%d, $%d, $2)", len(args)+1, len(args)+2)
			var store any
			if id != 0 {
				store = id
			}
			args = append(args, store, string(d))
		}
		if _, err := q.Exec(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("event %s: %w", typ, err)
		}
		stores = stores[n:]
	}
	return nil
}

// Event is one row of the outbox.
type Event struct {
	ID        int64
	Type      string
	StoreID   int64
	Data      json.RawMessage
	CreatedAt time.Time
}

// Take returns the oldest events not yet fanned out (at most limit) and
// marks them fanned out, inside tx: the caller writes their deliveries in
// the same transaction, so an event is fanned out once, whatever replicas
// run at once (PostgreSQL: the rows are locked, a second taker skips them).
func Take(ctx context.Context, tx *db.Tx, limit int) ([]Event, error) {
	lock := ""
	if tx.Dialect() == db.Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	rows, err := tx.Query(ctx, "SELECT id, type, COALESCE(store_id, 0), data, created_at FROM webhook_events WHERE NOT fanned_out ORDER BY id LIMIT $1"+lock, limit)
	evs, err := db.Collect(rows, err, "read events", func(sc db.Scanner) (*Event, error) {
		var e Event
		var data string
		err := sc.Scan(&e.ID, &e.Type, &e.StoreID, &data, &e.CreatedAt)
		e.Data, e.CreatedAt = json.RawMessage(data), e.CreatedAt.UTC()
		return &e, err
	})
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		if _, err := tx.Exec(ctx, "UPDATE webhook_events SET fanned_out = TRUE WHERE id = $1", e.ID); err != nil {
			return nil, fmt.Errorf("mark event %d: %w", e.ID, err)
		}
	}
	return evs, nil
}

// Prune deletes events fanned out before a time: their deliveries keep
// their own bodies.
func Prune(ctx context.Context, q db.Querier, before time.Time) (int64, error) {
	res, err := q.Exec(ctx, "DELETE FROM webhook_events WHERE fanned_out AND created_at < $1", before.UTC())
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	return res.RowsAffected()
}

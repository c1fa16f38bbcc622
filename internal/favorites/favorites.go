// Package favorites keeps each member's favourite stores, newest first.
package favorites

import (
	"context"
	"encoding/json"
	"fmt"

	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/stores"
)

// Service manages favourites.
type Service struct {
	db     *db.DB
	stores *stores.Repo
	clock  clock.Clock
}

// New returns a service on d; clk (nil: the system's) dates favourites and
// tells the favourite stores' open status.
func New(d *db.DB, sr *stores.Repo, clk clock.Clock) *Service {
	return &Service{db: d, stores: sr, clock: clk}
}

// Add makes storeID a favourite of customerID (again: no change). An
// unknown or unpublished store is a NotFound error.
func (s *Service) Add(ctx context.Context, customerID, storeID int64) error {
	if _, err := s.stores.PublishedDoc(ctx, storeID); err != nil {
		return err
	}
	t := s.clock.Now().UTC()
	_, err := s.db.Exec(ctx, `INSERT INTO favorites (customer_id, store_id, created_at, seq) VALUES ($1, $2, $3, $4)
		ON CONFLICT (customer_id, store_id) DO NOTHING`, customerID, storeID, t, t.UnixNano())
	if err != nil {
		return fmt.Errorf("add favourite: %w", err)
	}
	return nil
}

// Remove drops a favourite (not a favourite: no change). An unknown store
// is a NotFound error.
func (s *Service) Remove(ctx context.Context, customerID, storeID int64) error {
	res, err := s.db.Exec(ctx, "DELETE FROM favorites WHERE customer_id = $1 AND store_id = $2", customerID, storeID)
	if err != nil {
		return fmt.Errorf("remove favourite: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.stores.Get(ctx, storeID); err != nil {
			return err
		}
	}
	return nil
}

// Docs returns the customer's published favourite stores as the search API
// shows them (with the live fields at the time of the call, see
// stores.PublishedDocs), newest first.
func (s *Service) Docs(ctx context.Context, customerID int64) ([]json.RawMessage, error) {
	rows, err := s.db.Query(ctx, "SELECT store_id FROM favorites WHERE customer_id = $1 ORDER BY seq DESC, store_id DESC", customerID)
	ids, err := db.Collect(rows, err, "favourites", func(sc db.Scanner) (*int64, error) {
		var id int64
		return &id, sc.Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	docs, err := stores.PublishedDocs(ctx, s.db, ids, s.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("list favourites: %w", err)
	}
	out := []json.RawMessage{}
	for _, id := range ids {
		if doc, ok := docs[id]; ok {
			out = append(out, json.RawMessage(doc))
		}
	}
	return out, nil
}

package stores

import (
	"context"
	"fmt"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// Every change to a store reaches the replicas' search indexes through the
// search version (see feed.go): the write bumps it, stamps the store's row
// with the new value and re-renders the row's search document, all in the
// transaction that makes the change. Repo.Write is the way in for code
// outside this package: a feature that changes stores (a review, a claim)
// gets a Writer, and every store it saves or touches through it carries the
// version and a fresh document, so no write path can forget the replicas.

// Writer changes stores inside one transaction, at one search version.
// Get one from Repo.Write; it is only valid during the callback.
type Writer struct {
	repo *Repo
	tx   *db.Tx
	v    int64
}

// Write bumps the search version inside tx (the caller's transaction) and
// calls fn with a Writer at that version. The version's row lock lasts
// until tx ends, so versions commit in order and a replica that has read
// version v has seen every change numbered up to v.
func (r *Repo) Write(ctx context.Context, tx *db.Tx, fn func(w *Writer) error) error {
	v, err := bumpVersion(ctx, tx)
	if err != nil {
		return err
	}
	return fn(&Writer{repo: r, tx: tx, v: v})
}

// bumpVersion advances the search version and returns the new value.
func bumpVersion(ctx context.Context, tx *db.Tx) (int64, error) {
	var v int64
	err := tx.QueryRow(ctx, "UPDATE search_version SET version = version + 1 WHERE id = 1 RETURNING version").Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("bump search version: %w", err)
	}
	return v, nil
}

// Version is the search version the writer's changes carry.
func (w *Writer) Version() int64 { return w.v }

// Save validates s (Store.Validate: fields, weekly hours, special hours,
// closures; a user-facing apperr.Invalid when refused) and writes it with
// its hours, exceptions and search document: an insert when s.ID is 0
// (setting s.ID), an update otherwise. On an error the caller rolls its
// transaction back, so nothing of the store is written.
func (w *Writer) Save(ctx context.Context, s *Store) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return w.repo.save(ctx, w.tx, s, w.v)
}

// touch re-renders the search documents of stores whose rows a Writer
// method changed by its own UPDATE (a rating, an image, a licence record),
// so that the replicas pick the change up.
func (w *Writer) touch(ctx context.Context, ids ...int64) error {
	for _, id := range ids {
		s, err := getStore(ctx, w.tx, id)
		if err != nil {
			return err
		}
		docJSON, err := RenderDoc(s)
		if err != nil {
			return err
		}
		// updated_at moves too: the store's page changed (its rating, say).
		if _, err := w.tx.Exec(ctx, "UPDATE stores SET search_doc = $1, doc_format = $2, version = $3, updated_at = $4 WHERE id = $5",
			string(docJSON), DocFormat, w.v, time.Now().UTC(), id); err != nil {
			return fmt.Errorf("re-render store %d: %w", id, err)
		}
	}
	return nil
}

// SetStatus publishes, hides or holds store id.
func (w *Writer) SetStatus(ctx context.Context, id int64, st Status) error {
	if st != Published && st != Pending && st != Hidden {
		return apperr.Invalidf("status must be published, pending or hidden")
	}
	res, err := w.tx.Exec(ctx, "UPDATE stores SET status = $1, version = $2, updated_at = $3 WHERE id = $4",
		string(st), w.v, time.Now().UTC(), id)
	if err != nil {
		return fmt.Errorf("set status of store %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.NotFound, "store %d not found", id)
	}
	return nil
}

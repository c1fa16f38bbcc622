package stores

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/stores/events"
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
//
// It also writes the partners' webhook event of the change in the same
// transaction (docs/webhooks.md): store.created for an insert,
// store.updated with the fields whose published value changed for an
// update (none: no event), and store.closed when the update closes the
// store for good.
func (w *Writer) Save(ctx context.Context, s *Store) error {
	if err := s.Validate(); err != nil {
		return err
	}
	var before map[string]json.RawMessage
	wasClosed := false
	if s.ID != 0 {
		old, err := getStore(ctx, w.tx, s.ID)
		if err != nil && apperr.CodeOf(err) != apperr.NotFound {
			return err
		}
		if old != nil {
			if before, err = docFields(old); err != nil {
				return err
			}
			wasClosed = old.PermanentlyClosed
		}
	}
	if err := w.repo.save(ctx, w.tx, s, w.v); err != nil {
		return err
	}
	return storeEvent(ctx, w.tx, s, before, wasClosed)
}

// docFields is a store's search document by field.
func docFields(s *Store) (map[string]json.RawMessage, error) {
	doc, err := RenderDoc(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, fmt.Errorf("store %d document: %w", s.ID, err)
	}
	return m, nil
}

// storeEvent writes the webhook event of a saved store: created when there
// was no store before, else updated with the changed fields (by the
// search document, the store as the API shows it), and closed when it was
// closed for good now.
func storeEvent(ctx context.Context, tx *db.Tx, s *Store, before map[string]json.RawMessage, wasClosed bool) error {
	base := map[string]any{"store_id": s.ID, "name": s.Name}
	if before == nil {
		return events.Write(ctx, tx, events.StoreCreated, s.ID, base)
	}
	after, err := docFields(s)
	if err != nil {
		return err
	}
	changed := []string{}
	for k, v := range after {
		if !bytes.Equal(before[k], v) {
			changed = append(changed, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			changed = append(changed, k)
		}
	}
	if s.PermanentlyClosed != wasClosed && !slices.Contains(changed, "permanently_closed") {
		changed = append(changed, "permanently_closed") // kept beside the document, not in it
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	base["changed_fields"] = changed
	if err := events.Write(ctx, tx, events.StoreUpdated, s.ID, base); err != nil {
		return err
	}
	if s.PermanentlyClosed && !wasClosed {
		return events.Write(ctx, tx, events.StoreClosed, s.ID, map[string]any{"store_id": s.ID, "name": s.Name})
	}
	return nil
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

package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"locator/internal/db"
)

// After an upgrade that changes RenderDoc's output (DocFormat), the rows
// written before keep their former documents until each store is written
// again; the index serves them meanwhile (they are correct, only without
// what the new format adds, such as the list part, ListEnd). RerenderDocs
// brings them up to date in the background, through the change feed.

// rerenderBatch is how many stores one transaction of RerenderDocs
// re-renders: the search version's lock, which every store write waits
// for, is held for one batch (tens of milliseconds).
const rerenderBatch = 300

// staleDocs are the rows whose document is of an older format; the index
// on (doc_format, id) serves both the probe and the walk in id order.
const staleDocs = "doc_format < $1"

// StaleDocs counts the stores whose document is of an older format than
// DocFormat.
func (r *Repo) StaleDocs(ctx context.Context) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stores WHERE "+staleDocs, DocFormat).Scan(&n); err != nil {
		return 0, fmt.Errorf("count stale search documents: %w", err)
	}
	return n, nil
}

// RerenderDocs re-renders the search documents of older formats
// (doc_format < DocFormat), every status included (a pending or hidden
// store may be published later, and its row would then carry the former
// document), a batch of stores per transaction in id order. A store whose
// document changes takes the batch's search version, so every replica's
// index follows; one whose document is already the current rendering
// (written by this release before the number existed) only has its
// doc_format set. updated_at stays: the store did not change.
//
// Like RecheckLicences, any replica may run it at any time: each batch is
// read after the search version's lock, so replicas running at once take
// turns, never re-render a store twice, and one that comes later finds
// nothing to do. It stops between batches when ctx ends (the batch in
// flight commits or rolls back whole), and a later run resumes with the
// rows still stale. progress, when not nil, is called after each batch
// with the totals so far. It returns how many stores it re-rendered and
// how many of them changed.
func (r *Repo) RerenderDocs(ctx context.Context, progress func(done, changed int)) (done, changed int, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return done, changed, err
		}
		var one int
		err := r.db.QueryRow(ctx, "SELECT 1 FROM stores WHERE "+staleDocs+" LIMIT 1", DocFormat).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return done, changed, nil // nothing stale: no version bump
		}
		if err != nil {
			return done, changed, fmt.Errorf("find stale search documents: %w", err)
		}
		var n, c int
		err = r.db.InTx(ctx, func(tx *db.Tx) error {
			n, c = 0, 0
			return r.Write(ctx, tx, func(w *Writer) error {
				type item struct {
					id  int64
					doc string
				}
				rows, err := tx.Query(ctx, "SELECT id, search_doc FROM stores WHERE "+staleDocs+" ORDER BY doc_format, id LIMIT $2",
					DocFormat, rerenderBatch)
				list, err := db.Collect(rows, err, "stale search documents", func(sc db.Scanner) (*item, error) {
					var it item
					return &it, sc.Scan(&it.id, &it.doc)
				})
				if err != nil {
					return err
				}
				for _, it := range list {
					ok, err := w.rerender(ctx, it.id, it.doc)
					if err != nil {
						return err
					}
					n++
					if ok {
						c++
					}
				}
				return nil
			})
		})
		if err != nil {
			return done, changed, err
		}
		done, changed = done+n, changed+c
		if progress != nil {
			progress(done, changed)
		}
	}
}

// rerender renders store id again and writes the document with the
// current format; old is the row's document. It reports whether the
// document changed (and the store took the writer's version).
func (w *Writer) rerender(ctx context.Context, id int64, old string) (bool, error) {
	s, err := getStore(ctx, w.tx, id)
	if err != nil {
		return false, err
	}
	doc, err := RenderDoc(s)
	if err != nil {
		return false, err
	}
	if string(doc) == old {
		if _, err := w.tx.Exec(ctx, "UPDATE stores SET doc_format = $1 WHERE id = $2", DocFormat, id); err != nil {
			return false, fmt.Errorf("re-render store %d: %w", id, err)
		}
		return false, nil
	}
	if _, err := w.tx.Exec(ctx, "UPDATE stores SET search_doc = $1, doc_format = $2, version = $3 WHERE id = $4",
		string(doc), DocFormat, w.v, id); err != nil {
		return false, fmt.Errorf("re-render store %d: %w", id, err)
	}
	return true, nil
}

package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"locator/internal/apperr"
	"locator/internal/db"
)

// After an upgrade that changes RenderDoc's output (DocFormat), the rows
// written before keep their former documents until each store is written
// again; the index serves them meanwhile (they are correct, only without
// what the new format adds, such as the list part, ListEnd). RerenderDocs
// brings them up to date in the background, through the change feed.

// rerenderBatch is how many stores one transaction of RerenderDocs
// re-renders: the search version's lock, which every store write waits
// for, is held for one batch (15-20 ms at SLB-1 S, docs/performance.md).
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
// (written by this code before its row had a number) only has its
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
				ids, old := make([]int64, len(list)), make([]string, len(list))
				for i, it := range list {
					ids[i], old[i] = it.id, it.doc
				}
				ss, err := getStores(ctx, tx, ids)
				if err != nil {
					return err
				}
				n = len(list)
				c, err = w.rerender(ctx, ss, old)
				return err
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

// rerender renders ss again and writes their documents with the current
// format; old holds the rows' documents. A store whose
// document changed takes the writer's version; it returns how many did.
func (w *Writer) rerender(ctx context.Context, ss []*Store, old []string) (int, error) {
	var same, changed []any
	for i, s := range ss {
		doc, err := RenderDoc(s)
		if err != nil {
			return 0, err
		}
		if string(doc) == old[i] {
			same = append(same, s.ID)
		} else {
			changed = append(changed, s.ID, string(doc))
		}
	}
	if len(same) > 0 {
		if _, err := w.tx.Exec(ctx, "UPDATE stores SET doc_format = $1 WHERE id IN ("+placeholders(len(same), 2)+")",
			append([]any{DocFormat}, same...)...); err != nil {
			return 0, fmt.Errorf("re-render stores: %w", err)
		}
	}
	if len(changed) == 0 {
		return 0, nil
	}
	if w.tx.Dialect() == db.SQLite {
		// In process, a statement a store costs less than the join below
		// (S: 5.8 s against 9.2 s); PostgreSQL would pay a round trip each
		// (23 s against 6.3 s).
		for i := 0; i < len(changed); i += 2 {
			if _, err := w.tx.Exec(ctx, "UPDATE stores SET search_doc = $1, doc_format = $2, version = $3 WHERE id = $4",
				changed[i+1], DocFormat, w.v, changed[i]); err != nil {
				return 0, fmt.Errorf("re-render store %d: %w", changed[i], err)
			}
		}
		return len(changed) / 2, nil
	}
	// PostgreSQL names a VALUES list's columns column1, column2, ...
	var b strings.Builder
	for i := 0; i < len(changed); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(CAST($%d AS BIGINT), $%d)", i+3, i+4)
	}
	q := "UPDATE stores SET search_doc = v.column2, doc_format = $1, version = $2 FROM (VALUES " + b.String() + ") AS v WHERE stores.id = v.column1"
	if _, err := w.tx.Exec(ctx, q, append([]any{DocFormat, w.v}, changed...)...); err != nil {
		return 0, fmt.Errorf("re-render stores: %w", err)
	}
	return len(changed) / 2, nil
}

// getStores is getStore for many stores, in their order, in three queries
// rather than three a store.
func getStores(ctx context.Context, q db.Querier, ids []int64) ([]*Store, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	in := "(" + placeholders(len(ids), 1) + ")"
	rows, err := q.Query(ctx, "SELECT "+storeColumns+" FROM stores s LEFT JOIN countries c ON c.id = s.country_id WHERE s.id IN "+in, args...)
	list, err := db.Collect(rows, err, "stores", scanStore)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*Store, len(list))
	for i := range list {
		byID[list[i].ID] = &list[i]
	}
	out := make([]*Store, len(ids))
	for i, id := range ids {
		if out[i] = byID[id]; out[i] == nil {
			return nil, apperr.New(apperr.NotFound, "store %d not found", id)
		}
	}
	if err := loadHours(ctx, q, byID, in, args); err != nil {
		return nil, fmt.Errorf("stores: %w", err)
	}
	return out, nil
}

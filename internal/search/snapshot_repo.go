package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"locator/internal/db"
)

// snapRepo reads and writes the search snapshots: search's own tables
// (search_snapshots, search_snapshot_parts, search_snapshot_stock), never
// the stores.
type snapRepo struct{ db *db.DB }

// snapHeader is one row of search_snapshots.
type snapHeader struct {
	ID      int64
	Version int64
	Stores  int
	Parts   int
	Created int64 // unix seconds

	// The stock side (stocksnap.go): the stock version its rows reflect
	// (-1: the snapshot has none), their layout, parts and rows.
	StockVersion int64
	StockFormat  int
	StockParts   int
	StockRows    int
}

// hasStock reports whether h has a stock side this binary reads.
func (h snapHeader) hasStock() bool { return h.StockVersion >= 0 && h.StockFormat == stockSnapFormat }

// abandonedAfter is how long an incomplete snapshot may stay before it is
// taken for abandoned (its writer died): until then no other replica
// starts writing one, afterwards the next completed snapshot deletes it.
const abandonedAfter = 10 * time.Minute

// latest returns the newest complete snapshot of this format.
func (r snapRepo) latest(ctx context.Context) (snapHeader, bool, error) {
	var h snapHeader
	err := r.db.QueryRow(ctx, `SELECT id, version, stores, parts, created_unix,
		COALESCE(stock_version, -1), stock_format, stock_parts, stock_rows FROM search_snapshots
		WHERE complete AND format = $1 ORDER BY version DESC, id DESC LIMIT 1`, snapshotFormat).
		Scan(&h.ID, &h.Version, &h.Stores, &h.Parts, &h.Created, &h.StockVersion, &h.StockFormat, &h.StockParts, &h.StockRows)
	if errors.Is(err, sql.ErrNoRows) {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("read search snapshot: %w", err)
	}
	return h, true, nil
}

// readParts calls fn with each part of snapshot id, in part order, read
// into a buffer from buf.
func (r snapRepo) readParts(ctx context.Context, id int64, buf func(n int) []byte, fn func(part int, data []byte) error) error {
	return r.read(ctx, "search_snapshot_parts", id, buf, fn)
}

// readStockParts is readParts for the parts of the stock side.
func (r snapRepo) readStockParts(ctx context.Context, id int64, buf func(n int) []byte, fn func(part int, data []byte) error) error {
	return r.read(ctx, "search_snapshot_stock", id, buf, fn)
}

func (r snapRepo) read(ctx context.Context, table string, id int64, buf func(n int) []byte, fn func(part int, data []byte) error) error {
	rows, err := r.db.Query(ctx, "SELECT part, data FROM "+table+" WHERE snapshot_id = $1 ORDER BY part", id)
	if err != nil {
		return fmt.Errorf("read search snapshot %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var part int
		var raw sql.RawBytes // the driver's memory, valid until Next
		if err := rows.Scan(&part, &raw); err != nil {
			return fmt.Errorf("read search snapshot %d: %w", id, err)
		}
		data := append(buf(len(raw)), raw...)
		if err := fn(part, data); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read search snapshot %d: %w", id, err)
	}
	return nil
}

// snapshotLock is the PostgreSQL advisory lock key of begin.
const snapshotLock = 0x5eac5a47

// begin records a new, incomplete snapshot and returns its id, or
// 0 when another replica is writing one (an incomplete snapshot younger
// than abandonedAfter) or has just written one as new (of the search
// version and the stock version, -1 without a stock side): one writer at
// a time is enough.
func (r snapRepo) begin(ctx context.Context, version, stockVersion int64, now time.Time) (int64, error) {
	var id int64
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		// Check and insert as one: SQLite's write transactions are serial
		// already; on PostgreSQL two replicas would both see no writer.
		if tx.Dialect() == db.Postgres {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", snapshotLock); err != nil {
				return err
			}
		}
		var busy int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM search_snapshots
			WHERE (NOT complete AND created_unix >= $1) OR
			(complete AND format = $2 AND version >= $3 AND COALESCE(stock_version, -1) >= $4)`,
			now.Add(-abandonedAfter).Unix(), snapshotFormat, version, stockVersion).Scan(&busy); err != nil {
			return err
		}
		if busy > 0 {
			return nil
		}
		return tx.QueryRow(ctx, `INSERT INTO search_snapshots (version, format, stores, parts, created_unix)
			VALUES ($1, $2, 0, 0, $3) RETURNING id`, version, snapshotFormat, now.Unix()).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("begin search snapshot: %w", err)
	}
	return id, nil
}

// putPart stores one part, in its own short transaction so that
// store writes are not held up while a large snapshot is written.
func (r snapRepo) putPart(ctx context.Context, id int64, part int, data []byte) error {
	if _, err := r.db.Exec(ctx, "INSERT INTO search_snapshot_parts (snapshot_id, part, data) VALUES ($1, $2, $3)", id, part, data); err != nil {
		return fmt.Errorf("write search snapshot %d part %d: %w", id, part, err)
	}
	return nil
}

// putStockPart is putPart for a part of the stock side.
func (r snapRepo) putStockPart(ctx context.Context, id int64, part int, data []byte) error {
	if _, err := r.db.Exec(ctx, "INSERT INTO search_snapshot_stock (snapshot_id, part, data) VALUES ($1, $2, $3)", id, part, data); err != nil {
		return fmt.Errorf("write search snapshot %d stock part %d: %w", id, part, err)
	}
	return nil
}

// stockSide is what complete records of a snapshot's stock side.
type stockSide struct {
	version     int64 // -1: none
	parts, rows int
}

// complete records the size of snapshot id and its stock side, marks it
// complete and deletes the snapshots it supersedes (complete ones of an
// older or equal version, both search and stock) and abandoned ones, and
// any stock parts left without their snapshot (a binary that did not know
// them deleted it).
func (r snapRepo) complete(ctx context.Context, id, version int64, nstores, parts int, bytes int64, stock stockSide, now time.Time) error {
	var sv any // NULL: no stock side
	if stock.version >= 0 {
		sv = stock.version
	}
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE search_snapshots SET complete = TRUE, stores = $2, parts = $3, bytes = $4,
			stock_version = $5, stock_format = $6, stock_parts = $7, stock_rows = $8 WHERE id = $1`,
			id, nstores, parts, bytes, sv, stockSnapFormat, stock.parts, stock.rows); err != nil {
			return err
		}
		const old = `id <> $1 AND ((complete AND version <= $2 AND COALESCE(stock_version, -1) <= $4) OR (NOT complete AND created_unix < $3))`
		cutoff := now.Add(-abandonedAfter).Unix()
		for _, table := range []string{"search_snapshot_parts", "search_snapshot_stock"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE snapshot_id IN
				(SELECT id FROM search_snapshots WHERE `+old+`)`, id, version, cutoff, stock.version); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "DELETE FROM search_snapshots WHERE "+old, id, version, cutoff, stock.version); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM search_snapshot_stock WHERE snapshot_id NOT IN (SELECT id FROM search_snapshots)")
		return err
	})
	if err != nil {
		return fmt.Errorf("complete search snapshot %d: %w", id, err)
	}
	return nil
}

// drop deletes snapshot id and its parts (a write that failed).
func (r snapRepo) drop(ctx context.Context, id int64) error {
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		for _, table := range []string{"search_snapshot_parts", "search_snapshot_stock"} {
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE snapshot_id = $1", id); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, "DELETE FROM search_snapshots WHERE id = $1", id)
		return err
	})
}

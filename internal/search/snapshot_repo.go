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
// (search_snapshots, search_snapshot_parts), never the stores.
type snapRepo struct{ db *db.DB }

// snapHeader is one row of search_snapshots.
type snapHeader struct {
	ID      int64
	Version int64
	Stores  int
	Parts   int
	Created int64 // unix seconds
}

// abandonedAfter is how long an incomplete snapshot may stay before it is
// taken for abandoned (its writer died): until then no other replica
// starts writing one, afterwards the next completed snapshot deletes it.
const abandonedAfter = 10 * time.Minute

// latest returns the newest complete snapshot of this format.
func (r snapRepo) latest(ctx context.Context) (snapHeader, bool, error) {
	var h snapHeader
	err := r.db.QueryRow(ctx, `SELECT id, version, stores, parts, created_unix FROM search_snapshots
		WHERE complete AND format = $1 ORDER BY version DESC, id DESC LIMIT 1`, snapshotFormat).
		Scan(&h.ID, &h.Version, &h.Stores, &h.Parts, &h.Created)
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
	rows, err := r.db.Query(ctx, "SELECT part, data FROM search_snapshot_parts WHERE snapshot_id = $1 ORDER BY part", id)
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
// than abandonedAfter) or has just written one as new: one writer at a
// time is enough.
func (r snapRepo) begin(ctx context.Context, version int64, now time.Time) (int64, error) {
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
			WHERE (NOT complete AND created_unix >= $1) OR (complete AND format = $2 AND version >= $3)`,
			now.Add(-abandonedAfter).Unix(), snapshotFormat, version).Scan(&busy); err != nil {
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

// complete records the size of snapshot id, marks it complete and
// deletes the snapshots it supersedes (complete ones of an older or equal
// version) and abandoned ones.
func (r snapRepo) complete(ctx context.Context, id, version int64, nstores, parts int, bytes int64, now time.Time) error {
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE search_snapshots SET complete = TRUE, stores = $2, parts = $3, bytes = $4 WHERE id = $1",
			id, nstores, parts, bytes); err != nil {
			return err
		}
		const old = `id <> $1 AND ((complete AND version <= $2) OR (NOT complete AND created_unix < $3))`
		cutoff := now.Add(-abandonedAfter).Unix()
		if _, err := tx.Exec(ctx, `DELETE FROM search_snapshot_parts WHERE snapshot_id IN
			(SELECT id FROM search_snapshots WHERE `+old+`)`, id, version, cutoff); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM search_snapshots WHERE "+old, id, version, cutoff)
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
		if _, err := tx.Exec(ctx, "DELETE FROM search_snapshot_parts WHERE snapshot_id = $1", id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM search_snapshots WHERE id = $1", id)
		return err
	})
}

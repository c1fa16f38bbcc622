package medusa

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The background sync of `serve`: every replica ticks, the database
// decides which one runs (a lease in medusa_sync) and when (next_at). A
// failed run is tried again after a back-off that doubles with each
// failure in a row, from MinBackoff to MaxBackoff; a successful one is
// next due an interval later.

const (
	MinBackoff = time.Minute
	MaxBackoff = time.Hour
	// RunTimeout bounds one background run, every page of every call in
	// it: a slow marketplace costs a run, never the replica.
	RunTimeout = 5 * time.Minute
)

// Backoff is the wait before the next try after failures failed runs in
// a row (1 or more).
func Backoff(failures int) time.Duration {
	d := MinBackoff
	for i := 1; i < failures && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// State is a source's sync state, as `products sync --status` and /admin
// show it.
type State struct {
	Source    string     `json:"source"`
	Cursor    string     `json:"cursor"`
	NextAt    *time.Time `json:"next_at"`
	Failures  int        `json:"failures"`
	LastError string     `json:"last_error"`
	LastOKAt  *time.Time `json:"last_ok_at"`
	LastRunAt *time.Time `json:"last_run_at"`
	// What the last run withdrew (Report's fields of the same names).
	LastWithdrawn       int `json:"last_withdrawn"`
	LastProductsRemoved int `json:"last_products_removed"`
	LastStockRemoved    int `json:"last_stock_removed"`
	LastLocationsGone   int `json:"last_locations_gone"`
}

// State returns the sync state of this syncer's source (zero before its
// first run).
func (s *Syncer) State(ctx context.Context) (State, error) {
	st := State{Source: s.client.Source()}
	var next, ok, run sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT catalogue_after, next_at, failures, last_error, last_ok_at, last_run_at,
		last_withdrawn, last_products_removed, last_stock_removed, last_locations_gone
		FROM medusa_sync WHERE source = $1`, st.Source).Scan(&st.Cursor, &next, &st.Failures, &st.LastError, &ok, &run,
		&st.LastWithdrawn, &st.LastProductsRemoved, &st.LastStockRemoved, &st.LastLocationsGone)
	if errors.Is(err, sql.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read the sync state: %w", err)
	}
	st.NextAt, st.LastOKAt, st.LastRunAt = timeOrNil(next), timeOrNil(ok), timeOrNil(run)
	return st, nil
}

func timeOrNil(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

// RunIfDue runs the sync when it is due and no other replica is running
// it, then records the outcome: due again interval later, or after the
// back-off. ran is false when it did not run.
func (s *Syncer) RunIfDue(ctx context.Context, interval time.Duration) (ran bool, rep *Report, err error) {
	return s.runLeased(ctx, interval, false)
}

// RunNow is RunIfDue whether or not the run is due (the command): only a
// run in progress elsewhere keeps it from running.
func (s *Syncer) RunNow(ctx context.Context, interval time.Duration) (ran bool, rep *Report, err error) {
	return s.runLeased(ctx, interval, true)
}

func (s *Syncer) runLeased(ctx context.Context, interval time.Duration, force bool) (ran bool, rep *Report, err error) {
	src := s.client.Source()
	if err := s.ensureSource(ctx, src); err != nil {
		return false, nil, err
	}
	now := s.Now().UTC()
	// The lease outlasts the run's own deadline: a replica that died
	// mid-run hands over once it ends.
	res, err := s.db.Exec(ctx, `UPDATE medusa_sync SET lease_until = $1, last_run_at = $2 WHERE source = $3
		AND ($4 OR next_at IS NULL OR next_at <= $2) AND (lease_until IS NULL OR lease_until < $2)`,
		now.Add(RunTimeout+time.Minute), now, src, force)
	if err != nil {
		return false, nil, fmt.Errorf("take the sync lease: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, nil, err
	}
	runCtx, cancel := context.WithTimeout(ctx, RunTimeout)
	rep, runErr := s.Run(runCtx)
	cancel()
	if ctx.Err() != nil {
		// Stopping: give the lease back, keep the schedule.
		_, _ = s.db.Exec(context.WithoutCancel(ctx), `UPDATE medusa_sync SET lease_until = NULL WHERE source = $1`, src)
		return true, rep, runErr
	}
	done := s.Now().UTC()
	if runErr == nil {
		_, err = s.db.Exec(ctx, `UPDATE medusa_sync SET lease_until = NULL, failures = 0, last_error = '', last_ok_at = $1,
			next_at = $2 WHERE source = $3`, done, done.Add(interval), src)
	} else {
		var failures int
		if err = s.db.QueryRow(ctx, `SELECT failures FROM medusa_sync WHERE source = $1`, src).Scan(&failures); err == nil {
			failures++
			_, err = s.db.Exec(ctx, `UPDATE medusa_sync SET lease_until = NULL, failures = $1, last_error = $2, next_at = $3
				WHERE source = $4`, failures, clip(runErr.Error()), done.Add(Backoff(failures)), src)
		}
	}
	if err != nil {
		return true, rep, errors.Join(runErr, fmt.Errorf("record the sync's outcome: %w", err))
	}
	return true, rep, runErr
}

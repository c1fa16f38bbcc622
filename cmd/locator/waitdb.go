package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"locator/internal/config"
	"locator/internal/db"
)

// Backoff of a replica waiting for its database at start: the first retry
// after waitFirst, each wait twice the last, at most waitMax.
const (
	waitFirst = 250 * time.Millisecond
	waitMax   = 15 * time.Second
)

// waitForDB opens and migrates the database as openDB does, and while the
// database cannot be reached (refused, hanging, starting up: db.Unavailable)
// tries again with backoff until it answers or ctx ends (SIGTERM). A
// replica started during a database outage so comes up on its own when the
// database does, instead of exiting and leaving the retry to its
// supervisor. Any other error (a wrong password, a failed migration) ends
// the start at once: waiting would not fix it.
func waitForDB(ctx context.Context, cfg config.Config, log *slog.Logger) (*db.DB, error) {
	wait := waitFirst
	for attempt := 1; ; attempt++ {
		d, err := openDB(ctx, cfg, log)
		if err == nil {
			if attempt > 1 {
				log.Info("database reached", "attempts", attempt)
			}
			return d, nil
		}
		if !db.Unavailable(err) || ctx.Err() != nil || strings.HasPrefix(cfg.DatabaseURL, "sqlite:") {
			return nil, err // SQLite is a local file: Open already waits out a busy one
		}
		log.Warn("waiting for the database", "attempt", attempt, "retry_in", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("stopped while waiting for the database: %w", err)
		case <-time.After(wait):
		}
		wait = min(2*wait, waitMax)
	}
}

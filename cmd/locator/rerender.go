package main

import (
	"context"
	"log/slog"
	"time"

	"locator/internal/stores"
)

// docRerenderEvery is how often a replica looks for search documents of an
// older format (stores.DocFormat): an index probe when there are none.
// Stores an older replica writes during a rolling upgrade are found the
// next time.
const docRerenderEvery = 5 * time.Minute

// docRerenderLogEvery is how often a long re-render logs its progress.
const docRerenderLogEvery = 30 * time.Second

// rerenderStale brings the search documents of rows written by an older
// release up to the current format (docs/deploy.md, "After an upgrade"):
// a job of every replica (serveJobs); the replicas take turns batch by
// batch (stores.Repo.RerenderDocs). The index serves the former documents
// meanwhile. It runs one re-render of the stale documents, if any, and
// logs what it did.
func rerenderStale(ctx context.Context, sr *stores.Repo, log *slog.Logger) {
	stale, err := sr.StaleDocs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			log.Warn("search document re-render failed", "err", err)
		}
		return
	}
	if stale == 0 {
		return
	}
	start := time.Now()
	log.Info("re-rendering search documents of an older format", "stores", stale, "format", stores.DocFormat)
	logged := start
	done, changed, err := sr.RerenderDocs(ctx, func(done, changed int) {
		if time.Since(logged) >= docRerenderLogEvery {
			logged = time.Now()
			log.Info("re-rendering search documents", "done", done, "of", stale, "changed", changed,
				"elapsed", time.Since(start).Round(time.Second))
		}
	})
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case ctx.Err() != nil:
		log.Info("search document re-render stopped; the next start resumes it", "done", done, "changed", changed, "duration", took)
	case err != nil:
		log.Warn("search document re-render failed", "err", err, "done", done, "changed", changed, "duration", took)
	default:
		// done may fall short of stale: another replica took some batches.
		log.Info("search documents re-rendered", "stores", done, "changed", changed, "duration", took)
	}
}

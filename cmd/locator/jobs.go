package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"locator/internal/claims"
	"locator/internal/mail"
	"locator/internal/search"
	"locator/internal/stores/events"
)

// job is one background task of a serving replica: run every interval
// until the server stops. Each job has a goroutine of its own, so a slow
// one (a search snapshot, a re-render) never holds up another (the search
// sync, the mail).
type job struct {
	name  string
	every time.Duration
	// first, when set, runs once at start, before the first interval;
	// unset, the job first runs one interval after start.
	first func(ctx context.Context) error
	run   func(ctx context.Context) error
}

// jobRunner runs a replica's job list and stops it in one place.
type jobRunner struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startJobs starts every job of list. A job's error is logged with its
// name and the job goes on: a database blip must not stop the search sync
// or the mail. Errors after the stop are the stop's, not logged.
func startJobs(list []job, log *slog.Logger) *jobRunner {
	ctx, cancel := context.WithCancel(context.Background())
	r := &jobRunner{cancel: cancel}
	for _, j := range list {
		r.wg.Go(func() { runJob(ctx, j, log) })
	}
	return r
}

// stop cancels every job and waits for them: a job in flight sees its
// context end (a snapshot being written is abandoned and deleted, a
// re-render batch rolls back and the next start resumes it). Once stop
// returns, no job reads the database, the index or the counts.
func (r *jobRunner) stop() {
	r.cancel()
	r.wg.Wait()
}

func runJob(ctx context.Context, j job, log *slog.Logger) {
	do := func(f func(context.Context) error) {
		if err := f(ctx); err != nil && ctx.Err() == nil {
			log.Warn(j.name+" failed", "job", j.name, "err", err)
		}
	}
	if j.first != nil {
		do(j.first)
	}
	t := time.NewTicker(j.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			do(j.run)
		}
	}
}

// licenceRecheckEvery is how often a replica looks for licences whose
// dates passed: an index probe when none did.
const licenceRecheckEvery = 5 * time.Minute

// housekeepingEvery is how often expired sessions, reset links, rate-limit
// counters and old sent mail are pruned.
const housekeepingEvery = time.Hour

// jobList is the list of a serving replica's background jobs: every
// replica runs all of them; where replicas must not do the same work twice
// the database decides (leases, row locks, batches taken in turn).
func (a *app) jobList() []job {
	cfg, log, syncer, lic, counts := a.cfg, a.log, a.syncer, a.lic, a.counts
	rerender := func(ctx context.Context) error { rerenderStale(ctx, a.stores, log); return nil } // logs its own errors
	snapshot := func(ctx context.Context) error { _, err := syncer.WriteSnapshot(ctx); return err }
	// Flags of licences whose dates passed are judged again (docs/licences.md,
	// "Dates"): whichever replica comes first after midnight (UTC) does the
	// day's work, through the change feed.
	recheck := func(ctx context.Context) error {
		n, err := lic.Recheck(ctx)
		if n > 0 {
			log.Info("licence flags judged again by date", "stores", n)
		}
		return err
	}
	deliver := func(ctx context.Context) error { _, err := a.mail.DeliverDue(ctx); return err }
	salts := func(ctx context.Context) error {
		if err := counts.LoadSalts(ctx); err != nil {
			return fmt.Errorf("the day's salt could not be read; this replica counts on its own until it is: %w", err)
		}
		return nil
	}
	digests := func(ctx context.Context) error {
		n, err := a.claims.SendDigests(ctx)
		if n > 0 {
			log.Info("claim digests mailed to owners", "mails", n)
		}
		return err
	}
	pruneMail := func(ctx context.Context) error {
		n, err := mail.Prune(ctx, a.db, cfg.MailRetention, a.clock.Now())
		if n > 0 {
			log.Info("sent mail pruned", "messages", n, "retention", cfg.MailRetention)
		}
		return err
	}
	// Events fanned out more than a day ago: their deliveries keep their bodies.
	pruneEvents := func(ctx context.Context) error {
		_, err := events.Prune(ctx, a.db, a.clock.Now().Add(-24*time.Hour))
		return err
	}
	list := []job{
		// The index was loaded before the server started; from then on, the
		// changes since the version it reflects.
		{name: "search index sync", every: cfg.SyncInterval, run: syncer.Poll},
		// A snapshot is due right away after a load from the rows, then as
		// the stores change (search.Syncer.WriteSnapshot decides).
		{name: "search snapshot", every: search.SnapshotCheck, first: snapshot, run: snapshot},
		{name: "mail delivery", every: mail.DefaultPoll, first: deliver, run: deliver},
		{name: "member housekeeping", every: housekeepingEvery, first: a.acc.Prune, run: a.acc.Prune},
		{name: "business housekeeping", every: housekeepingEvery, first: a.biz.Prune, run: a.biz.Prune},
		{name: "sent mail pruning", every: housekeepingEvery, first: pruneMail, run: pruneMail},
		// The network a review came from counts only for its day (docs/reviews.md, "Limits").
		{name: "review networks", every: housekeepingEvery, first: a.rev.ForgetNetworks, run: a.rev.ForgetNetworks},
		{name: "licence recheck", every: licenceRecheckEvery, first: recheck, run: recheck},
		// This replica's view of where the registries cover (read once
		// before the server started): a file imported anywhere is seen at
		// the next poll; a poll with no new file is one look at its id.
		{name: "licence coverage", every: cfg.SyncInterval, run: lic.RefreshCoverage},
		// Search documents of an older format (docs/deploy.md, "After an
		// upgrade"), replicas taking turns batch by batch.
		{name: "search document re-render", every: docRerenderEvery, first: rerender, run: rerender},
		// The day's shared salt first, so visitors hash alike on every
		// replica from the first request; then the counts, every flush.
		// Owners' claim notices, one mail a day: the first replica after
		// midnight (UTC) sends the day's.
		{name: "claim digests", every: claims.DigestEvery, first: digests, run: digests},
		{name: "insights flush", every: cfg.InsightsFlush, first: salts, run: counts.Flush},
		// The partners' webhooks: events fanned out, due deliveries sent
		// (docs/webhooks.md); replicas share the work through leases.
		{name: "webhook delivery", every: time.Second, first: a.hooks.Run, run: a.hooks.Run},
		{name: "webhook events pruning", every: housekeepingEvery, first: pruneEvents, run: pruneEvents},
	}
	if a.medusa != nil {
		list = append(list, a.medusaJob())
	}
	return list
}

// medusaJob syncs the catalogue and stock from Medusa (docs/products.md,
// "From the marketplace (Medusa)"): every replica ticks each minute, the
// database says whether a run is due (the interval, or the back-off after
// failures) and lets one replica at a time run it. A run is bounded
// (medusa.RunTimeout) and in a goroutine of its own: a slow or dead
// marketplace never holds up the server or the other jobs.
func (a *app) medusaJob() job {
	interval := a.cfg.MedusaInterval
	run := func(ctx context.Context) error {
		ran, rep, err := a.medusa.RunIfDue(ctx, interval)
		if ran && rep != nil && err == nil {
			a.log.Info("medusa sync", "variants", rep.Variants, "written", rep.Written, "stock", rep.Stock, "failed", rep.Failed)
		}
		return err
	}
	return job{name: "medusa sync", every: min(interval, time.Minute), first: run, run: run}
}

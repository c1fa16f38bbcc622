package mail

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/metrics"
)

// Worker delivers the outbox. Several replicas may run one each: a message
// is leased (locked_until) by one worker at a time.
type Worker struct {
	DB     *db.DB
	Sender Sender
	From   string
	Log    *slog.Logger
	// Poll is how often the outbox is checked (default 1 s).
	Poll time.Duration
	// Backoff after the n-th failure: Base * 2^(n-1), at most Max
	// (defaults 5 s and 5 min). MaxAttempts (default 50) marks a message failed.
	Base, Max   time.Duration
	MaxAttempts int
	// Lease is how long a worker owns a message while sending (default 2 min).
	Lease time.Duration
	// Now is the clock of leases, backoff and due times (default the
	// system's); tests run a faster one to replay a long outage in seconds.
	Now clock.Clock
}

// NewWorker returns a worker delivering d's outbox through sender, from
// the address from, with the default poll, backoff and lease.
func NewWorker(d *db.DB, sender Sender, from string, clk clock.Clock, log *slog.Logger) *Worker {
	w := &Worker{DB: d, Sender: sender, From: from, Log: log, Now: clk}
	w.defaults()
	return w
}

// DefaultPoll is how often the outbox is checked unless Poll says.
const DefaultPoll = time.Second

func (w *Worker) defaults() {
	if w.Poll == 0 {
		w.Poll = DefaultPoll
	}
	if w.Base == 0 {
		w.Base = 5 * time.Second
	}
	if w.Max == 0 {
		w.Max = 5 * time.Minute
	}
	if w.MaxAttempts == 0 {
		w.MaxAttempts = 50
	}
	if w.Lease == 0 {
		w.Lease = 2 * time.Minute
	}
	if w.Log == nil {
		w.Log = slog.Default()
	}
	if w.Now == nil {
		w.Now = clock.System()
	}
}

// Run delivers until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	for {
		if _, err := w.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			w.Log.Warn("mail delivery pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// DeliverDue sends every due message once and returns how many were sent.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	w.defaults()
	sent := 0
	for {
		m, attempts, err := w.claim(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return sent, nil
		}
		if err != nil {
			return sent, err
		}
		raw := Render(w.From, m, w.Now())
		if err := w.Sender.Send(ctx, m.To, raw); err != nil {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			w.fail(ctx, m, attempts, err)
			continue
		}
		// The copy kept (until Prune) loses its links' secrets: once the
		// message is out, a database reader must not find live tokens in it.
		if _, err := w.DB.Exec(ctx, "UPDATE outbox SET sent_at = $1, locked_until = NULL, last_error = '', text_body = $2, html_body = $3 WHERE id = $4",
			w.Now().UTC(), RemoveLinkSecrets(m.Text), RemoveLinkSecrets(m.HTML), m.ID); err != nil {
			return sent, fmt.Errorf("mark mail %d sent: %w", m.ID, err)
		}
		w.Log.Info("mail sent", "id", m.ID, "subject", m.Subject, "attempts", attempts)
		sent++
	}
}

// claim leases the oldest due message. The lease condition is repeated in
// the outer WHERE so that on PostgreSQL a second worker racing for the same
// row re-checks it after the first commits and gets nothing.
func (w *Worker) claim(ctx context.Context) (Message, int, error) {
	now := w.Now().UTC()
	var m Message
	var attempts int
	err := w.DB.QueryRow(ctx, `UPDATE outbox SET locked_until = $1, attempts = attempts + 1
		WHERE id = (SELECT id FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $2
			AND (locked_until IS NULL OR locked_until < $2) ORDER BY id LIMIT 1)
		AND sent_at IS NULL AND (locked_until IS NULL OR locked_until < $2)
		RETURNING id, to_addr, subject, text_body, html_body, attempts`, now.Add(w.Lease), now).
		Scan(&m.ID, &m.To, &m.Subject, &m.Text, &m.HTML, &attempts)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return m, 0, fmt.Errorf("claim mail: %w", err)
	}
	return m, attempts, err
}

func (w *Worker) fail(ctx context.Context, m Message, attempts int, cause error) {
	id := m.ID
	delay := w.Base
	for i := 1; i < attempts && delay < w.Max; i++ {
		delay *= 2
	}
	if delay > w.Max {
		delay = w.Max
	}
	now := w.Now().UTC()
	var failedAt any
	metrics.MailSendFailures.Inc()
	if attempts >= w.MaxAttempts {
		failedAt = now
		metrics.MailGivenUp.Inc()
		w.Log.Error("mail given up", "id", id, "attempts", attempts, "err", cause)
	} else {
		w.Log.Warn("mail not sent, will retry", "id", id, "attempts", attempts, "retry_in", delay, "err", cause)
	}
	msg := cause.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	// A message given up is kept for the operator without its links'
	// secrets, like a sent one.
	text, html := m.Text, m.HTML
	if failedAt != nil {
		text, html = RemoveLinkSecrets(text), RemoveLinkSecrets(html)
	}
	if _, err := w.DB.Exec(ctx, `UPDATE outbox SET locked_until = NULL, next_attempt_at = $1, last_error = $2, failed_at = $3, text_body = $4, html_body = $5 WHERE id = $6`,
		now.Add(delay), msg, failedAt, text, html, id); err != nil {
		w.Log.Error("record mail failure", "id", id, "err", err)
	}
}

// Pending counts the mail waiting to be sent (neither sent nor given up)
// and says when the oldest of it was queued, for the metrics: two reads on
// the outbox_due index, whose rows waiting to be sent are a few at most.
func Pending(ctx context.Context, q db.Querier) (metrics.Outbox, error) {
	var o metrics.Outbox
	const waiting = "FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL"
	if err := q.QueryRow(ctx, "SELECT COUNT(*) "+waiting).Scan(&o.Pending); err != nil {
		return o, fmt.Errorf("count pending mail: %w", err)
	}
	if o.Pending == 0 {
		return o, nil
	}
	err := q.QueryRow(ctx, "SELECT created_at "+waiting+" ORDER BY id LIMIT 1").Scan(&o.Oldest)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // sent meanwhile
		return o, fmt.Errorf("read oldest pending mail: %w", err)
	}
	return o, nil
}

// Prune deletes mail sent more than retention ago: a sent message (a reset
// link, say) has no use left in the database. Unsent and failed mail stays.
func Prune(ctx context.Context, q db.Querier, retention time.Duration, now time.Time) (int64, error) {
	res, err := q.Exec(ctx, "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < $1", now.UTC().Add(-retention))
	if err != nil {
		return 0, fmt.Errorf("prune sent mail: %w", err)
	}
	return res.RowsAffected()
}

package webhooks

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"locator/internal/db"
	"locator/internal/stores/events"
)

// The delivery defaults (docs/webhooks.md, "Retries").
const (
	DefaultTimeout = 10 * time.Second // one attempt: connect, TLS, request and answer
	DefaultLease   = time.Minute      // a claimed delivery is another worker's again after this
	DefaultBase    = 30 * time.Second // the first retry's delay; each next one doubles
	DefaultMax     = time.Hour        // the longest delay between two attempts
	DefaultWindow  = 24 * time.Hour   // retried until this long after the event, then failed
	fanOutBatch    = 200
)

// Worker fans events out and delivers them.
type Worker struct {
	DB  *db.DB
	Log *slog.Logger
	// Client posts the deliveries: Guard.Client in production (the guard
	// checks every address it dials); nil: a zero Guard's client.
	Client *http.Client
	// Enabled says whether a partner is enabled; nil: every partner.
	Enabled func(ctx context.Context, partnerID string) (bool, error)
	// Now is the clock of leases, backoff and due times; nil: time.Now.
	Now                      func() time.Time
	Lease, Base, Max, Window time.Duration
}

func (w *Worker) defaults() {
	if w.Log == nil {
		w.Log = slog.Default()
	}
	if w.Client == nil {
		w.Client = Guard{}.Client(DefaultTimeout, nil)
	}
	if w.Now == nil {
		w.Now = time.Now
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&w.Lease, DefaultLease}, {&w.Base, DefaultBase}, {&w.Max, DefaultMax}, {&w.Window, DefaultWindow}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
}

// body is what a delivery posts.
type body struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// FanOut turns the events not yet fanned out into one delivery per
// enabled webhook of an enabled partner that wants their type, in the
// transaction that marks them fanned out. It returns how many deliveries
// it queued.
func (w *Worker) FanOut(ctx context.Context) (int, error) {
	w.defaults()
	queued := 0
	for {
		n, more, err := w.fanOutBatch(ctx)
		queued += n
		if err != nil || !more {
			return queued, err
		}
	}
}

func (w *Worker) fanOutBatch(ctx context.Context) (int, bool, error) {
	rows, err := w.DB.Query(ctx, "SELECT "+hookColumns+" FROM webhooks WHERE disabled_at IS NULL ORDER BY id")
	hooks, err := db.Collect(rows, err, "active webhooks", scanHook)
	if err != nil {
		return 0, false, err
	}
	enabled := map[string]bool{}
	for _, h := range hooks {
		if _, seen := enabled[h.PartnerID]; seen {
			continue
		}
		ok := true
		if w.Enabled != nil {
			if ok, err = w.Enabled(ctx, h.PartnerID); err != nil {
				return 0, false, err
			}
		}
		enabled[h.PartnerID] = ok
	}
	now := w.Now().UTC().Truncate(time.Microsecond)
	queued, taken := 0, 0
	err = w.DB.InTx(ctx, func(tx *db.Tx) error {
		evs, err := events.Take(ctx, tx, fanOutBatch)
		if err != nil {
			return err
		}
		taken = len(evs)
		for _, e := range evs {
			b, err := json.Marshal(body{ID: "evt_" + strconv.FormatInt(e.ID, 10), Type: e.Type, CreatedAt: e.CreatedAt, Data: e.Data})
			if err != nil {
				return fmt.Errorf("event %d body: %w", e.ID, err)
			}
			for _, h := range hooks {
				if !enabled[h.PartnerID] || !contains(h.Events, e.Type) {
					continue
				}
				if _, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_id, type, body, created_at, next_attempt_at)
					VALUES ($1, $2, $3, $4, $5, $5)`, h.ID, e.ID, e.Type, string(b), now); err != nil {
					return fmt.Errorf("queue delivery of event %d: %w", e.ID, err)
				}
				queued++
			}
		}
		return nil
	})
	return queued, err == nil && taken == fanOutBatch, err
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// claimed is a delivery leased for one attempt.
type claimed struct {
	id, hook  int64
	body      string
	createdAt time.Time
	attempts  int
	url       string
	secret    string
}

// claim leases the oldest due delivery, as the mail outbox does: the lease
// condition is repeated in the outer WHERE so that on PostgreSQL a second
// worker racing for the same row re-checks it after the first commits.
func (w *Worker) claim(ctx context.Context) (claimed, error) {
	now := w.Now().UTC()
	var c claimed
	err := w.DB.QueryRow(ctx, `UPDATE webhook_deliveries SET locked_until = $1, attempts = attempts + 1
		WHERE id = (SELECT id FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $2
			AND (locked_until IS NULL OR locked_until < $2) ORDER BY next_attempt_at, id LIMIT 1)
		AND delivered_at IS NULL AND failed_at IS NULL AND (locked_until IS NULL OR locked_until < $2)
		RETURNING id, webhook_id, body, created_at, attempts`, now.Add(w.Lease), now).Scan(&c.id, &c.hook, &c.body, &c.createdAt, &c.attempts)
	if err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			err = fmt.Errorf("claim delivery: %w", err)
		}
		return c, err
	}
	if err := w.DB.QueryRow(ctx, "SELECT url, secret FROM webhooks WHERE id = $1", c.hook).Scan(&c.url, &c.secret); err != nil {
		return c, fmt.Errorf("webhook of delivery %d: %w", c.id, err)
	}
	return c, nil
}

// DeliverDue makes one attempt at every due delivery and returns how many
// were delivered.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	w.defaults()
	delivered := 0
	for {
		c, err := w.claim(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return delivered, nil
		}
		if err != nil {
			return delivered, err
		}
		status, sendErr := w.send(ctx, c)
		if ctx.Err() != nil {
			return delivered, ctx.Err() // the lease runs out; another attempt follows
		}
		if sendErr == nil {
			delivered++
		}
		if err := w.record(ctx, c, status, sendErr); err != nil {
			return delivered, err
		}
	}
}

// send posts one delivery and answers the receiver's status line (or why
// there was none) and an error unless it answered 2xx.
func (w *Worker) send(ctx context.Context, c claimed) (string, error) {
	ts := w.Now().Unix()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader([]byte(c.body)))
	if err != nil {
		return "bad url", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Locator-Webhooks/1")
	req.Header.Set("Webhook-Id", "whd_"+strconv.FormatInt(c.id, 10))
	req.Header.Set("Webhook-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("Webhook-Signature", Sign(c.secret, ts, []byte(c.body)))
	resp, err := w.Client.Do(req)
	if err != nil {
		msg := err.Error()
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return msg, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	status := strconv.Itoa(resp.StatusCode)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return status, fmt.Errorf("receiver answered %d", resp.StatusCode)
	}
	return status, nil
}

// Delay is the wait after a delivery's attempt number attempts failed:
// base, doubled for each attempt before, at most bound.
func Delay(attempts int, base, bound time.Duration) time.Duration {
	d := base
	for i := 1; i < attempts && d < bound; i++ {
		d *= 2
	}
	return min(d, bound)
}

// record writes an attempt's outcome on the delivery and its webhook: sent,
// to retry after Delay, or failed once the window since the event is over.
func (w *Worker) record(ctx context.Context, c claimed, status string, sendErr error) error {
	now := w.Now().UTC().Truncate(time.Microsecond)
	hookStatus := status
	var err error
	if sendErr == nil {
		_, err = w.DB.Exec(ctx, "UPDATE webhook_deliveries SET delivered_at = $1, locked_until = NULL, last_status = $2 WHERE id = $3", now, status, c.id)
	} else {
		next := now.Add(Delay(c.attempts, w.Base, w.Max))
		var failed any
		if !next.Before(c.createdAt.Add(w.Window)) {
			failed = now
			hookStatus = "failed: " + status
			w.Log.Error("webhook delivery failed for good", "delivery", c.id, "webhook", c.hook, "attempts", c.attempts, "status", status)
		} else {
			w.Log.Warn("webhook delivery failed, will retry", "delivery", c.id, "webhook", c.hook, "attempts", c.attempts, "status", status, "retry_at", next)
		}
		_, err = w.DB.Exec(ctx, "UPDATE webhook_deliveries SET next_attempt_at = $1, failed_at = $2, locked_until = NULL, last_status = $3 WHERE id = $4",
			next, failed, status, c.id)
	}
	if err != nil {
		return fmt.Errorf("record delivery %d: %w", c.id, err)
	}
	if _, err := w.DB.Exec(ctx, "UPDATE webhooks SET last_status = $1, last_at = $2 WHERE id = $3", strings.TrimSpace(hookStatus), now, c.hook); err != nil {
		return fmt.Errorf("record webhook %d status: %w", c.hook, err)
	}
	return nil
}

// Run fans out and delivers once: the background job's step.
func (w *Worker) Run(ctx context.Context) error {
	if _, err := w.FanOut(ctx); err != nil {
		return err
	}
	_, err := w.DeliverDue(ctx)
	return err
}

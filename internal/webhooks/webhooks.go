// Package webhooks keeps the partners' webhooks (docs/webhooks.md): a
// partner's https receiver and the event types it wants; the fan-out of
// the event outbox (internal/stores/events) to one delivery per receiver; and the
// delivery worker, which posts each delivery signed with the receiver's
// secret, retries it with exponential backoff for 24 hours, and then
// marks it failed. Deliveries are leased rows, so any number of replicas
// deliver together, each delivery by one at a time, never lost on a
// restart, sent again only as a retry with the same Webhook-Id.
package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/stores/events"
)

// MaxPerPartner bounds a partner's webhooks.
const MaxPerPartner = 10

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// Hook is one registered receiver, as /admin shows it (never its secret).
type Hook struct {
	ID         int64      `json:"id"`
	PartnerID  string     `json:"-"`
	URL        string     `json:"url"`
	Events     []string   `json:"events"`
	CreatedAt  time.Time  `json:"created_at"`
	Disabled   bool       `json:"disabled"`
	LastStatus string     `json:"last_status"`
	LastAt     *time.Time `json:"last_at"`
	secret     string
}

// Delivery is one event sent (or to send) to one receiver.
type Delivery struct {
	ID          int64      `json:"id"`
	WebhookID   int64      `json:"-"`
	Type        string     `json:"type"`
	CreatedAt   time.Time  `json:"created_at"`
	Attempts    int        `json:"attempts"`
	NextAt      *time.Time `json:"next_attempt_at"`
	DeliveredAt *time.Time `json:"delivered_at"`
	FailedAt    *time.Time `json:"failed_at"`
	LastStatus  string     `json:"last_status"`
}

// Service registers and lists webhooks.
type Service struct {
	db    *db.DB
	clock clock.Clock
	guard Guard
}

// New returns the webhooks kept in d; guard checks receivers' URLs.
func New(d *db.DB, c clock.Clock, guard Guard) *Service {
	return &Service{db: d, clock: c, guard: guard}
}

// Sign is the Webhook-Signature of a body sent at timestamp (Unix
// seconds): "v1=" and the hex HMAC-SHA256, keyed with the secret, of the
// timestamp, a dot and the body.
func Sign(secret string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(timestamp, 10)))
	m.Write([]byte("."))
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

func cleanEvents(in []string) ([]string, error) {
	out := []string{}
	for _, e := range in {
		e = strings.TrimSpace(e)
		if !slices.Contains(events.Types, e) {
			return nil, apperr.Invalidf("events: %q is not an event (%s).", trunc(e), strings.Join(events.Types, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, apperr.Invalidf("events: choose at least one event (%s).", strings.Join(events.Types, ", "))
	}
	slices.Sort(out)
	return out, nil
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Register adds a receiver for a partner and returns it with its signing
// secret, which is never shown again. The URL must pass the guard.
func (s *Service) Register(ctx context.Context, partnerID, rawURL string, evs []string) (Hook, string, error) {
	evs, err := cleanEvents(evs)
	if err != nil {
		return Hook{}, "", err
	}
	u, err := s.guard.CheckURL(ctx, rawURL)
	if err != nil {
		return Hook{}, "", err
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return Hook{}, "", fmt.Errorf("webhook secret: %w", err)
	}
	secret := SecretPrefix + hex.EncodeToString(b)
	var h *Hook
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM webhooks WHERE partner_id = $1 AND disabled_at IS NULL", partnerID).Scan(&n); err != nil {
			return fmt.Errorf("count webhooks: %w", err)
		}
		if n >= MaxPerPartner {
			return apperr.New(apperr.Conflict, "A partner may have %d webhooks: remove one first.", MaxPerPartner)
		}
		h, err = scanHook(tx.QueryRow(ctx, `INSERT INTO webhooks (partner_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5)
			RETURNING `+hookColumns, partnerID, u.String(), strings.Join(evs, ","), secret, s.clock.Stamp()))
		if err != nil {
			return fmt.Errorf("register webhook: %w", err)
		}
		return nil
	})
	if err != nil {
		return Hook{}, "", err
	}
	return *h, secret, nil
}

const hookColumns = "id, partner_id, url, events, secret, created_at, disabled_at, last_status, last_at"

func scanHook(sc db.Scanner) (*Hook, error) {
	h := &Hook{}
	var evs string
	var disabled, last sql.NullTime
	if err := sc.Scan(&h.ID, &h.PartnerID, &h.URL, &evs, &h.secret, &h.CreatedAt, &disabled, &h.LastStatus, &last); err != nil {
		return nil, err
	}
	h.Events = strings.Split(evs, ",")
	h.CreatedAt, h.Disabled = h.CreatedAt.UTC(), disabled.Valid
	if last.Valid {
		t := last.Time.UTC()
		h.LastAt = &t
	}
	return h, nil
}

// List returns a partner's webhooks, newest first.
func (s *Service) List(ctx context.Context, partnerID string) ([]Hook, error) {
	rows, err := s.db.Query(ctx, "SELECT "+hookColumns+" FROM webhooks WHERE partner_id = $1 ORDER BY id DESC", partnerID)
	return db.Collect(rows, err, "list webhooks", scanHook)
}

// Remove turns one of a partner's webhooks off: its pending deliveries are
// failed, its history stays. A hook of another partner is not found.
func (s *Service) Remove(ctx context.Context, partnerID string, id int64) error {
	now := s.clock.Stamp()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, "UPDATE webhooks SET disabled_at = $1 WHERE id = $2 AND partner_id = $3 AND disabled_at IS NULL", now, id, partnerID)
		if err != nil {
			return fmt.Errorf("remove webhook: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			if err := tx.QueryRow(ctx, "SELECT 1 FROM webhooks WHERE id = $1 AND partner_id = $2", id, partnerID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return apperr.New(apperr.NotFound, "No such webhook.")
			}
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET failed_at = $1, last_status = 'webhook removed'
			WHERE webhook_id = $2 AND delivered_at IS NULL AND failed_at IS NULL`, now, id); err != nil {
			return fmt.Errorf("fail removed webhook's deliveries: %w", err)
		}
		return nil
	})
}

const deliveryColumns = "id, webhook_id, type, created_at, attempts, next_attempt_at, delivered_at, failed_at, last_status"

func scanDelivery(sc db.Scanner) (*Delivery, error) {
	d := &Delivery{}
	var next time.Time
	var delivered, failed sql.NullTime
	if err := sc.Scan(&d.ID, &d.WebhookID, &d.Type, &d.CreatedAt, &d.Attempts, &next, &delivered, &failed, &d.LastStatus); err != nil {
		return nil, err
	}
	d.CreatedAt = d.CreatedAt.UTC()
	opt := func(t sql.NullTime) *time.Time {
		if !t.Valid {
			return nil
		}
		u := t.Time.UTC()
		return &u
	}
	d.DeliveredAt, d.FailedAt = opt(delivered), opt(failed)
	if d.DeliveredAt == nil && d.FailedAt == nil {
		n := next.UTC()
		d.NextAt = &n
	}
	return d, nil
}

// Recent returns a webhook's newest deliveries (at most limit).
func (s *Service) Recent(ctx context.Context, webhookID int64, limit int) ([]Delivery, error) {
	rows, err := s.db.Query(ctx, "SELECT "+deliveryColumns+" FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2", webhookID, limit)
	return db.Collect(rows, err, "recent deliveries", scanDelivery)
}

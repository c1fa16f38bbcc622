-- Webhooks (internal/webhooks, docs/webhooks.md). webhook_events is the
-- outbox of events: written by internal/stores/events in the transaction of the
-- change (a store saved, its licence, its stock, a review published), then
-- fanned out to one delivery per webhook that wants the event type. A
-- delivery keeps the exact body it sends, so every retry sends the same
-- bytes with the same Webhook-Id; it is leased (locked_until) by one worker
-- at a time, retried with backoff until 24 h after it was queued, then
-- failed. The secret signs the deliveries (HMAC-SHA256), so it is kept as
-- given: it is shown once to the moderator who registered the hook.
CREATE TABLE webhook_events (
    id          {{id}},
    type        TEXT NOT NULL,
    store_id    BIGINT,
    data        TEXT NOT NULL,
    created_at  {{timestamp}} NOT NULL,
    fanned_out  BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX webhook_events_due ON webhook_events (id) WHERE NOT fanned_out;

CREATE TABLE webhooks (
    id          {{id}},
    partner_id  TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    events      TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_at  {{timestamp}} NOT NULL,
    disabled_at {{timestamp}},
    last_status TEXT NOT NULL DEFAULT '',
    last_at     {{timestamp}}
);
CREATE INDEX webhooks_partner ON webhooks (partner_id);

CREATE TABLE webhook_deliveries (
    id              {{id}},
    webhook_id      BIGINT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id        BIGINT NOT NULL,
    type            TEXT NOT NULL,
    body            TEXT NOT NULL,
    created_at      {{timestamp}} NOT NULL,
    next_attempt_at {{timestamp}} NOT NULL,
    locked_until    {{timestamp}},
    attempts        INTEGER NOT NULL DEFAULT 0,
    delivered_at    {{timestamp}},
    failed_at       {{timestamp}},
    last_status     TEXT NOT NULL DEFAULT '',
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, id);

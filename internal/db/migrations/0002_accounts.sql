-- Customers, their sessions, password-reset tokens and favourites; the mail
-- outbox; and rate-limit events that every replica must agree on.
CREATE TABLE customers (
    id            {{id}},
    email         TEXT NOT NULL UNIQUE,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    phone         TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    {{timestamp}} NOT NULL,
    updated_at    {{timestamp}} NOT NULL
);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    customer_id  BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at   {{timestamp}} NOT NULL,
    expires_at   {{timestamp}} NOT NULL
);
CREATE INDEX sessions_customer ON sessions (customer_id);

CREATE TABLE password_resets (
    token_hash   TEXT PRIMARY KEY,
    customer_id  BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at   {{timestamp}} NOT NULL,
    expires_at   {{timestamp}} NOT NULL,
    used_at      {{timestamp}}
);
CREATE INDEX password_resets_customer ON password_resets (customer_id);

CREATE TABLE favorites (
    customer_id BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    store_id    BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    created_at  {{timestamp}} NOT NULL,
    seq         BIGINT NOT NULL,
    PRIMARY KEY (customer_id, store_id)
);

CREATE TABLE outbox (
    id              {{id}},
    to_addr         TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT NOT NULL,
    created_at      {{timestamp}} NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at {{timestamp}} NOT NULL,
    locked_until    {{timestamp}},
    sent_at         {{timestamp}},
    failed_at       {{timestamp}},
    last_error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX outbox_due ON outbox (sent_at, next_attempt_at);

CREATE TABLE rate_events (
    rkey TEXT NOT NULL,
    at   {{timestamp}} NOT NULL
);
CREATE INDEX rate_events_key ON rate_events (rkey, at);

-- The store dashboard of business accounts (internal/business): their
-- sessions and password resets, the stores each account may change, the
-- name/address/position changes waiting for a moderator, the store's web
-- address and when its details were last confirmed, and the store an
-- audit entry is about.
CREATE TABLE business_sessions (
    token_hash  TEXT PRIMARY KEY,
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    created_at  {{timestamp}} NOT NULL,
    expires_at  {{timestamp}} NOT NULL
);
CREATE INDEX business_sessions_account ON business_sessions (business_id);

CREATE TABLE business_password_resets (
    token_hash  TEXT PRIMARY KEY,
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    created_at  {{timestamp}} NOT NULL,
    expires_at  {{timestamp}} NOT NULL,
    used_at     {{timestamp}}
);
CREATE INDEX business_password_resets_account ON business_password_resets (business_id);

CREATE TABLE business_stores (
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    store_id    BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    created_at  {{timestamp}} NOT NULL,
    created_by  TEXT NOT NULL,
    PRIMARY KEY (business_id, store_id)
);
CREATE INDEX business_stores_store ON business_stores (store_id);

CREATE TABLE store_change_requests (
    id            {{id}},
    store_id      BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    business_id   BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    proposed      TEXT NOT NULL,
    previous      TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reject_reason TEXT NOT NULL DEFAULT '',
    created_at    {{timestamp}} NOT NULL,
    decided_at    {{timestamp}},
    decided_by    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX store_change_requests_status ON store_change_requests (status, id);
CREATE INDEX store_change_requests_store ON store_change_requests (store_id);

ALTER TABLE stores ADD COLUMN website TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN last_verified_at {{timestamp}};

ALTER TABLE audit_log ADD COLUMN store_id BIGINT;
CREATE INDEX audit_log_store ON audit_log (store_id);

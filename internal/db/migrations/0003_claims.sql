-- Store claims and their moderation: business accounts for the store
-- dashboard, moderators with their own sessions, and an audit log.
CREATE TABLE claims (
    id                    {{id}},
    business_name         TEXT NOT NULL,
    email                 TEXT NOT NULL,
    phone                 TEXT NOT NULL,
    country               TEXT NOT NULL,
    state                 TEXT NOT NULL DEFAULT '',
    address1              TEXT NOT NULL,
    city                  TEXT NOT NULL,
    postal_code           TEXT NOT NULL,
    website               TEXT NOT NULL DEFAULT '',
    working_hours         TEXT NOT NULL DEFAULT '',
    category              TEXT NOT NULL DEFAULT '',
    status                TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reject_reason         TEXT NOT NULL DEFAULT '',
    duplicate_of_store_id BIGINT REFERENCES stores(id),
    store_id              BIGINT REFERENCES stores(id),
    dedupe_key            TEXT NOT NULL UNIQUE,
    client_ip             TEXT NOT NULL DEFAULT '',
    created_at            {{timestamp}} NOT NULL,
    updated_at            {{timestamp}} NOT NULL,
    decided_at            {{timestamp}},
    decided_by            TEXT NOT NULL DEFAULT ''
);
CREATE INDEX claims_status ON claims (status, id);

CREATE TABLE business_accounts (
    id            {{id}},
    email         TEXT NOT NULL UNIQUE,
    store_name    TEXT NOT NULL,
    phone_number  TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    referred_by   TEXT NOT NULL DEFAULT '',
    created_at    {{timestamp}} NOT NULL
);

CREATE TABLE moderators (
    id            {{id}},
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    {{timestamp}} NOT NULL
);

CREATE TABLE moderator_sessions (
    token_hash   TEXT PRIMARY KEY,
    moderator_id BIGINT NOT NULL REFERENCES moderators(id) ON DELETE CASCADE,
    created_at   {{timestamp}} NOT NULL,
    expires_at   {{timestamp}} NOT NULL
);

CREATE TABLE audit_log (
    id       {{id}},
    at       {{timestamp}} NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    claim_id BIGINT,
    details  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_claim ON audit_log (claim_id);

-- Point-of-sale API keys of business accounts (internal/apikeys,
-- docs/products.md "Point-of-sale API"). Only a key's SHA-256 is kept, with
-- the few characters shown to tell keys apart. An active key holds one of
-- its account's slots 1..10; the partial unique index is what bounds the
-- active keys of an account on both engines, whatever requests run at
-- once. A revoked key keeps its row (name, dates) and frees its slot.
CREATE TABLE api_keys (
    id {{id}},
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    slot INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 10),
    created_at {{timestamp}} NOT NULL,
    last_used_at {{timestamp}},
    revoked_at {{timestamp}}
);
CREATE UNIQUE INDEX api_keys_active_slot ON api_keys (business_id, slot) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_account ON api_keys (business_id);

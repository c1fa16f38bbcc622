-- Partners' read API keys (internal/apikeys, docs/partners.md "Read API
-- keys"): the keys of business accounts and of partners are one table, and
-- each key has exactly one owner, a business account or a partner. An
-- active key holds one of its owner's slots 1..10, for either kind.
{{if .Postgres}}
ALTER TABLE api_keys ALTER COLUMN business_id DROP NOT NULL;
ALTER TABLE api_keys ADD COLUMN partner_id TEXT REFERENCES partners(id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_one_owner CHECK ((business_id IS NULL) <> (partner_id IS NULL));
{{else}}
-- SQLite cannot drop a NOT NULL: the table is made again with its rows.
CREATE TABLE api_keys_new (
    id {{id}},
    business_id BIGINT REFERENCES business_accounts(id) ON DELETE CASCADE,
    partner_id TEXT REFERENCES partners(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    slot INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 10),
    created_at {{timestamp}} NOT NULL,
    last_used_at {{timestamp}},
    revoked_at {{timestamp}},
    CHECK ((business_id IS NULL) <> (partner_id IS NULL))
);
INSERT INTO api_keys_new (id, business_id, name, prefix, key_hash, slot, created_at, last_used_at, revoked_at)
    SELECT id, business_id, name, prefix, key_hash, slot, created_at, last_used_at, revoked_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_new RENAME TO api_keys;
CREATE UNIQUE INDEX api_keys_active_slot ON api_keys (business_id, slot) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_account ON api_keys (business_id);
{{end}}
CREATE UNIQUE INDEX api_keys_partner_active_slot ON api_keys (partner_id, slot) WHERE revoked_at IS NULL AND partner_id IS NOT NULL;
CREATE INDEX api_keys_partner ON api_keys (partner_id);

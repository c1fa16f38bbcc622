-- Consent before co-ownership (docs/claims.md, "Consent of the owners").
-- An approved claim on a store that already has owners makes its claimant a
-- pending co-owner: claims.consent is 'pending' until an owner (by the
-- mailed link or in /business) or a moderator accepts ('accepted': the
-- claimant's proven account is linked in business_stores) or declines
-- ('declined': never linked). '' is a claim that needed no consent (a new
-- store, a store without owners, a claimant who owns it already).
ALTER TABLE claims ADD COLUMN consent TEXT NOT NULL DEFAULT '' CHECK (consent IN ('', 'pending', 'accepted', 'declined'));
ALTER TABLE claims ADD COLUMN consent_decided_at {{timestamp}};
ALTER TABLE claims ADD COLUMN consent_decided_by TEXT NOT NULL DEFAULT '';
CREATE INDEX claims_consent_pending ON claims (store_id) WHERE consent = 'pending';

-- The consent links mailed to each owner at the approval: a SHA-256 hash of
-- the token, single use, expiring; any decision on the claim ends them all.
CREATE TABLE consent_tokens (
    token_hash  TEXT PRIMARY KEY,
    claim_id    BIGINT NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    created_at  {{timestamp}} NOT NULL,
    expires_at  {{timestamp}} NOT NULL,
    used_at     {{timestamp}}
);
CREATE INDEX consent_tokens_claim ON consent_tokens (claim_id);

-- Owners' notices of claims on their stores, gathered into one digest per
-- owner and UTC day (docs/claims.md, "One mail a day"): kept here, not in a
-- replica's memory, so a restart or another replica sends each exactly once.
CREATE TABLE owner_claim_notices (
    id          {{id}},
    business_id BIGINT NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
    claim_id    BIGINT NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    store_id    BIGINT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('submitted', 'rejected')),
    day         TEXT NOT NULL,
    created_at  {{timestamp}} NOT NULL,
    sent_at     {{timestamp}}
);
CREATE INDEX owner_claim_notices_due ON owner_claim_notices (day) WHERE sent_at IS NULL;

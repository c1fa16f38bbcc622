-- Proof of mailbox (internal/identity): when an account's owner followed a
-- link mailed to its address (or completed a password reset), and the
-- links not yet followed. A link of a business sign-up carries the
-- password chosen with it: whoever proves the mailbox sets the password.
-- Accounts that existed before this step start unproven.
ALTER TABLE customers ADD COLUMN email_verified_at {{timestamp}};
ALTER TABLE business_accounts ADD COLUMN email_verified_at {{timestamp}};
CREATE TABLE email_proofs (
    token_hash    TEXT PRIMARY KEY,
    area          TEXT NOT NULL CHECK (area IN ('member', 'business')),
    account_id    BIGINT NOT NULL,
    password_hash TEXT NOT NULL DEFAULT '',
    created_at    {{timestamp}} NOT NULL,
    expires_at    {{timestamp}} NOT NULL
);
CREATE INDEX email_proofs_account ON email_proofs (area, account_id);

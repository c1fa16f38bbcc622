-- Reviews written by members (docs/reviews.md). The rows that existed
-- before were the demo's sample reviews, written by the seed: they stay,
-- marked sample. A member's review names its author (member_id, one review
-- per member and store), keeps the day of its last edit, why it is held
-- for a moderator, and the network it came from (an IPv4 /24 or IPv6 /64,
-- never the address) for the per-network limit, and whether the author's
-- account was new then. Status: 'Approved'
-- (published), 'Held' (screened or in a burst, waiting for a moderator),
-- 'Removed' (a moderator removed it, with a published reason).
ALTER TABLE reviews ADD COLUMN sample BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE reviews SET sample = TRUE;
ALTER TABLE reviews ADD COLUMN member_id BIGINT REFERENCES customers(id) ON DELETE CASCADE;
ALTER TABLE reviews ADD COLUMN edited_at {{timestamp}};
ALTER TABLE reviews ADD COLUMN held_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE reviews ADD COLUMN network TEXT NOT NULL DEFAULT '';
-- The author's account was younger than reviews.NewAccountAge when it was
-- written: the burst rule counts these per store.
ALTER TABLE reviews ADD COLUMN new_account BOOLEAN NOT NULL DEFAULT FALSE;
-- The owner's one public reply (empty text: none).
ALTER TABLE reviews ADD COLUMN reply_text TEXT NOT NULL DEFAULT '';
ALTER TABLE reviews ADD COLUMN reply_at {{timestamp}};
ALTER TABLE reviews ADD COLUMN reply_edited_at {{timestamp}};
CREATE UNIQUE INDEX reviews_member_store ON reviews (member_id, store_id);
CREATE INDEX reviews_network ON reviews (network, created_at) WHERE network <> '';
CREATE INDEX reviews_held ON reviews (status, created_at) WHERE status = 'Held';

-- Anyone's flags on a review, with a reason from a fixed list; resolved
-- when a moderator decides on the review.
CREATE TABLE review_flags (
    id          {{id}},
    review_id   BIGINT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    reason      TEXT NOT NULL,
    network     TEXT NOT NULL,
    created_at  {{timestamp}} NOT NULL,
    resolved_at {{timestamp}}
);
CREATE UNIQUE INDEX review_flags_once ON review_flags (review_id, network);
CREATE INDEX review_flags_network ON review_flags (network, created_at);
CREATE INDEX review_flags_open ON review_flags (review_id) WHERE resolved_at IS NULL;

-- Moderators' decisions: remove or keep, with a reason from the published
-- list. The removals per month and reason are public.
CREATE TABLE review_decisions (
    id         {{id}},
    review_id  BIGINT REFERENCES reviews(id) ON DELETE SET NULL,
    action     TEXT NOT NULL CHECK (action IN ('remove', 'keep')),
    reason     TEXT NOT NULL,
    moderator  TEXT NOT NULL,
    created_at {{timestamp}} NOT NULL
);
CREATE INDEX review_decisions_month ON review_decisions (action, created_at);

-- Owners are told of each new published review of their stores unless
-- they switch it off (as the monthly insights mail).
ALTER TABLE business_accounts ADD COLUMN review_mail BOOLEAN NOT NULL DEFAULT TRUE;

-- Shoppers' reports of wrong store data (internal/reports): open until a
-- moderator accepts them (fixing, hiding or closing the store) or dismisses
-- them; each decision is also written to audit_log.
CREATE TABLE store_reports (
    id          {{id}},
    store_id    BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    reason      TEXT NOT NULL CHECK (reason IN ('wrong_hours', 'permanently_closed', 'wrong_location', 'wrong_phone', 'other')),
    note        TEXT NOT NULL DEFAULT '',
    customer_id BIGINT, -- the signed-in member who reported, if any
    client_ip   TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'dismissed')),
    created_at  {{timestamp}} NOT NULL,
    resolved_at {{timestamp}},
    resolved_by TEXT NOT NULL DEFAULT '',
    resolution  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX store_reports_open ON store_reports (status, store_id);

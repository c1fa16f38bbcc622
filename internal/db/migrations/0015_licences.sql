-- Licences and enforcement records from public registries, matched to stores
-- (internal/licences, docs/licences.md).
--
-- What a store shows: the licence and enforcement records matched to it, as
-- rendered by internal/licences (JSON, '' for none), and their flags for the
-- search index (1: an active licence, 2: expired, revoked or under a
-- No-Tobacco-Sale Order, ranked after the others).
ALTER TABLE stores ADD COLUMN licence_doc TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN licence_flags INTEGER NOT NULL DEFAULT 0;

-- One row per imported file: the newest of a source replaces its rows.
CREATE TABLE licence_files (
    id {{id}},
    source TEXT NOT NULL,
    file_date TEXT NOT NULL,
    file_name TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    error_count INTEGER NOT NULL,
    imported_at {{timestamp}} NOT NULL
);
CREATE INDEX licence_files_source ON licence_files (source, file_date);

-- A registry row: a licence or an enforcement action, keyed per source by
-- its licence number (or, for actions, the retailer and decision date).
-- present is false once the newest file of its source no longer lists it.
CREATE TABLE licence_rows (
    id {{id}},
    source TEXT NOT NULL,
    row_key TEXT NOT NULL,
    is_action BOOLEAN NOT NULL,
    number TEXT NOT NULL,
    name TEXT NOT NULL,
    trade_name TEXT NOT NULL,
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    city TEXT NOT NULL,
    state TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    latitude DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    expires_on TEXT NOT NULL,
    decided_on TEXT NOT NULL,
    until_on TEXT NOT NULL,
    present BOOLEAN NOT NULL,
    file_id BIGINT NOT NULL REFERENCES licence_files (id),
    updated_at {{timestamp}} NOT NULL,
    UNIQUE (source, row_key)
);
CREATE INDEX licence_rows_number ON licence_rows (number);

-- Each status a row has had, with the date of the file that said it.
CREATE TABLE licence_row_history (
    id {{id}},
    row_id BIGINT NOT NULL REFERENCES licence_rows (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    file_date TEXT NOT NULL
);
CREATE INDEX licence_row_history_row ON licence_row_history (row_id);

-- A row matched to a store. state: sure (applied), doubtful (waits for a
-- moderator), accepted or rejected (a moderator's decision, kept across
-- imports), owner (an owner's licence number that matched the address).
CREATE TABLE licence_matches (
    id {{id}},
    row_id BIGINT NOT NULL REFERENCES licence_rows (id) ON DELETE CASCADE,
    store_id BIGINT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    confidence DOUBLE PRECISION NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('sure', 'doubtful', 'accepted', 'rejected', 'owner')),
    decided_by TEXT NOT NULL DEFAULT '',
    decided_at {{timestamp}},
    UNIQUE (row_id, store_id)
);
CREATE INDEX licence_matches_store ON licence_matches (store_id);
CREATE INDEX licence_matches_state ON licence_matches (state);

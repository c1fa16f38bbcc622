-- Exceptions to the weekly hours (docs/product-rules.md, "Opening hours and
-- the status"): special hours per local date, a temporary closure and a
-- permanent closure. stores.schedule carries them too, for the search index
-- (stores.EncodeStoreSchedule); these columns and rows are what the API
-- reads back and edits.
CREATE TABLE special_hours (
    store_id   BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    day        TEXT NOT NULL,
    closed     BOOLEAN NOT NULL DEFAULT FALSE,
    start_time TEXT NOT NULL DEFAULT '',
    end_time   TEXT NOT NULL DEFAULT '',
    note       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (store_id, position)
);
-- Empty temp_closed_from: not temporarily closed; empty temp_closed_until:
-- until further notice.
ALTER TABLE stores ADD COLUMN temp_closed_from TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN temp_closed_until TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN temp_closed_note TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN permanently_closed BOOLEAN NOT NULL DEFAULT FALSE;

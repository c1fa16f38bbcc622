-- Insights (internal/insights, docs/insights.md): aggregates only. No row
-- holds an address, a user agent, a visitor hash or anything else that
-- could follow a person; days are UTC dates (YYYY-MM-DD). Every replica
-- adds its in-memory sums to these rows with upserts every few seconds;
-- rows older than 25 months are deleted.
--
-- Per store, day and kind (impression, panel, page, call, directions,
-- website, online_store, share, favourite). uniques: visitors of that
-- day, estimated per replica (docs/insights.md, "Uniques"). No foreign
-- key: a deleted store's counts stay until retention drops them, and a
-- flush never fails on a store deleted meanwhile.
CREATE TABLE insight_store_days (
    day TEXT NOT NULL,
    store_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    events BIGINT NOT NULL,
    uniques BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, kind)
);
CREATE INDEX insight_store_days_day ON insight_store_days (day);

-- Store searches per day, ~1 km cell (latitude and longitude times 100,
-- rounded) and filters used (a bit set, insights.Filter*).
CREATE TABLE insight_search_days (
    day TEXT NOT NULL,
    cell_lat INTEGER NOT NULL,
    cell_lon INTEGER NOT NULL,
    filters INTEGER NOT NULL,
    searches BIGINT NOT NULL,
    zero_results BIGINT NOT NULL,
    PRIMARY KEY (day, cell_lat, cell_lon, filters)
);

-- Unique visitors per day over the whole locator (estimated as above).
CREATE TABLE insight_days (
    day TEXT PRIMARY KEY,
    visitors BIGINT NOT NULL
);

-- The owners' monthly summary mail: the month a replica wrote it for
-- (exactly one replica does), and the owner's switch to turn it off.
CREATE TABLE insight_mail_months (
    month TEXT PRIMARY KEY,
    written_at {{timestamp}} NOT NULL
);
ALTER TABLE business_accounts ADD COLUMN insights_mail BOOLEAN NOT NULL DEFAULT TRUE;

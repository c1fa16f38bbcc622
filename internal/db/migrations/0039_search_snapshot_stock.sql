-- The stock side of a search snapshot (internal/search/stocksnap.go): the
-- product rows every store carries, labelled with the stock version they
-- reflect (stock_version; NULL: the snapshot has no stock side), so that a
-- replica starting from it re-reads only the stock of the stores stamped
-- after that version. Its parts are a table of their own, which binaries
-- that do not know them never read. A derived cache, as search_snapshots.
ALTER TABLE search_snapshots ADD COLUMN stock_version BIGINT;
ALTER TABLE search_snapshots ADD COLUMN stock_format INTEGER NOT NULL DEFAULT 0;
ALTER TABLE search_snapshots ADD COLUMN stock_parts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE search_snapshots ADD COLUMN stock_rows BIGINT NOT NULL DEFAULT 0;
CREATE TABLE search_snapshot_stock (
    snapshot_id BIGINT NOT NULL,
    part        INTEGER NOT NULL,
    data        {{blob}} NOT NULL,
    PRIMARY KEY (snapshot_id, part)
);
{{if .Postgres}}
-- zstd already: no second compression by TOAST.
ALTER TABLE search_snapshot_stock ALTER COLUMN data SET STORAGE EXTERNAL;
{{end}}

-- Change stamps of the stock (internal/inventory, docs/products.md
-- "Freshness"): every stock write, in its own transaction, bumps
-- stock_version and stamps each store whose rows it wrote or removed with
-- the new version. The version's row lock lasts until the write commits,
-- so versions commit in order, and a search replica that has read version
-- v knows which stores to re-read to catch up from any earlier one.
CREATE TABLE stock_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO stock_version (id, version) VALUES (1, 0);
CREATE TABLE stock_changes (
    store_id BIGINT PRIMARY KEY REFERENCES stores (id) ON DELETE CASCADE,
    version  BIGINT NOT NULL
);
CREATE INDEX stock_changes_version ON stock_changes (version, store_id);

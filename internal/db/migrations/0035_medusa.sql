-- The marketplace's Medusa server as a source of the catalogue and of the
-- stores' stock (internal/medusa, docs/products.md "From the marketplace
-- (Medusa)"). medusa_sync holds, per source (its URL), the catalogue's
-- cursor (the newest Medusa updated_at read, as Medusa wrote it), when the
-- next run is due, the failures in a row (the back-off), the last error,
-- and a lease so that one replica at a time runs it.
CREATE TABLE medusa_sync (
    source TEXT PRIMARY KEY,
    catalogue_after TEXT NOT NULL DEFAULT '',
    next_at {{timestamp}},
    failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    last_ok_at {{timestamp}},
    last_run_at {{timestamp}},
    lease_until {{timestamp}}
);
-- Medusa's stock locations, as last read, and the physical store a
-- moderator mapped each to in /admin (NULL: none yet). stock_after is the
-- location's stock cursor, full_at when its stock was last read whole; a
-- new mapping clears both.
CREATE TABLE medusa_locations (
    location_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    province TEXT NOT NULL DEFAULT '',
    postal_code TEXT NOT NULL DEFAULT '',
    country_code TEXT NOT NULL DEFAULT '',
    store_id BIGINT REFERENCES stores (id) ON DELETE SET NULL,
    mapped_by TEXT NOT NULL DEFAULT '',
    mapped_at {{timestamp}},
    stock_after TEXT NOT NULL DEFAULT '',
    full_at {{timestamp}},
    seen_at {{timestamp}} NOT NULL
);
-- Each Medusa variant written to the catalogue: the catalogue's product id
-- it became, its inventory item (how a stock level finds the product), its
-- price as the feed writes it, and a digest of what was written (an
-- unchanged variant read again is not written again).
CREATE TABLE medusa_variants (
    variant_id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL,
    inventory_item_id TEXT NOT NULL DEFAULT '',
    price TEXT NOT NULL DEFAULT '',
    digest TEXT NOT NULL
);
CREATE INDEX medusa_variants_item ON medusa_variants (inventory_item_id);
CREATE UNIQUE INDEX medusa_locations_store ON medusa_locations (store_id);

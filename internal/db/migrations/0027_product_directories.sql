-- The state directories of vapour products that may be sold
-- (internal/productlaw, docs/products.md "The law"). One row per listed
-- product of a state's published list; an import replaces that state's rows
-- in one transaction. gtin is GTIN-14 or '' (many rows list none);
-- name_key is the folded brand and name a product without a listed GTIN is
-- matched by.
CREATE TABLE product_directory_imports (
    id {{id}},
    state TEXT NOT NULL,
    file_name TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    error_count INTEGER NOT NULL,
    imported_at {{timestamp}} NOT NULL
);
CREATE TABLE product_directory (
    id {{id}},
    state TEXT NOT NULL,
    gtin TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    manufacturer TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL DEFAULT '',
    flavour TEXT NOT NULL DEFAULT '',
    submission TEXT NOT NULL DEFAULT '',
    line INTEGER NOT NULL,
    import_id BIGINT NOT NULL
);
CREATE INDEX product_directory_state ON product_directory (state, gtin);

-- Stock per store, as the local inventory feed says it (internal/inventory,
-- docs/products.md). One row per store and product; prices in hundredths of
-- their currency; quantity, price and sale_price NULL when not given.
-- import_id is the feed import that last wrote or kept the row (a full feed
-- removes its stores' rows that it did not name).
CREATE TABLE stock_imports (
    id {{id}},
    file_name TEXT NOT NULL,
    full_feed BOOLEAN NOT NULL,
    row_count INTEGER NOT NULL,
    error_count INTEGER NOT NULL,
    imported_at {{timestamp}} NOT NULL
);
CREATE TABLE stock (
    store_id BIGINT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    availability TEXT NOT NULL CHECK (availability IN ('in_stock', 'limited_availability', 'on_display_to_order', 'out_of_stock')),
    quantity BIGINT CHECK (quantity >= 0),
    price BIGINT CHECK (price >= 0),
    sale_price BIGINT CHECK (sale_price >= 0),
    currency TEXT NOT NULL DEFAULT '',
    pickup_method TEXT NOT NULL DEFAULT '',
    pickup_sla TEXT NOT NULL DEFAULT '',
    reported_at {{timestamp}} NOT NULL,
    import_id BIGINT,
    PRIMARY KEY (store_id, product_id)
){{if .SQLite}} WITHOUT ROWID{{end}};
CREATE INDEX stock_product ON stock (product_id);

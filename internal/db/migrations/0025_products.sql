-- The catalogue: the products shoppers look for (internal/catalog,
-- docs/products.md). id is the database's key, which stock rows refer to;
-- product_id the stable id that files, feeds and the marketplace name a
-- product by; gtin its GTIN-14 ('' for none), unique where given.
CREATE TABLE products (
    id {{id}},
    product_id TEXT NOT NULL UNIQUE,
    gtin TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('disposable', 'pod_system', 'pods', 'open_system', 'e_liquid', 'nicotine_pouch', 'heated_tobacco', 'accessory')),
    flavour TEXT NOT NULL CHECK (flavour IN ('tobacco', 'menthol', 'mint', 'fruit', 'dessert', 'other', 'unflavoured')),
    nicotine DOUBLE PRECISION CHECK (nicotine >= 0),
    nicotine_unit TEXT NOT NULL DEFAULT '' CHECK (nicotine_unit IN ('', 'mg/mL', '%', 'mg/pouch')),
    is_zero_nic_applicable BOOLEAN NOT NULL DEFAULT FALSE,
    is_cbd_applicable BOOLEAN NOT NULL DEFAULT FALSE,
    image TEXT NOT NULL DEFAULT '',
    handle TEXT NOT NULL DEFAULT '',
    fda_status TEXT NOT NULL DEFAULT 'none' CHECK (fda_status IN ('authorised', 'denied', 'pending', 'none')),
    created_at {{timestamp}} NOT NULL,
    updated_at {{timestamp}} NOT NULL
);
CREATE UNIQUE INDEX products_gtin ON products (gtin) WHERE gtin <> '';
CREATE INDEX products_handle ON products (handle) WHERE handle <> '';

-- Countries, stores, their weekly hours and reviews, plus the search version
-- every replica polls to pick up store changes.
CREATE TABLE countries (
    id           {{id}},
    code         TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL
);

CREATE TABLE stores (
    id                            {{id}},
    store_id                      TEXT NOT NULL DEFAULT '',
    name                          TEXT NOT NULL,
    image                         TEXT NOT NULL DEFAULT '',
    phone_number                  TEXT NOT NULL DEFAULT '',
    hours                         TEXT NOT NULL DEFAULT '',
    country_id                    {{if .Postgres}}BIGINT{{else}}INTEGER{{end}} REFERENCES countries(id),
    state                         TEXT NOT NULL DEFAULT '',
    city                          TEXT NOT NULL DEFAULT '',
    postal_code                   TEXT NOT NULL DEFAULT '',
    address                       TEXT NOT NULL DEFAULT '',
    latitude                      DOUBLE PRECISION NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude                     DOUBLE PRECISION NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    geo_precision                 TEXT NOT NULL DEFAULT 'exact',
    time_zone                     TEXT NOT NULL DEFAULT 'UTC',
    is_delivery_available         BOOLEAN NOT NULL DEFAULT FALSE,
    is_order_online_available     BOOLEAN NOT NULL DEFAULT FALSE,
    is_curbside_pickup_available  BOOLEAN NOT NULL DEFAULT FALSE,
    status                        TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending', 'hidden')),
    rating_sum                    BIGINT NOT NULL DEFAULT 0,
    review_count                  BIGINT NOT NULL DEFAULT 0,
    -- search_doc is the store's JSON as the search API answers it (without
    -- distance), rendered by the stores package in the same transaction as
    -- every change, so replicas load 1M stores in seconds.
    search_doc                    TEXT NOT NULL DEFAULT '',
    -- schedule is working_hours in one compact line ("1 09:00 17:00,...")
    -- for the open-now filter of the in-memory index; same transaction.
    schedule                      TEXT NOT NULL DEFAULT '',
    version                       BIGINT NOT NULL DEFAULT 0,
    created_at                    {{timestamp}} NOT NULL,
    updated_at                    {{timestamp}} NOT NULL
);
CREATE INDEX stores_version ON stores (version);
CREATE INDEX stores_status ON stores (status);
CREATE INDEX stores_store_id ON stores (store_id);

CREATE TABLE working_hours (
    store_id   BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    week_day   INTEGER NOT NULL CHECK (week_day BETWEEN 0 AND 6),
    start_time TEXT NOT NULL DEFAULT '',
    end_time   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (store_id, position)
);

CREATE TABLE reviews (
    id            {{id}},
    store_id      BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id    TEXT NOT NULL DEFAULT '',
    customer_id   TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL DEFAULT 'Approved',
    rating        INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    content       TEXT NOT NULL DEFAULT '',
    product       TEXT NOT NULL DEFAULT '{}',
    customer_first_name TEXT NOT NULL DEFAULT '',
    customer_last_name  TEXT NOT NULL DEFAULT '',
    customer_has_account BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    {{timestamp}} NOT NULL,
    updated_at    {{timestamp}} NOT NULL
);
CREATE INDEX reviews_store ON reviews (store_id, created_at DESC, id DESC);

CREATE TABLE search_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO search_version (id, version) VALUES (1, 0);

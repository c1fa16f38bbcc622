-- Store photos uploaded by their owners (internal/photos). An upload is kept
-- as a few re-encoded widths, each served at /photos/{photo}/{width}.jpg with
-- long-lived cache headers: a new upload is a new photo id, so a URL's bytes
-- never change. The store's image field points at the 640 px variant.
CREATE TABLE store_photos (
    id          {{id}},
    store_id    BIGINT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    width       INTEGER NOT NULL, -- of the largest variant
    height      INTEGER NOT NULL,
    created_at  {{timestamp}} NOT NULL
);
CREATE INDEX store_photos_store ON store_photos (store_id);

CREATE TABLE store_photo_variants (
    photo_id  BIGINT NOT NULL REFERENCES store_photos(id) ON DELETE CASCADE,
    width     INTEGER NOT NULL, -- the slot (320, 640, 1280); the pixels may be fewer
    height    INTEGER NOT NULL,
    data      {{blob}} NOT NULL,
    PRIMARY KEY (photo_id, width)
);

-- Hours per service (docs/product-rules.md, "Services"): each service's own
-- weekly hours, special dates, last-order offset and pause, as the JSON of
-- stores.encodeServices ("" when every service follows the store's hours).
-- stores.schedule carries them too, for the search index.
ALTER TABLE stores ADD COLUMN services TEXT NOT NULL DEFAULT '';

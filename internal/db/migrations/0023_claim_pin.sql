-- Positions a shopper can walk to (docs/claims.md, "Where the store stands").
-- The claim keeps the pin its owner placed in the wizard (on the map, or
-- from the device's location at the store): NULL when the owner placed none.
-- pin_source is '' (none), 'map' or 'device'.
ALTER TABLE claims ADD COLUMN pin_latitude DOUBLE PRECISION;
ALTER TABLE claims ADD COLUMN pin_longitude DOUBLE PRECISION;
ALTER TABLE claims ADD COLUMN pin_source TEXT NOT NULL DEFAULT '';
-- /admin lists the published stores whose position is only a postal or city
-- centre; a partial index keeps that list cheap among a million exact ones.
CREATE INDEX stores_approximate ON stores (id) WHERE status = 'published' AND geo_precision IN ('postal_code', 'city');

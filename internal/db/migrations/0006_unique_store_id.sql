-- store_id is the marketplace's id of a store: at most one store has each
-- one (stores without a store_id keep the empty string). Before this step,
-- two replicas first started together on an empty database could both write
-- the demo data. Migrate checks for duplicates first and says how to list
-- and fix them (duplicateStoreIDs in internal/db/migrate.go).
CREATE UNIQUE INDEX stores_store_id_unique ON stores (store_id) WHERE store_id <> '';
-- Lookups by store_id exclude the empty one too, so they use this index.
DROP INDEX stores_store_id;

-- Deletions in the marketplace's Medusa server mirrored (internal/medusa,
-- docs/products.md "From the marketplace (Medusa)").
--
-- stock_imports.source names a batch given whole (inventory.Repo.ImportRows)
-- in full, where file_name is clipped for the log: the sync removes the stock
-- rows that its own batches last wrote, and only those (a row an owner or a
-- feed wrote since belongs to no batch of the sync).
ALTER TABLE stock_imports ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE INDEX stock_imports_source ON stock_imports (source) WHERE source <> '';
-- medusa_variants: the Medusa product of each variant (a deleted product
-- withdraws its variants) and when Medusa deleted the variant ('' while it
-- is sold: Medusa's deleted_at as Medusa wrote it).
ALTER TABLE medusa_variants ADD COLUMN medusa_product_id TEXT NOT NULL DEFAULT '';
ALTER TABLE medusa_variants ADD COLUMN deleted_at TEXT NOT NULL DEFAULT '';
CREATE INDEX medusa_variants_product ON medusa_variants (medusa_product_id);
-- medusa_locations.gone_at: when a sync first missed the location in
-- Medusa's list (deleted there); its mapping is kept and flagged, its stock
-- rows removed.
ALTER TABLE medusa_locations ADD COLUMN gone_at {{timestamp}};
-- What the last run withdrew: variants, catalogue products removed, stock
-- rows removed, locations gone.
ALTER TABLE medusa_sync ADD COLUMN last_withdrawn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE medusa_sync ADD COLUMN last_products_removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE medusa_sync ADD COLUMN last_stock_removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE medusa_sync ADD COLUMN last_locations_gone INTEGER NOT NULL DEFAULT 0;
-- Rows written before this migration carry neither: the next run reads the
-- catalogue and every mapped location whole and records them again.
UPDATE medusa_variants SET digest = '';
UPDATE medusa_sync SET catalogue_after = '';
UPDATE medusa_locations SET full_at = NULL;

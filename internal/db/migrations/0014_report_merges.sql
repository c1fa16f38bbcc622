-- A report repeating an open one (same store, same reason) is merged into
-- it: copies counts how many shoppers sent it (internal/reports, Submit).
ALTER TABLE store_reports ADD COLUMN copies INTEGER NOT NULL DEFAULT 1;

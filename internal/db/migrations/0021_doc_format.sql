-- The format a store's search document was rendered with
-- (stores.DocFormat): every write of search_doc writes the current number,
-- and stores.Repo.RerenderDocs re-renders the rows of an older one after
-- an upgrade. Rows written before this column existed are format 0: all
-- of them are re-rendered once. The index serves that walk, and the probe
-- every replica makes for stale rows when all are current.
ALTER TABLE stores ADD COLUMN doc_format INTEGER NOT NULL DEFAULT 0;
CREATE INDEX stores_doc_format ON stores (doc_format, id);

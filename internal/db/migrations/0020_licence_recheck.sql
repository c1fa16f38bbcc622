-- When a store's licence flags are next judged again by the calendar alone
-- (docs/licences.md, "Dates"): the day after an active licence's expiry,
-- or a No-Tobacco-Sale Order's start or the day after its end; '' for
-- never. stores.Repo.RecheckLicences reads the due ones on this index.
ALTER TABLE stores ADD COLUMN licence_recheck_on TEXT NOT NULL DEFAULT '';
CREATE INDEX stores_licence_recheck ON stores (licence_recheck_on) WHERE licence_recheck_on <> '';
-- Stores that already show a licence are judged again at the first run.
UPDATE stores SET licence_recheck_on = '2000-01-01' WHERE licence_doc <> '';

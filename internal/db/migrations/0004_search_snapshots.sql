-- Snapshots of the in-memory search index (see internal/stores/snapshot.go):
-- a replica starts from the newest complete one and re-reads only the
-- stores changed since its version, instead of decoding every row.
-- A derived cache: deleting both tables' rows is always safe.
-- The id is BIGSERIAL on PostgreSQL, not the identity column of the other
-- steps: this step was first written so, and new databases must match the
-- ones it already built.
CREATE TABLE search_snapshots (
    id           {{if .Postgres}}BIGSERIAL PRIMARY KEY{{else}}INTEGER PRIMARY KEY{{end}},
    version      BIGINT NOT NULL,   -- search version the snapshot reflects
    format       INTEGER NOT NULL,  -- layout of the parts; another format is ignored
    stores       INTEGER NOT NULL,
    parts        INTEGER NOT NULL,
    bytes        BIGINT NOT NULL DEFAULT 0, -- compressed size of all parts
    complete     BOOLEAN NOT NULL DEFAULT FALSE,
    created_unix BIGINT NOT NULL
);

CREATE TABLE search_snapshot_parts (
    snapshot_id BIGINT NOT NULL,
    part        INTEGER NOT NULL,
    data        {{blob}} NOT NULL,
    PRIMARY KEY (snapshot_id, part)
);
{{if .Postgres}}
-- The parts are zstd already: no second compression by TOAST.
ALTER TABLE search_snapshot_parts ALTER COLUMN data SET STORAGE EXTERNAL;

-- Changes are read in (version, id) keyset pages (Repo.ScanChanges): on
-- (version) alone PostgreSQL would sort every row of a large version.
-- (SQLite's index on version already ends with the rowid, i.e. the id.)
CREATE INDEX stores_version_id ON stores (version, id);
DROP INDEX stores_version;
{{end}}

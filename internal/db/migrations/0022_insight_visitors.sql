-- Insights counted once per visitor across replicas (internal/insights,
-- visitors.go; docs/insights.md). A visitor is a hash of their network
-- under the day's salt; the salt is a row here so every replica hashes
-- alike. Both tables hold today and yesterday only: older rows are
-- deleted by the first flush of each day. No address is written.
CREATE TABLE insight_salts (
    day TEXT PRIMARY KEY,
    salt TEXT NOT NULL
);

-- A (visitor, what) key already counted on a day: what is 0 (a visitor),
-- store id * 16 + kind (a store event) or a negative cell and filters
-- code (a search).
CREATE TABLE insight_seen (
    day TEXT NOT NULL,
    visitor BIGINT NOT NULL,
    what BIGINT NOT NULL,
    PRIMARY KEY (day, visitor, what)
);

-- The widget's partner counts once per visitor across replicas
-- (internal/insights/partners.go, docs/embed.md "What is counted"), as
-- insight_seen does for the store counts: a (visitor, partner, kind,
-- what) key already counted on a day. what is 0 (a view), a store's id
-- (panel, directions, buy) or a search's cell code. Today and yesterday
-- only: older rows are deleted by the first flush of each day.
CREATE TABLE insight_partner_seen (
    day TEXT NOT NULL,
    visitor BIGINT NOT NULL,
    partner TEXT NOT NULL,
    kind TEXT NOT NULL,
    what BIGINT NOT NULL,
    PRIMARY KEY (day, visitor, partner, kind, what)
);

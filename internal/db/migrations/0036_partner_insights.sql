-- The embeddable widget's counts per partner (internal/insights/partners.go,
-- docs/embed.md): per UTC day, partner slug and kind (view, search,
-- stores_shown, panel, directions, buy), sums only, like the other insight
-- tables. No foreign key: a partner's counts outlive a renamed slug until
-- retention drops them.
CREATE TABLE insight_partner_days (
    day TEXT NOT NULL,
    partner TEXT NOT NULL,
    kind TEXT NOT NULL,
    events BIGINT NOT NULL,
    PRIMARY KEY (partner, day, kind)
);
CREATE INDEX insight_partner_days_day ON insight_partner_days (day);

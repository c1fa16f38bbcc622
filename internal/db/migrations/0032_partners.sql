-- Partners (internal/partners, docs/partners.md): brands, point-of-sale
-- vendors and chains that embed the locator, read it with their API keys
-- and hear of changes by webhooks. id is random text (a partner's id shows
-- in URLs and keys, and says nothing of how many partners there are); slug
-- is the partner's name in URLs and in insights. allowed_origins holds the
-- sites that may frame the widget, normalised (https://shop.example), one
-- per line. A disabled partner keeps its row: its keys, widget and hooks
-- stop working.
CREATE TABLE partners (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    slug            TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL CHECK (kind IN ('brand', 'pos', 'chain')),
    allowed_origins TEXT NOT NULL DEFAULT '',
    created_at      {{timestamp}} NOT NULL,
    disabled_at     {{timestamp}}
);

-- A brand's products (catalogue ids, as feeds name them).
CREATE TABLE partner_products (
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL,
    PRIMARY KEY (partner_id, product_id)
);

-- A brand's brand names: every product of the catalogue with that brand.
CREATE TABLE partner_brands (
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    brand      TEXT NOT NULL,
    PRIMARY KEY (partner_id, brand)
);

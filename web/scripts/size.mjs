// Bundle budget (npm run size, after npm run build): the JavaScript index.html loads before
// anything lazy (entry script + modulepreloads) must stay at or under 120 KB gzip; the map chunk
// and the other lazy chunks are reported.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 120 * 1000;
const HASHED = /-[\w-]{8}\.(m?js|css)$/;
// LOCATOR_WEB_DIST: where the build went when not web/dist (vite.config.ts).
const dist = process.env.LOCATOR_WEB_DIST ? resolve(process.env.LOCATOR_WEB_DIST) : resolve(import.meta.dirname, "../dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

const initial = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/?([^"]+\.css)"/g)].map((m) => m[1]);
if (initial.length === 0) {
  console.error("size: no scripts found in dist/index.html; run `npm run build` first");
  process.exit(1);
}
const assets = readdirSync(join(dist, "assets")).map((f) => `assets/${f}`);
const lazy = assets.filter((f) => /\.(m?js)$/.test(f) && !initial.includes(f));
// The map chunk: StoreMap's chunk, the chunks it imports (MapLibre may sit in one shared with
// other map screens) and the files they name (worker, basemap data, CSS), minus initial files.
const mapFiles = [];
const queue = assets.filter((f) => /\/StoreMap-[^/]*\.js$/.test(f));
while (queue.length > 0) {
  const f = queue.shift();
  if (mapFiles.includes(f) || initial.includes(f)) continue;
  mapFiles.push(f);
  if (!f.endsWith(".js")) continue;
  const text = readFileSync(join(dist, f), "utf8");
  for (const other of assets) {
    const name = other.slice("assets/".length);
    if (other !== f && text.includes(name)) queue.push(other);
  }
  // Vite loads a chunk's CSS from the importer; it carries the chunk's name (the 8-character
  // hash after the last "-" before the extension may itself contain "-").
  const name = f.replace(HASHED, "");
  queue.push(...assets.filter((a) => a.endsWith(".css") && a.replace(HASHED, "") === name));
}

let total = 0;
console.log("initial JavaScript (gzip):");
for (const f of initial) {
  const n = gz(f);
  total += n;
  console.log(`  ${f.padEnd(44)} ${kb(n)}`);
}
console.log(`  ${"total".padEnd(44)} ${kb(total)} (budget ${kb(BUDGET)})`);
console.log(`initial CSS (gzip): ${css.map((f) => `${f} ${kb(gz(f))}`).join(", ")}`);
console.log("map chunk (lazy, gzip):");
for (const f of mapFiles) console.log(`  ${f.padEnd(44)} ${kb(gz(f))}`);
console.log(`  ${"total".padEnd(44)} ${kb(mapFiles.reduce((s, f) => s + gz(f), 0))}`);
console.log("other lazy chunks (gzip):");
for (const f of lazy.filter((f) => !mapFiles.includes(f))) console.log(`  ${f.padEnd(44)} ${kb(gz(f))}`);

// The widget (docs/embed.md): /embed serves this same index.html (another runtime config, no other
// script), so its initial JavaScript is the total above, under the same budget; /embed.js, the
// snippet partners' pages load, is served by the Go binary.
const embedJs = gzipSync(readFileSync(resolve(import.meta.dirname, "../../internal/httpapi/embedjs/embed.js")), { level: 9 }).length;
console.log(`embed (/embed): initial JavaScript ${kb(total)}, the same entry (budget ${kb(BUDGET)}); /embed.js ${kb(embedJs)}`);

if (total > BUDGET) {
  console.error(`size: initial JavaScript ${kb(total)} is over the ${kb(BUDGET)} budget`);
  process.exit(1);
}

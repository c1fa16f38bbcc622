// Lighthouse (mobile preset, its default throttling) on the locator page served by the real
// binary with demo data, in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Prints the performance score and the main metrics; `--min=90` makes it fail below a score.
// `--path=/stores/...` audits that path instead of the locator (`--path=store` picks the first
// store page of the sitemap) and adds the SEO and accessibility scores, with `--min-seo=` and
// `--min-a11y=` as their thresholds.
// Run after `npm run build`: npm run lighthouse [-- --path=store --min=95 --min-seo=100 --min-a11y=100]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, CHROMIUM_ARGS } from "../e2e/browser.mjs";
import { firstStorePath } from "../e2e/routes.mjs";
import { startServer } from "../e2e/server.mjs";

const min = Number(process.argv.find((a) => a.startsWith("--min="))?.slice(6) ?? 0);
const jsonOut = process.argv.find((a) => a.startsWith("--json="))?.slice(7);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const minSeo = Number(arg("min-seo") ?? 0);
const minA11y = Number(arg("min-a11y") ?? 0);
const server = await startServer();
let path = arg("path") ?? "/";
if (path === "store") path = await firstStorePath(server.url);
const categories = path === "/" ? ["performance"] : ["performance", "accessibility", "seo"];
const below = [];
const profile = mkdtempSync(join(tmpdir(), "locator-lighthouse-"));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || CHROMIUM,
  // --no-webgl: WebGL off (no GPU here: WebGL runs in software). MapLibre starts only when the
  // user interacts with the map preview, so this changes nothing in a page load any more.
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS, ...(process.argv.includes("--no-webgl") ? ["--disable-webgl", "--disable-3d-apis"] : [])],
  userDataDir: profile,
});
const scores = [];
try {
  for (let i = 0; i < runs; i++) {
    const result = await lighthouse(`${server.url}${path}`, { port: chrome.port, onlyCategories: categories, output: "json", logLevel: "error" });
    const { categories: got, audits } = result.lhr;
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result.lhr));
    const score = Math.round(got.performance.score * 100);
    scores.push(score);
    const metric = (id) => audits[id]?.displayValue ?? "n/a";
    let extra = "";
    if (got.seo) {
      const seo = Math.round(got.seo.score * 100);
      const a11y = Math.round(got.accessibility.score * 100);
      extra = ` | SEO ${seo} | accessibility ${a11y}`;
      if (seo < minSeo) below.push(`run ${i + 1}: SEO ${seo} < ${minSeo}`);
      if (a11y < minA11y) below.push(`run ${i + 1}: accessibility ${a11y} < ${minA11y}`);
      for (const c of [got.seo, got.accessibility]) {
        for (const ref of c.auditRefs) {
          const a = audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 1) console.log(`  ${c.title}: ${a.id} ${a.title}`);
        }
      }
    }
    console.log(
      `${path} run ${i + 1}: performance ${score}${extra} | FCP ${metric("first-contentful-paint")} | LCP ${metric("largest-contentful-paint")} | TBT ${metric("total-blocking-time")} | CLS ${metric("cumulative-layout-shift")} | SI ${metric("speed-index")}`,
    );
  }
} finally {
  await chrome.kill();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
}
scores.sort((a, b) => a - b);
const median = scores[Math.floor(scores.length / 2)];
console.log(`Lighthouse mobile performance (median of ${scores.length}): ${median}`);
if (median < min || below.length > 0) {
  console.error(`below the target: ${median < min ? `performance ${median} < ${min}` : ""} ${below.join("; ")}`);
  process.exit(1);
}

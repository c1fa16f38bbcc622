// Lighthouse (mobile preset, its default throttling) on the locator page served by the real
// binary with demo data, in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Prints the performance score and the main metrics; `--min=90` makes it fail below a score.
// Run after `npm run build`: npm run lighthouse
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, CHROMIUM_ARGS } from "../e2e/browser.mjs";
import { startServer } from "../e2e/server.mjs";

const min = Number(process.argv.find((a) => a.startsWith("--min="))?.slice(6) ?? 0);
const jsonOut = process.argv.find((a) => a.startsWith("--json="))?.slice(7);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const server = await startServer();
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
    const result = await lighthouse(`${server.url}/`, { port: chrome.port, onlyCategories: ["performance"], output: "json", logLevel: "error" });
    const { categories, audits } = result.lhr;
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result.lhr));
    const score = Math.round(categories.performance.score * 100);
    scores.push(score);
    const metric = (id) => audits[id]?.displayValue ?? "n/a";
    console.log(
      `run ${i + 1}: performance ${score} | FCP ${metric("first-contentful-paint")} | LCP ${metric("largest-contentful-paint")} | TBT ${metric("total-blocking-time")} | CLS ${metric("cumulative-layout-shift")} | SI ${metric("speed-index")}`,
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
if (median < min) {
  console.error(`below the target ${min}`);
  process.exit(1);
}

// Lighthouse accessibility, best practices and SEO on every route (e2e/routes.mjs) of the real
// binary with demo data, in Debian's Chromium: fails unless every audit that counts towards those
// scores passes (each category 100). The exceptions, each deliberate: on / the spec asks for the
// visitor's position when the locator opens (best practices: geolocation-on-start); /admin,
// /business, /profile and /reset-password are private screens that robots.txt keeps out of search engines
// (internal/storepages/sitemap.go), which SEO's is-crawlable reports. These categories do not depend on the machine's speed, so the page loads unthrottled
// (mobile screen). `make test` runs it (test-web: npm run lighthouse:check, after the build).
//   npm run build && npm run lighthouse:check [-- --json=DIR]
// The routes are audited LIGHTHOUSE_JOBS (3) at a time, each share in a process of its own with
// its own Chromium against the one server: Lighthouse keeps global state and must not run twice in
// one process, and most of an audit's time is waiting for the page to be quiet (189 s of wall for
// 41 s of CPU one route after another, docs/performance.md "The test suite").
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, CHROMIUM_ARGS } from "../e2e/browser.mjs";
import { productRoutes } from "../e2e/routes.mjs";
import { startServer } from "../e2e/server.mjs";

const CATEGORIES = ["accessibility", "best-practices", "seo"];
/** Audits allowed to fail, by path (see above). */
const EXCEPTIONS = {
  // target-size: the map's pins of one page sit close together (never clustered since issue #39,
  // M5); WCAG 2.5.8's "equivalent" exception applies: each pin's store is also its list row, a
  // full-width target. The e2e axe scans (e2e/layout.spec.mjs) still check the rest of the page.
  "/": ["geolocation-on-start", "target-size"],
  "/admin": ["is-crawlable"],
  "/business": ["is-crawlable"],
  "/profile": ["is-crawlable"],
  "/reset-password": ["is-crawlable"],
};
const jsonDir = process.argv.find((a) => a.startsWith("--json="))?.slice(7);
// Set by the parent below for each child: the server's URL and the child's share of the routes.
const { LIGHTHOUSE_URL: shareUrl, LIGHTHOUSE_ROUTES: shareRoutes } = process.env;

/** Audits `routes` of `url` in one Chromium, printing each route's scores and failed audits; answers how many failed. */
async function audit(url, routes) {
  const profile = mkdtempSync(join(tmpdir(), "locator-lighthouse-"));
  let failures = 0;
  let chrome;
  try {
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", ...CHROMIUM_ARGS], userDataDir: profile });
    for (const route of routes) {
      const result = await lighthouse(
        `${url}${route.path}`,
        { port: chrome.port, output: "json", logLevel: "error" },
        { extends: "lighthouse:default", settings: { onlyCategories: CATEGORIES, throttlingMethod: "provided", disableFullPageScreenshot: true } },
      );
      const { categories, audits } = result.lhr;
      if (jsonDir) writeFileSync(join(jsonDir, `${route.name.replaceAll(" ", "-")}.json`), JSON.stringify(result.lhr));
      const allowed = EXCEPTIONS[route.path] ?? [];
      const failed = [];
      for (const id of CATEGORIES) {
        for (const ref of categories[id].auditRefs) {
          const a = audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 1 && !allowed.includes(a.id)) {
            const items = (a.details?.items ?? []).slice(0, 3).map((i) => i.node?.snippet ?? i.source?.url ?? i.url ?? i.description ?? "");
            failed.push(`${categories[id].title}: ${a.id} (${a.title}) ${items.join(" | ")}`);
          }
        }
      }
      const scores = CATEGORIES.map((id) => `${categories[id].title} ${Math.round(categories[id].score * 100)}`).join(", ");
      console.log(`${route.path}: ${scores}${allowed.length ? ` (allowed to fail here: ${allowed.join(", ")})` : ""}`);
      for (const f of failed) console.log(`  ${f}`);
      failures += failed.length;
    }
  } finally {
    await chrome?.kill();
    rmSync(profile, { recursive: true, force: true });
  }
  return failures;
}

/** Runs this script on `routes` of `url` in a child process; answers its exit code and output. */
function child(url, routes) {
  return new Promise((resolveChild) => {
    const env = { ...process.env, LIGHTHOUSE_URL: url, LIGHTHOUSE_ROUTES: JSON.stringify(routes) };
    const p = spawn(process.execPath, [import.meta.filename, ...process.argv.slice(2)], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("close", (code) => resolveChild({ code: code ?? 1, out }));
  });
}

if (shareRoutes) {
  process.exit((await audit(shareUrl, JSON.parse(shareRoutes))) > 0 ? 1 : 0);
}

const server = await startServer({ stores: 300 });
let results;
try {
  const routes = await productRoutes(server.url);
  const n = Math.max(1, Math.min(routes.length, Number(process.env.LIGHTHOUSE_JOBS) || 3));
  results = await Promise.all(Array.from({ length: n }, (_, i) => child(server.url, routes.filter((_, k) => k % n === i))));
} finally {
  await server.stop();
}
for (const r of results) process.stdout.write(r.out);
const failed = results.filter((r) => r.code !== 0).length;
if (failed > 0) {
  console.error(`Lighthouse: failing audits in ${failed} of ${results.length} shares (above: each route's failures)`);
  process.exit(1);
}
console.log("Lighthouse: accessibility, best practices and SEO at 100 on every route");

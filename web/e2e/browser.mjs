import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

const cspViolations = [];
let exitHooked = false;

/**
 * Records every Content-Security-Policy violation in the context's pages and their workers:
 * Chromium's console report and the securitypolicyviolation event. A suite that saw one exits
 * with status 1 (listing them), whatever its scenarios said.
 */
export async function watchCsp(context) {
  const record = (where, text) => cspViolations.push(`${where}: ${text}`);
  const report = (e) => `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`;
  const listen = (target) => `${target}.addEventListener("securitypolicyviolation", (e) => console.error((${report})(e)))`;
  context.on("console", (m) => {
    if (/Content Security Policy|CSP violation/.test(m.text())) record(m.page()?.url() ?? "worker", m.text());
  });
  const watchPage = (page) => page.on("worker", (w) => void w.evaluate(listen("self")).catch(() => undefined));
  context.pages().forEach(watchPage);
  context.on("page", watchPage);
  await context.addInitScript(listen("document"));
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    if (cspViolations.length === 0) return;
    console.log(`${cspViolations.length} Content-Security-Policy violation(s):\n  ${cspViolations.join("\n  ")}`);
    process.exitCode = 1;
  });
}

/**
 * Debian's Chromium with a fresh profile (its --user-data-dir, which playwright-core sets from
 * the directory given here); close() also deletes the profile. CSP violations fail the suite.
 */
export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "locator-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  await watchCsp(context);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

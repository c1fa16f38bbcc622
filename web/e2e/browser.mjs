import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";

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

/**
 * Records every Content-Security-Policy violation in the context's pages and their workers
 * (Chromium's console report and the securitypolicyviolation event) into the returned list; the
 * `context` fixture in fixtures.mjs fails the test when it is not empty.
 */
export async function watchCsp(context) {
  const violations = [];
  const report = (e) => `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`;
  const listen = (target) => `${target}.addEventListener("securitypolicyviolation", (e) => console.error((${report})(e)))`;
  context.on("console", (m) => {
    if (/Content Security Policy|CSP violation/.test(m.text())) violations.push(`${m.page()?.url() ?? "worker"}: ${m.text()}`);
  });
  const watchPage = (page) => page.on("worker", (w) => void w.evaluate(listen("self")).catch(() => undefined));
  context.pages().forEach(watchPage);
  context.on("page", watchPage);
  await context.addInitScript(listen("document"));
  return violations;
}

/** Debian's Chromium without a profile of its own, for contexts made by `openContext`. */
export function launchBrowser(args = CHROMIUM_ARGS) {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

/**
 * A fresh context (its own cookies, storage and cache, as a fresh profile has) of a browser from
 * `launchBrowser`: what `launch` answers, at a fraction of a browser start's CPU. close() closes
 * the context only. `options` are Playwright's newContext options.
 */
export async function openContext(browser, options = {}) {
  const context = await browser.newContext(options);
  const cspViolations = await watchCsp(context);
  return { context, cspViolations, close: () => context.close() };
}

/**
 * Debian's Chromium with a fresh profile (its --user-data-dir, which Playwright sets from the
 * directory given here); close() also deletes the profile; `cspViolations` lists what the page's CSP blocked. `options` are Playwright's
 * launchPersistentContext options (viewport, baseURL, args, ...).
 */
export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "locator-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  const cspViolations = await watchCsp(context);
  return {
    context,
    cspViolations,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

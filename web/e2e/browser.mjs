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
 * Debian's Chromium with a fresh profile (its --user-data-dir, which Playwright sets from the
 * directory given here); close() also deletes the profile. `options` are Playwright's
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
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

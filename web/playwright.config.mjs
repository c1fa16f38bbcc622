// End-to-end suites (e2e/*.spec.mjs) against the real binary in Debian's Chromium: `npm run e2e`
// after `npm run build`. Browsers come from e2e/browser.mjs (never `npx playwright install`).
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.mjs",
  outputDir: "e2e/test-results",
  globalSetup: "./e2e/global-setup.mjs",
  // One test at a time: each suite starts its own server, and the machine is shared.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: "list",
  timeout: 180_000,
  expect: { timeout: 20_000 },
  use: {
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    timezoneId: "America/New_York",
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
  },
});

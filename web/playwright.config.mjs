// End-to-end suites (e2e/*.spec.mjs) against the real binary in Debian's Chromium: `npm run e2e`
// after `npm run build`. Browsers come from e2e/browser.mjs (never `npx playwright install`).
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.mjs",
  outputDir: "e2e/test-results",
  globalSetup: "./e2e/global-setup.mjs",
  // One test at a time when run by hand on a shared machine. `make e2e` passes --workers 2
  // (E2E_WORKERS) and `make test` 3 (E2E_TEST_WORKERS): each suite starts its own server on a free
  // port with its own database and each test its own browser context, so workers share nothing.
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

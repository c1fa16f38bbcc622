// The e2e harness shared by the suites (*.spec.mjs, run by `npx playwright test`): a real
// locator server per suite (worker fixture `server`), one Debian Chromium per worker with a fresh
// context per test (`context`, `page`, from browser.mjs), page errors failing the test, and
// helpers that wait on the page rather than on the clock.
import { test as base, expect } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CHROMIUM_ARGS, launch, launchBrowser, openContext } from "./browser.mjs";
import { startServer } from "./server.mjs";

export { expect };

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 667 };
export const LIST_PATH = "/api/store/physical-store/list-physical-store/";
/** Screenshots (gitignored). */
export const SHOTS = join(import.meta.dirname, "screenshots");
mkdirSync(SHOTS, { recursive: true });

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const test = base.extend({
  /** What the suite's server is started with (startServer's options). */
  serverOptions: [{ stores: 3000 }, { scope: "worker", option: true }],
  /** The suite's locator server: { url, bin, db, stop }. */
  server: [
    async ({ serverOptions }, use) => {
      const server = await startServer(serverOptions);
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 300_000 }, // a 20,000-store seed (docs.spec.mjs) on a busy machine
  ],
  /** Extra Chromium flags for a test (e.g. --disable-webgl). */
  chromiumArgs: [[], { option: true }],
  /** One Chromium per worker, started when a test first needs it; each test gets a fresh context of it. */
  workerBrowser: [
    async ({}, use) => {
      const browser = await launchBrowser();
      try {
        await use(browser);
      } finally {
        await browser.close();
      }
    },
    { scope: "worker" },
  ],
  // Each test gets a fresh context (own cookies, storage, cache) pointed at the suite's server: of
  // the worker's Chromium, or of a browser of its own when the test asks for extra flags.
  context: async ({ server, workerBrowser, viewport, locale, timezoneId, chromiumArgs }, use) => {
    const options = { baseURL: server.url, viewport, locale, timezoneId };
    const browser =
      chromiumArgs.length > 0
        ? await launch({ ...options, args: [...CHROMIUM_ARGS, ...chromiumArgs] })
        : await openContext(workerBrowser, options);
    try {
      await use(browser.context);
    } finally {
      await browser.close();
    }
    expect(browser.cspViolations, "Content-Security-Policy violations").toEqual([]);
  },
  /** Messages of uncaught errors in the page; the test fails if there are any at its end. */
  pageErrors: async ({}, use) => {
    const errors = [];
    await use(errors);
    expect(errors, "uncaught errors in the page").toEqual([]);
  },
  page: async ({ context, pageErrors }, use) => {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await use(page);
  },
  /** The texts of the page's alerts, in order; each is accepted. */
  alerts: async ({ page }, use) => {
    const texts = [];
    page.on("dialog", (dialog) => {
      texts.push(dialog.message());
      void dialog.accept();
    });
    await use(texts);
  },
});

/**
 * axe-core on the whole page: fails on violations of the given impacts (serious and critical by
 * default; `all` for every violation).
 */
export async function axe(page, label, { all = false } = {}) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE); // not a <script> element: the CSP allows no inline script
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = all ? violations : violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad, `${label}: ${all ? "" : "serious or critical "}axe violations`).toEqual([]);
}

/** The next 200 answer of the store search whose URL satisfies `predicate`. */
export function listResponse(page, predicate = () => true) {
  return page.waitForResponse((r) => r.url().includes(LIST_PATH) && r.status() === 200 && predicate(new URL(r.url())));
}

/**
 * Drags the location picker's marker (web/src/components/location, in `scope`) 40 px right and
 * 30 px down, in two moves as a hand would. Hovering first waits until the marker is in view and
 * stands still.
 */
export async function dragMarker(page, scope) {
  const marker = scope.getByRole("img", { name: "Store location (drag to move)" });
  await scope.locator(".maplibregl-canvas").waitFor();
  await marker.hover();
  const box = await marker.boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 20, y + 15, { steps: 5 });
  await page.mouse.move(x + 40, y + 30, { steps: 5 });
  await page.mouse.up();
}

/** Waits until no finite CSS animation or transition runs (a toast's fade-in, a panel sliding in). */
export async function animationsDone(page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Waits until the locator's map preview shows its basemap (the worker's bitmap is on the canvas). */
export async function previewDrawn(page) {
  await page.waitForFunction(() => (document.querySelector("[data-map-preview] canvas")?.width ?? 0) > 0, null, { timeout: 20_000 });
}

/** Waits until `element` (an ElementHandle) has left the document. */
export async function detached(page, element) {
  await page.waitForFunction((el) => !el.isConnected, element);
}

/** A server option's `prepare` that adds a moderator with `locator moderators add`. */
export function addModerator(email, password) {
  return ({ bin, db, dir }) =>
    execFileSync(bin, ["moderators", "add", email, "--database-url", db], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, LOCATOR_MODERATOR_PASSWORD: password },
    });
}

/** 1942 Broadway, Boulder CO 80302: where the claims of the suites stand. */
export const BOULDER_DOOR = { latitude: 40.01795, longitude: -105.27905 };

/**
 * Submits a claim through the API as the claim form would send it, at 1942 Broadway, Boulder, CO,
 * with the owner's pin at the door (the offline gazetteer knows only the ZIP's centre); `fields`
 * gives the name, email, hours, category, ... Returns the claim's id.
 */
export async function submitBoulderClaim(api, fields) {
  const submitted = await api.post("/api/store/claim", {
    data: {
      phone: "+1 303 555 0100",
      country: "United States",
      state: "CO",
      address1: "1942 Broadway",
      city: "Boulder",
      postal_code: "80302",
      // The owner's pin at the door: a claim standing only at its ZIP's centre is not published
      // until a person places it (docs/claims.md, "Where the store stands").
      pin_latitude: BOULDER_DOOR.latitude,
      pin_longitude: BOULDER_DOOR.longitude,
      ...fields,
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  return (await submitted.json()).claim.id;
}

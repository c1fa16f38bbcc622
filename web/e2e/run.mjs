// End-to-end suite: the real binary with demo data, driven through Debian's Chromium.
// Run with `npm run e2e` (after `npm run build`); exits non-zero when a scenario fails.
// Screenshots go to web/e2e/screenshots/ (gitignored).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CHROMIUM_ARGS, launch } from "./browser.mjs";
import { openNow } from "./oracle.mjs";
import { startServer } from "./server.mjs";

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = join(import.meta.dirname, "screenshots");
mkdirSync(SHOTS, { recursive: true });

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 667 };
const LIST_PATH = "/api/store/physical-store/list-physical-store/";

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

/** A fresh page that records every store list answer. */
async function openPage(ctx, path = "/", viewport = DESKTOP) {
  const { context, close } = await launch({ viewport, locale: "en-US", timezoneId: "America/New_York" });
  const page = context.pages()[0] ?? (await context.newPage());
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(ctx.url + path);
  return { page, close };
}

const listResponse = (page, predicate = () => true) =>
  page.waitForResponse((r) => r.url().includes(LIST_PATH) && r.status() === 200 && predicate(new URL(r.url())));

async function listedNames(page) {
  const list = page.getByRole("list", { name: "Stores" });
  await list.waitFor();
  return list.locator("li button > span:first-child").allInnerTexts();
}

async function axe(page, label) {
  await page.evaluate(AXE); // not a <script> element: the page's CSP allows no inline script
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad, [], `${label}: serious or critical axe violations:\n${JSON.stringify(bad, null, 2)}`);
  return result;
}

test("loads the stores near New York with the map", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.getByRole("heading", { name: "Stores in New York" }).waitFor();
  await page.getByText("Showing results 1-20").waitFor();
  assert.equal((await listedNames(page)).length, 20);
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  for (const source of ["Natural Earth", "US Census Bureau", "GeoNames"]) {
    await page.getByRole("link", { name: source }).waitFor();
  }
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(SHOTS, "desktop-1280x800.png") });
  await axe(page, "desktop");
  assert.deepEqual(page.errors, []);
  await close();
});

test("searches a place and shows its stores", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.getByText("Showing results 1-20").waitFor();
  const box = page.getByRole("combobox", { name: "Search for a place" });
  await box.fill("Brooklyn");
  const option = page.getByRole("option").filter({ hasText: "Brooklyn" }).first();
  await option.waitFor({ timeout: 10_000 });
  const reload = listResponse(page);
  await option.click();
  const answer = await (await reload).json();
  await page.getByRole("heading", { name: /^Stores in Brooklyn/ }).waitFor();
  const url = new URL(page.url());
  assert.match(url.searchParams.get("place") ?? "", /Brooklyn/);
  assert.ok(Math.abs(Number(url.searchParams.get("lat")) - 40.65) < 0.2, `lat ${url.searchParams.get("lat")}`);
  assert.ok(answer.physical_stores.length > 0);
  // Reload restores the same view from the address.
  await page.reload();
  await page.getByRole("heading", { name: /^Stores in Brooklyn/ }).waitFor();
  await close();
});

const FILTERS = [
  ["Open now", "is_open_now", (s) => openNow(s) || openNow(s, new Date(Date.now() - 60_000))],
  ["Delivery", "is_delivery_available", (s) => s.is_delivery_available],
  ["Order online", "is_order_online_available", (s) => s.is_order_online_available],
  ["Curbside pickup", "is_curdside_pickup_available", (s) => s.is_curbside_pickup_available],
];

test("each filter toggles on its own and every listed store satisfies it", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.getByText("Showing results 1-20").waitFor();
  for (const [label, param, holds] of FILTERS) {
    const chip = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: label });
    assert.equal(await chip.getAttribute("aria-pressed"), "false");
    const reload = listResponse(page, (u) => u.searchParams.get(param) === "true");
    await chip.click();
    const answer = await (await reload).json();
    assert.equal(await chip.getAttribute("aria-pressed"), "true", `${label} active`);
    const byName = new Map(answer.physical_stores.map((s) => [s.name, s]));
    const failing = answer.physical_stores.filter((s) => !holds(s)).map((s) => s.name);
    assert.deepEqual(failing, [], `${label}: stores in the answer that do not satisfy it`);
    await page.waitForTimeout(300);
    if (answer.physical_stores.length === 0) {
      await page.getByText("No Results Found").waitFor();
    } else {
      for (const name of await listedNames(page)) {
        assert.ok(byName.has(name), `${label}: listed ${name} is not in the answer`);
        assert.ok(holds(byName.get(name)), `${label}: listed ${name} does not satisfy it`);
      }
    }
    // The other chips stay off; the address carries the filter.
    for (const [other] of FILTERS.filter(([l]) => l !== label)) {
      assert.equal(await page.getByRole("button", { name: other, exact: true }).getAttribute("aria-pressed"), "false");
    }
    assert.ok(new URL(page.url()).search.length > 0);
    const off = listResponse(page, (u) => !u.searchParams.has(param));
    await chip.click();
    await off;
    assert.equal(await chip.getAttribute("aria-pressed"), "false");
  }
  await close();
});

test("opens a store from the list, shows the panel and goes back", async (ctx) => {
  const { page, close } = await openPage(ctx);
  const [first] = await listedNames(page);
  await page.getByRole("list", { name: "Stores" }).getByRole("button").first().click();
  await page.getByRole("heading", { level: 2, name: first }).waitFor();
  assert.match(new URL(page.url()).search, /store=\d+/);
  await page.getByRole("button", { name: "Working Hours" }).waitFor();
  await page.getByRole("link", { name: "Go to online store" }).waitFor();
  await page.getByRole("link", { name: "Directions" }).waitFor();
  await page.getByRole("heading", { name: "Reviews summary" }).waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(SHOTS, "desktop-store-detail-1280x800.png") });
  await axe(page, "store detail");
  // Favorite while signed out opens the sign-in popup and clears the store.
  await page.getByRole("button", { name: "Favorite" }).click();
  await page.getByRole("dialog").waitFor();
  await axe(page, "sign-in popup");
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  assert.doesNotMatch(new URL(page.url()).search, /store=/);
  // Back/forward restore the panel from the address.
  await page.getByRole("list", { name: "Stores" }).getByRole("button").first().click();
  await page.getByRole("heading", { level: 2, name: first }).waitFor();
  await page.getByRole("button", { name: "Back to results" }).click();
  await page.getByText("Showing results 1-20").waitFor();
  await page.goBack();
  await page.getByRole("heading", { level: 2, name: first }).waitFor();
  await close();
});

test("opens a store from a map marker (clusters expand on click)", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  for (let i = 0; i < 8 && (await page.locator(".locator-marker").count()) === 0; i++) {
    await page.locator(".locator-cluster").first().click();
    // A cluster click starts the interactive map, which replaces the preview once drawn.
    await page.locator('[data-map="interactive"]').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1200);
  }
  const marker = page.locator(".locator-marker").first();
  const name = await marker.getAttribute("aria-label");
  assert.ok(name, "marker has a name");
  // Keyboard: focus the marker and press Enter.
  await marker.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 2, name }).waitFor();
  assert.equal(await marker.getAttribute("aria-pressed"), "true");
  await close();
});

/** The markers and clusters, by name, whose centres lie at least `inset` px inside the map (read at once). */
function markerNames(page, inset = 40) {
  return page.evaluate((inset) => {
    const region = document.querySelector('[aria-label="Map of stores"]').getBoundingClientRect();
    const names = [];
    for (const m of document.querySelectorAll(".locator-marker, .locator-cluster")) {
      if (m.closest('[aria-hidden="true"]')) continue;
      const b = m.getBoundingClientRect();
      const x = b.x + b.width / 2;
      const y = b.y + b.height / 2;
      if (x < region.x + inset || x > region.right - inset || y < region.y + inset || y > region.bottom - inset) continue;
      names.push(`${m.getAttribute("aria-label")} @${Math.round(x - region.x)},${Math.round(y - region.y)}`);
    }
    return names.sort();
  }, inset);
}

test("the map opens as a static preview and becomes MapLibre on the first interaction", async (ctx) => {
  const { page, close } = await openPage(ctx);
  const mapRequests = [];
  page.on("request", (r) => {
    if (/StoreMap-|maplibre-gl-worker/.test(r.url())) mapRequests.push(r.url());
  });
  const region = page.getByRole("region", { name: "Map of stores" });
  await page.getByText("Showing results 1-20").waitFor();
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  // The preview: basemap drawn (a canvas with a bitmap), markers and clusters, no MapLibre.
  await page.waitForFunction(() => (document.querySelector("[data-map-preview] canvas")?.width ?? 0) > 0, null, { timeout: 20_000 });
  await page.waitForTimeout(1500);
  assert.equal(await region.getAttribute("data-map"), "preview");
  assert.equal(await page.locator(".maplibregl-canvas").count(), 0, "MapLibre not started without an interaction");
  assert.deepEqual(mapRequests, [], "the MapLibre chunk is not loaded before an interaction");
  // A store marker in the preview opens the store without starting the map.
  for (let i = 0; i < 4 && (await page.locator(".locator-marker").count()) === 0; i++) {
    await page.getByRole("button", { name: "Zoom in", exact: true }).click();
    await page.locator('[data-map="interactive"]').waitFor({ timeout: 20_000 });
  }
  const marker = page.locator(".locator-marker").first();
  const name = await marker.getAttribute("aria-label");
  await marker.click();
  await page.getByRole("heading", { level: 2, name }).waitFor();
  await page.getByRole("button", { name: "Back to results" }).click();
  await close();

  // Zoom in on the preview: the interactive map takes over at the same camera with the same
  // clusters and stores (the preview clusters with MapLibre's settings).
  const second = await openPage(ctx);
  const p = second.page;
  await p.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  await p.getByRole("button", { name: "Zoom in", exact: true }).click();
  const preview = await markerNames(p);
  assert.equal(await p.locator('[data-map="preview"]').count(), 1, "read from the preview");
  assert.ok(preview.length > 0, "markers in the zoomed preview");
  await p.locator('[data-map="interactive"]').waitFor({ timeout: 20_000 });
  await p.locator(".maplibregl-canvas").waitFor();
  await p.waitForTimeout(800);
  assert.equal(await p.locator("[data-map-preview]").count(), 0, "the preview is gone");
  assert.deepEqual(await markerNames(p), preview, "the map shows what the preview showed");
  assert.deepEqual(p.errors, []);
  await second.close();

  // Keyboard: an arrow key on the preview starts the map and the focus moves to its canvas.
  const third = await openPage(ctx);
  const k = third.page;
  await k.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  await k.locator("[data-map-preview] [role=region]").focus();
  await k.keyboard.press("ArrowRight");
  await k.locator('[data-map="interactive"]').waitFor({ timeout: 20_000 });
  await k.waitForFunction(() => document.activeElement?.classList.contains("maplibregl-canvas"), null, { timeout: 5_000 });
  await third.close();
});

test("without WebGL the preview stays and keeps working after an interaction", async (ctx) => {
  const { context, close } = await launch({ viewport: DESKTOP, args: [...CHROMIUM_ARGS, "--disable-webgl", "--disable-3d-apis"] });
  const page = context.pages()[0] ?? (await context.newPage());
  const logged = [];
  page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
  await page.goto(`${ctx.url}/?place=Manhattan&lat=40.7831&lon=-73.9712`);
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  await page.getByRole("button", { name: "Zoom in", exact: true }).click();
  for (let i = 0; i < 100 && !logged.some((t) => t.includes("The map could not be loaded")); i++) await page.waitForTimeout(100);
  assert.ok(logged.some((t) => t.includes("The map could not be loaded")), `the failure is logged: ${logged.join(" | ")}`);
  await page.waitForTimeout(500);
  assert.equal(await page.locator('[data-map="preview"]').count(), 1, "the preview stays");
  assert.equal(await page.locator(".maplibregl-canvas").count(), 0);
  const marker = page.locator(".locator-marker").first();
  if ((await marker.count()) > 0) {
    const name = await marker.getAttribute("aria-label");
    await marker.click();
    await page.getByRole("heading", { level: 2, name }).waitFor();
  }
  await close();
});

test("paginates 20 stores per page", async (ctx) => {
  const { page, close } = await openPage(ctx);
  const first = await listedNames(page);
  const nav = page.getByRole("navigation", { name: "Pagination" });
  assert.equal(await nav.getByRole("button", { name: "Previous page" }).isDisabled(), true);
  await nav.getByRole("button", { name: "Next page" }).click();
  await page.getByText("Showing results 21-40").waitFor();
  const second = await listedNames(page);
  assert.equal(second.length, 20);
  assert.notDeepEqual(second, first);
  const last = nav.getByRole("button", { name: /^Page \d+$/ }).last();
  await last.click();
  assert.equal(await nav.getByRole("button", { name: "Next page" }).isDisabled(), true);
  await close();
});

test("redo search uses the map centre, clears the box, hides and comes back when the map moves", async (ctx) => {
  const { page, close } = await openPage(ctx, "/?place=Manhattan&lat=40.7831&lon=-73.9712");
  await page.getByText("Showing results 1-20").waitFor();
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  const box = page.getByRole("combobox", { name: "Search for a place" });
  await box.fill("something");
  const map = page.getByRole("region", { name: "Map of stores" });
  const b = await map.boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 - 250, b.y + b.height / 2 + 120, { steps: 10 });
  await page.mouse.up();
  await page.waitForTimeout(400);
  const redo = page.getByRole("button", { name: "Redo search in this area" });
  const reload = listResponse(page);
  await redo.click();
  const req = new URL((await reload).url());
  assert.ok(Number(req.searchParams.get("longitude")) > -73.9712 + 0.05, `moved east: ${req.searchParams.get("longitude")}`);
  assert.equal(await box.inputValue(), "");
  assert.equal(new URL(page.url()).searchParams.get("place"), null);
  await page.getByRole("heading", { name: "Stores in this area" }).waitFor();
  assert.equal(await redo.count(), 0, "hidden after use");
  await page.waitForTimeout(700);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + 100, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
  await redo.waitFor();
  await close();
});

test("mobile: burger menu with the search box, floating Claim button, expandable results", async (ctx) => {
  const { page, close } = await openPage(ctx, "/", MOBILE);
  await page.getByText("Showing results 1-20").waitFor();
  const box = page.getByRole("combobox", { name: "Search for a place" });
  assert.equal(await box.isVisible(), false, "search box inside the burger menu");
  await page.locator(".locator-marker, .locator-cluster").first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(SHOTS, "mobile-375x667.png") });
  await axe(page, "mobile");
  await page.getByRole("link", { name: "Claim your store" }).and(page.locator(":visible")).waitFor();
  await page.getByRole("button", { name: "Menu" }).click();
  await box.waitFor({ state: "visible" });
  await page.screenshot({ path: join(SHOTS, "mobile-menu-375x667.png") });
  await page.getByRole("button", { name: "Menu" }).click();
  const toggle = page.getByRole("button", { name: "Show results" });
  await toggle.click();
  const list = page.getByRole("list", { name: "Stores" });
  await list.waitFor({ state: "visible" });
  // One-handed: the list sits in the lower part of the screen and the page does not scroll sideways.
  const lb = await list.boundingBox();
  assert.ok(lb.y > 100, `list starts at ${lb.y}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  await page.screenshot({ path: join(SHOTS, "mobile-results-375x667.png") });
  await list.getByRole("button").first().click();
  await page.getByRole("button", { name: "Back to results" }).waitFor();
  await page.screenshot({ path: join(SHOTS, "mobile-store-detail-375x667.png") });
  await axe(page, "mobile store detail");
  await close();
});

test("a shared link opens the store", async (ctx) => {
  const res = await fetch(`${ctx.url}${LIST_PATH}?latitude=34.05&longitude=-118.24&radius=30&limit=1`);
  const [store] = (await res.json()).physical_stores;
  assert.ok(store, "a store near Los Angeles");
  const { page, close } = await openPage(ctx, `/?store=${store.id}`);
  await page.getByRole("heading", { level: 2, name: store.name }).waitFor();
  await close();
});

// --- runner
const only = process.argv[2];
const server = await startServer();
const ctx = { url: server.url };
let failed = 0;
console.log(`e2e against ${server.url}`);
try {
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const started = Date.now();
    try {
      await t.fn(ctx);
      console.log(`  ok   ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`  FAIL ${t.name}\n${String(error?.stack ?? error).replace(/^/gm, "       ")}`);
    }
  }
} finally {
  await server.stop();
}
console.log(failed ? `${failed} e2e scenario(s) failed` : "all e2e scenarios passed");
process.exit(failed ? 1 : 0);

// The map a shopper reads: the binary's own basemap (vector tiles with place names, county,
// state and country lines) in the static preview and in MapLibre, at New York zooms 10 and 13,
// and the opened store's marker. Screenshots go to web/e2e/artifacts/map/ (gitignored; one set
// is kept in docs/map/).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, previewDrawn, test } from "./fixtures.mjs";

const ARTEFACTS = join(import.meta.dirname, "artifacts", "map");
mkdirSync(ARTEFACTS, { recursive: true });

// New York City, and the two neighbourhoods named at zoom 13 (a 864 x 744 map at zoom 13 is
// about 6 x 5 km, too small for both at once).
const NYC = { lat: 40.7128, lon: -74.006 };
const WILLIAMSBURG = { lat: 40.7143, lon: -73.9535 };
const ASTORIA = { lat: 40.772, lon: -73.93 };

/** Waits for the preview's worker to draw the tiles of zoom z (their answers, then the bitmap). */
async function previewAt(page, z, action) {
  const tile = page.waitForResponse((r) => r.url().includes(`/map/tiles/${z}/`) && r.status() === 200);
  await action();
  await tile;
  await previewDrawn(page);
  // The bitmap for the newest camera is on the canvas once the worker has answered it.
  await page.waitForFunction(() => document.querySelector("[data-map-preview] canvas")?.style.transform.includes("scale(1)"));
}

/**
 * Opens `url` and waits for its first view: the page of results framed (MapArea's data-framed)
 * and the preview's bitmap drawn for that camera.
 */
async function firstView(page, url) {
  await page.goto(url);
  await page.locator("[data-map][data-framed]").waitFor();
  await previewDrawn(page);
  await page.waitForFunction(() => document.querySelector("[data-map-preview] canvas")?.style.transform.includes("scale(1)"));
}

/** The preview's zoom (it starts at the frame's, a quarter step). */
async function previewZoom(page) {
  return Number(await page.locator("[data-map-preview]").getAttribute("data-zoom"));
}

/** The MapLibre map (StoreMap puts it on its container for these tests), idle at a camera. */
async function mapLibreAt(page, { lat, lon }, zoom) {
  await page.waitForFunction(() => document.querySelector(".maplibregl-map")?.parentElement !== null);
  await page.evaluate(
    ({ lat, lon, zoom }) =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
        map.once("idle", resolve);
        map.jumpTo({ center: [lon, lat], zoom });
      }),
    { lat, lon, zoom },
  );
}

/** The place names MapLibre drew (queryRenderedFeatures on the basemap's label layer). */
function renderedPlaces(page) {
  return page.evaluate(() => {
    const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
    return [...new Set(map.queryRenderedFeatures({ layers: ["place"] }).map((f) => f.properties.name))];
  });
}

/**
 * The MapLibre map's zoom once its camera has come to rest: during an ease getZoom() reads the
 * values in between (13.99 on the way to 14), so reading it early fails on a correct map.
 */
function restingZoom(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
        const settle = () => (map.isMoving() ? map.once("moveend", () => requestAnimationFrame(settle)) : resolve(map.getZoom()));
        settle();
      }),
  );
}

/** Starts MapLibre from the preview (a key press in it) and waits until it shows. */
async function startMapLibre(page) {
  await page.locator("[data-map-preview] [role=region]").focus();
  await page.keyboard.press("ArrowRight");
  await page.locator('[data-map="interactive"]').waitFor();
}

test("New York at zooms 10 and 13: the preview and MapLibre draw the same named basemap", async ({ page }) => {
  const styles = [];
  page.on("response", (r) => {
    if (r.url().includes("/map/")) styles.push(new URL(r.url()).pathname);
  });
  await firstView(page, `/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await page.screenshot({ path: join(ARTEFACTS, "preview-first-view.png") });
  // The preview read the offline basemap's style and tiles, and no request left the origin
  // (fixtures.mjs fails a test on any CSP violation; connect-src is 'self').
  expect(styles).toContain("/map/basemap.json");

  await startMapLibre(page);
  await mapLibreAt(page, NYC, 10);
  await page.screenshot({ path: join(ARTEFACTS, "maplibre-z10.png") });
  const z10 = await renderedPlaces(page);
  for (const name of ["New York City", "Brooklyn", "Queens", "Jersey City"]) expect(z10, `zoom 10 names ${name}`).toContain(name);
  expect(z10, "neighbourhoods wait for closer zooms").not.toContain("Williamsburg");

  await mapLibreAt(page, ASTORIA, 13);
  expect(await renderedPlaces(page), "zoom 13 names Astoria").toContain("Astoria");
  await mapLibreAt(page, WILLIAMSBURG, 13);
  await page.screenshot({ path: join(ARTEFACTS, "maplibre-z13.png") });
  const z13 = await renderedPlaces(page);
  for (const name of ["Williamsburg", "Greenpoint"]) expect(z13, `zoom 13 names ${name}`).toContain(name);
  // County lines are drawn at these zooms too.
  const counties = await page.evaluate(() => {
    const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
    return map.queryRenderedFeatures({ layers: ["county"] }).length;
  });
  expect(counties, "county lines at zoom 13").toBeGreaterThan(0);
});

test.describe("the preview at zoom 13 (without WebGL, so it stays)", () => {
  test.use({ chromiumArgs: ["--disable-webgl", "--disable-3d-apis"] });

  test("draws the zoom 13 tiles", async ({ page }) => {
    await firstView(page, `/?lat=${WILLIAMSBURG.lat}&lon=${WILLIAMSBURG.lon}`);
    const region = page.locator("[data-map-preview] [role=region]");
    await region.focus();
    // From the frame's zoom, one zoom at a time (+ or -) to zoom 13, each drawn from its own tiles.
    for (let z = await previewZoom(page); Math.floor(z) !== 13; z = await previewZoom(page)) {
      await previewAt(page, Math.floor(z < 13 ? z + 1 : z - 1), () => page.keyboard.press(z < 13 ? "+" : "-"));
    }
    await expect(page.locator('[data-map="preview"]')).toHaveCount(1);
    await page.screenshot({ path: join(ARTEFACTS, "preview-z13.png") });
  });
});

/** Where the opened store's marker is, relative to the map's centre. */
async function offCentre(page) {
  const map = await page.getByRole("region", { name: "Map of stores" }).boundingBox();
  const marker = await page.locator(".locator-marker-selected").boundingBox();
  return { dx: marker.x + marker.width / 2 - (map.x + map.width / 2), dy: marker.y + marker.height - (map.y + map.height / 2) };
}

/** The markers and clusters shown (name and position), to compare two views. */
function markerLayout(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".locator-marker, .locator-cluster")]
      .filter((m) => !m.closest('[aria-hidden="true"]'))
      .map((m) => {
        const b = m.getBoundingClientRect();
        return `${m.getAttribute("aria-label")} @${Math.round(b.x)},${Math.round(b.y)}`;
      })
      .sort(),
  );
}

test("opening a store eases the map to it with a marker of its own; Back to results returns", async ({ page }) => {
  await firstView(page, `/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await page.locator(".locator-marker[data-number]").first().waitFor();
  const before = await markerLayout(page);

  // From the list (the preview is still showing).
  const first = page.getByRole("list", { name: "Stores" }).locator("li button").first();
  const name = await first.locator("[data-part=name]").innerText();
  // Listening before the click: the zoom 14 tiles may arrive before the map is seen centred.
  const zoom14 = page.waitForResponse((r) => r.url().includes("/map/tiles/14/"));
  await first.click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  const selected = page.locator(".locator-marker-selected");
  await expect(selected).toHaveAttribute("aria-label", name);
  await expect(selected).toHaveAttribute("aria-pressed", "true");
  // The map moved to the store, at zoom 14 at least (the worker draws zoom 14 tiles).
  await expect.poll(async () => Math.hypot(...Object.values(await offCentre(page))), { message: "marker at the centre" }).toBeLessThan(4);
  await zoom14;
  await page.screenshot({ path: join(ARTEFACTS, "selected-store-preview.png") });
  // Keyboard: the marker is a button in the tab order; Enter keeps the store open.
  await selected.focus();
  await expect(selected).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();

  await page.getByRole("button", { name: /Back to results/ }).click();
  await expect(selected).toHaveCount(0);
  await expect.poll(() => markerLayout(page), { message: "the view from before the store was opened" }).toEqual(before);
});

test("in MapLibre, the opened store's marker is distinct and follows the selection", async ({ page }) => {
  await firstView(page, `/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await startMapLibre(page);
  const zoomBefore = await restingZoom(page);
  const first = page.getByRole("list", { name: "Stores" }).locator("li button").first();
  const name = await first.locator("[data-part=name]").innerText();
  await first.click();
  const selected = page.locator(".maplibregl-marker.locator-marker-selected");
  await expect(selected).toHaveAttribute("aria-label", name);
  await expect.poll(async () => Math.hypot(...Object.values(await offCentre(page))), { message: "eased to the store" }).toBeLessThan(4);
  expect(await restingZoom(page), "zoom once the map is at rest").toBeGreaterThanOrEqual(14);
  // Larger than the other markers (the opened marker's icon is scaled up).
  const icon = await selected.locator("img").boundingBox();
  expect(icon.width).toBeGreaterThan(36);
  await page.screenshot({ path: join(ARTEFACTS, "selected-store-maplibre.png") });

  await page.getByRole("button", { name: /Back to results/ }).click();
  await expect(selected).toHaveCount(0);
  await expect
    .poll(() => restingZoom(page), { message: "zoom restored" })
    .toBeCloseTo(zoomBefore, 1);
});

test("a shared link to a store opens with its marker at the centre", async ({ page, server }) => {
  const res = await fetch(`${server.url}/api/store/physical-store/list-physical-store/?latitude=${NYC.lat}&longitude=${NYC.lon}&radius=30&limit=5`);
  const [store] = (await res.json()).physical_stores;
  await page.goto(`/?lat=${NYC.lat}&lon=${NYC.lon}&store=${store.id}`);
  const selected = page.locator(".locator-marker-selected");
  await expect(selected).toHaveAttribute("aria-label", store.name);
  await expect.poll(async () => Math.hypot(...Object.values(await offCentre(page)))).toBeLessThan(4);
});

/**
 * The visible controls under `root` smaller than 24 x 24 CSS px (WCAG 2.2 target size, minimum),
 * as "label: width x height"; links inside a sentence are exempt (WCAG's inline exception).
 */
function smallTargets(page, root) {
  return page.evaluate((root) => {
    const out = [];
    for (const el of document.querySelectorAll(`${root} :is(button, a[href], input, select, [role=button])`)) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Unseen: zero-sized, hidden, or visually hidden until focused (the skip link).
      if (r.width === 0 || r.height === 0 || style.visibility === "hidden" || el.matches(".sr-only:not(:focus)")) continue;
      if (el.matches("a") && el.closest("p, li, .maplibregl-ctrl-attrib-inner")) continue;
      if (r.width < 24 || r.height < 24) out.push(`${el.getAttribute("aria-label") || el.textContent.trim() || el.className}: ${r.width} x ${r.height}`);
    }
    return out;
  }, root);
}

test("clusters, markers and every map control are at least 24 x 24 px, in the preview and in MapLibre", async ({ page }) => {
  await firstView(page, `/?lat=${NYC.lat}&lon=${NYC.lon}`);
  const preview = page.locator("[data-map-preview]");
  // The first view frames the page's numbered pins; clusters (if the frame shows any here) are
  // measured with the markers, and in MapLibre at zoom 10 below, where they surely show.
  await expect(preview.locator(".locator-marker[data-number]").first()).toBeVisible();
  expect(await smallTargets(page, "[data-map-preview]")).toEqual([]);
  expect(await smallTargets(page, "body"), "every control on the page").toEqual([]);

  await startMapLibre(page);
  await mapLibreAt(page, NYC, 10);
  const map = page.locator('[data-map="interactive"]');
  await expect(map.locator(".locator-cluster").first()).toBeVisible();
  expect(await smallTargets(page, '[data-map="interactive"]')).toEqual([]);
  await mapLibreAt(page, WILLIAMSBURG, 15);
  await expect(map.locator(".locator-marker").first()).toBeVisible();
  expect(await smallTargets(page, '[data-map="interactive"]')).toEqual([]);
});

// The offline basemap at store zoom (issue #39, major 4): Chicago's Loop has streets and street
// names (the only street data that ships, with part of San Francisco); Austin has none and the map
// says so; on Manhattan's west shore the demo stores stand on land, not in the Hudson the map
// draws. MapLibre's rendered features are read (queryRenderedFeatures), not pixels. Screenshots
// go to web/e2e/artifacts/map/ (gitignored).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, previewDrawn, test } from "./fixtures.mjs";

const ARTEFACTS = join(import.meta.dirname, "artifacts", "map");
mkdirSync(ARTEFACTS, { recursive: true });

const LOOP = { lat: 41.8819, lon: -87.6278 }; // State and Madison
const AUSTIN = { lat: 30.2672, lon: -97.7431 };
const HUDSON_SHORE = { lat: 40.772, lon: -73.992 }; // the river off the Upper West Side, and the avenues behind it
const NO_STREETS = /^No street data here: this map shows streets only in Chicago and San Francisco\./;

/** Opens the locator at a place and starts MapLibre (a key press in the preview). */
async function openMap(page, { lat, lon }) {
  await page.goto(`/?lat=${lat}&lon=${lon}`);
  await previewDrawn(page);
  await page.locator("[data-map-preview] [role=region]").focus();
  await page.keyboard.press("ArrowRight");
  await page.locator('[data-map="interactive"]').waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll("div")].some((d) => d.locatorMap));
}

/** Moves MapLibre to a camera and waits until it has drawn everything there. */
function jumpTo(page, { lat, lon }, zoom) {
  return page.evaluate(
    ({ lat, lon, zoom }) =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap).locatorMap;
        map.once("idle", resolve);
        map.jumpTo({ center: [lon, lat], zoom });
      }),
    { lat, lon, zoom },
  );
}

/** Features MapLibre drew on the given style layers: counts per layer and the names it wrote. */
function rendered(page, layers) {
  return page.evaluate((layers) => {
    const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap).locatorMap;
    const present = layers.filter((id) => map.getLayer(id));
    const features = present.length > 0 ? map.queryRenderedFeatures({ layers: present }) : [];
    const counts = Object.fromEntries(layers.map((id) => [id, features.filter((f) => f.layer.id === id).length]));
    return { counts, names: [...new Set(features.map((f) => f.properties.name).filter(Boolean))] };
  }, layers);
}

test("Chicago's Loop at store zoom has streets and their names; Austin has none and the map says so", async ({ page }) => {
  await openMap(page, LOOP);
  await jumpTo(page, LOOP, 15);
  await page.screenshot({ path: join(ARTEFACTS, "streets-chicago-z15.png") });
  const loop = await rendered(page, ["road-minor", "road-major", "road-label"]);
  expect(loop.counts["road-minor"], "streets drawn in the Loop").toBeGreaterThan(10);
  expect(loop.counts["road-major"], "main roads drawn in the Loop").toBeGreaterThan(5);
  for (const name of ["S State St", "W Madison St"]) expect(loop.names, `street names drawn: ${name}`).toContain(name);
  await expect(page.locator("[data-part=no-streets]")).toHaveCount(0);

  await jumpTo(page, AUSTIN, 15);
  await page.screenshot({ path: join(ARTEFACTS, "streets-austin-z15.png") });
  const austin = await rendered(page, ["road-minor", "road-major"]);
  expect(austin.counts).toEqual({ "road-minor": 0, "road-major": 0 });
  await expect(page.locator("[data-part=no-streets]")).toHaveText(NO_STREETS);

  // Above street zoom the line goes away again.
  await jumpTo(page, AUSTIN, 10);
  await expect(page.locator("[data-part=no-streets]")).toHaveCount(0);
});

test("on Manhattan's west shore the stores stand on land, the Hudson beside them is water", async ({ page, server }) => {
  await openMap(page, HUDSON_SHORE);
  await jumpTo(page, HUDSON_SHORE, 13);
  await page.screenshot({ path: join(ARTEFACTS, "hudson-shore-z13.png") });
  const res = await fetch(`${server.url}/api/store/physical-store/list-physical-store/?latitude=${HUDSON_SHORE.lat}&longitude=${HUDSON_SHORE.lon}&radius=3&limit=100`);
  const stores = (await res.json()).physical_stores.map((s) => ({ name: s.name, lat: s.latitude, lon: s.longitude }));
  const seen = await page.evaluate(
    ({ stores, river }) => {
      const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap).locatorMap;
      const bounds = map.getBounds();
      const wet = (lon, lat) => map.queryRenderedFeatures(map.project([lon, lat]), { layers: ["water-fine"] }).length > 0;
      const inView = stores.filter((s) => bounds.contains([s.lon, s.lat]));
      return { inView: inView.length, inWater: inView.filter((s) => wet(s.lon, s.lat)).map((s) => `${s.name} (${s.lat}, ${s.lon})`), river: wet(river.lon, river.lat) };
    },
    { stores, river: { lat: 40.7745, lon: -74.0003 } },
  );
  expect(seen.river, "the Hudson off West 67th Street is drawn as water").toBe(true);
  expect(seen.inView, "stores in view").toBeGreaterThan(5);
  expect(seen.inWater, "stores drawn in the water").toEqual([]);
});

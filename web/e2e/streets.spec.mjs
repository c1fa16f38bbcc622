// The street map of LOCATOR_PMTILES: the binary started with a small archive in the Protomaps
// schema around New York (written by internal/maptiles/pmtilestest/streetarchive), MapLibre
// drawing its labels with the Noto Sans files the binary serves (the style's font-faces), each
// file fetched from the origin only when a label needs a codepoint it covers. A screenshot goes to
// web/e2e/artifacts/map/ (gitignored).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, previewDrawn, test } from "./fixtures.mjs";
import { repo } from "./server.mjs";

const ARTEFACTS = join(import.meta.dirname, "artifacts", "map");
mkdirSync(ARTEFACTS, { recursive: true });

const NYC = { lat: 40.7128, lon: -74.006 };

test.use({
  serverOptions: {
    stores: 300,
    env: ({ dir }) => ({ LOCATOR_PMTILES: join(dir, "nyc.pmtiles") }),
    prepare: ({ dir }) =>
      execFileSync("go", ["run", "./internal/maptiles/pmtilestest/streetarchive", "-out", join(dir, "nyc.pmtiles")], { cwd: repo, stdio: "inherit" }),
  },
});

test("the street map draws its labels with the fonts the binary serves, from the origin only", async ({ page, server }) => {
  const origin = new URL(server.url).origin;
  const offOrigin = [];
  const fonts = new Map(); // path -> [status, content type]
  page.context().on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) offOrigin.push(r.url());
  });
  page.context().on("response", (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith("/map/fonts/")) fonts.set(pathname, [r.status(), r.headers()["content-type"]]);
  });

  await page.goto(`/?lat=${NYC.lat}&lon=${NYC.lon}`);
  // The first view is placed (the results framed), so no move of the app's follows the jump below.
  await page.locator("[data-map][data-framed]").waitFor();
  await previewDrawn(page);
  // A zoom click starts MapLibre with the street style.
  await page.getByRole("button", { name: "Zoom in", exact: true }).click();
  await page.locator('[data-map="interactive"]').waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll("div")].some((d) => d.locatorMap));
  const labels = await page.evaluate(
    ({ lat, lon }) =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap).locatorMap;
        const read = () => {
          const features = map.queryRenderedFeatures({ layers: ["places_locality", "places_subplace"] });
          resolve({ names: [...new Set(features.map((f) => f.properties.name))], faces: Object.keys(map.getStyle()["font-faces"] ?? {}) });
        };
        map.once("idle", read);
        map.jumpTo({ center: [lon, lat], zoom: 11 });
      }),
    NYC,
  );
  await page.screenshot({ path: join(ARTEFACTS, "streets-z11.png") });

  expect(labels.faces.sort()).toEqual(["Noto Sans Italic", "Noto Sans Medium", "Noto Sans Regular"]);
  expect(labels.names, "place labels MapLibre drew").toContain("New York");
  expect(labels.names.length).toBeGreaterThan(1);
  // New York is drawn in Medium, the other places in Regular; "Kościuszko Park" needs the
  // latin-ext file for its ś. Every font file came from the binary, as a woff2.
  for (const file of ["noto-sans-latin-500-normal.woff2", "noto-sans-latin-400-normal.woff2", "noto-sans-latin-ext-400-normal.woff2"]) {
    expect(fonts.get(`/map/fonts/${file}`), file).toEqual([200, "font/woff2"]);
  }
  // MapLibre handed them to the page's fonts (CSS Font Loading API) and they loaded.
  const loaded = await page.evaluate(() => [...document.fonts].filter((f) => f.family.includes("maplibre-gl-font-face") && f.status === "loaded").length);
  expect(loaded, "font faces MapLibre registered and loaded").toBeGreaterThanOrEqual(3);
  // Files of scripts the labels do not use are not downloaded.
  expect([...fonts.keys()].filter((p) => /cyrillic|greek|devanagari/.test(p))).toEqual([]);
  expect(offOrigin, "requests that left the origin").toEqual([]);
});

// The locator page against the real binary with 3000 demo stores, in Debian's Chromium.
// Screenshots go to web/e2e/screenshots/ (gitignored).
import { join } from "node:path";
import { animationsDone, axe, detached, expect, LIST_PATH, listResponse, MOBILE, previewDrawn, SHOTS, test } from "./fixtures.mjs";
import { openNow } from "./oracle.mjs";

const MARKERS = ".locator-marker, .locator-cluster";

/** The names in the results list (waits for the list). */
async function listedNames(page) {
  const list = page.getByRole("list", { name: "Stores" });
  await list.waitFor();
  return list.locator("li button [data-part=name]").allInnerTexts();
}

/**
 * Clicks Zoom in (the preview's, then MapLibre's) and waits until the interactive map shows the
 * new zoom: the first cluster shown before is gone (cluster ids change with the zoom).
 */
async function zoomIn(page) {
  const cluster = await page.locator(".locator-cluster").first().elementHandle();
  await page.getByRole("button", { name: "Zoom in", exact: true }).click();
  await page.locator('[data-map="interactive"]').waitFor();
  if (cluster) await detached(page, cluster);
}

/** Drags the map by (dx, dy) pixels from its centre. */
async function dragMap(page, dx, dy, steps = 10) {
  const b = await page.getByRole("region", { name: "Map of stores" }).boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + dx, b.y + b.height / 2 + dy, { steps });
  await page.mouse.up();
}

test("loads the stores near New York with the map", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Stores in New York" })).toBeVisible();
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  expect(await listedNames(page)).toHaveLength(20);
  await page.locator(MARKERS).first().waitFor();
  for (const source of ["Natural Earth", "US Census Bureau", "© OpenStreetMap contributors", "GeoNames"]) {
    await expect(page.getByRole("link", { name: source })).toBeVisible();
  }
  await previewDrawn(page);
  await page.screenshot({ path: join(SHOTS, "desktop-1280x800.png") });
  await axe(page, "desktop");
});

test("searches a place and shows its stores", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  await page.getByRole("combobox", { name: "Search for a place" }).fill("Brooklyn");
  const option = page.getByRole("option").filter({ hasText: "Brooklyn" }).first();
  await option.waitFor();
  const reload = listResponse(page);
  await option.click();
  const answer = await (await reload).json();
  await expect(page.getByRole("heading", { name: /^Stores in Brooklyn/ })).toBeVisible();
  const url = new URL(page.url());
  expect(url.searchParams.get("place")).toMatch(/Brooklyn/);
  expect(Math.abs(Number(url.searchParams.get("lat")) - 40.65), `lat ${url.searchParams.get("lat")}`).toBeLessThan(0.2);
  expect(answer.physical_stores.length).toBeGreaterThan(0);
  // A US place is named short, so the heading fits (m2).
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stores in Brooklyn, NY");
  // Reload restores the same view from the address.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stores in Brooklyn, NY");
  // Enter searches what was typed at once and goes to its best place (m4).
  const box = page.getByRole("combobox", { name: "Search for a place" });
  await box.fill("Austin");
  const austin = listResponse(page, (u) => Math.abs(Number(u.searchParams.get("latitude")) - 30.27) < 0.2);
  await box.press("Enter");
  await austin;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stores in Austin, TX");
});

const FILTERS = [
  ["Open now", "is_open_now", (s) => openNow(s) || openNow(s, new Date(Date.now() - 60_000))],
  ["Delivery", "is_delivery_available", (s) => s.is_delivery_available],
  ["Order online", "is_order_online_available", (s) => s.is_order_online_available],
  ["Curbside pickup", "is_curdside_pickup_available", (s) => s.is_curbside_pickup_available],
];

test("each filter toggles on its own and every listed store satisfies it", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  for (const [label, param, holds] of FILTERS) {
    const chip = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: label });
    await expect(chip).toHaveAttribute("aria-pressed", "false");
    const reload = listResponse(page, (u) => u.searchParams.get(param) === "true");
    await chip.click();
    const answer = await (await reload).json();
    await expect(chip, `${label} active`).toHaveAttribute("aria-pressed", "true");
    const byName = new Map(answer.physical_stores.map((s) => [s.name, s]));
    const failing = answer.physical_stores.filter((s) => !holds(s)).map((s) => s.name);
    expect(failing, `${label}: stores in the answer that do not satisfy it`).toEqual([]);
    if (answer.physical_stores.length === 0) {
      await expect(page.getByText("No Results Found").first()).toBeVisible();
    } else {
      // The list shows the previous answer until the new one renders.
      await expect
        .poll(async () => (await listedNames(page)).filter((name) => !byName.has(name) || !holds(byName.get(name))), {
          message: `${label}: listed stores that are not in the answer or do not satisfy it`,
        })
        .toEqual([]);
    }
    // The other chips stay off (a service chip reads "Delivery now" while Open now is on,
    // docs/product-rules.md, "Services"); the address carries the filter.
    for (const [other] of FILTERS.filter(([l]) => l !== label)) {
      const name = label === "Open now" ? `${other} now` : other;
      await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "false");
    }
    expect(new URL(page.url()).search.length).toBeGreaterThan(0);
    const off = listResponse(page, (u) => !u.searchParams.has(param));
    await chip.click();
    await off;
    await expect(chip).toHaveAttribute("aria-pressed", "false");
  }
});

test("opens a store from the list, shows the panel and goes back", async ({ page }) => {
  await page.goto("/");
  const [first] = await listedNames(page);
  await page.getByRole("list", { name: "Stores" }).getByRole("button").first().click();
  await expect(page.getByRole("heading", { level: 2, name: first })).toBeVisible();
  expect(new URL(page.url()).search).toMatch(/store=\d+/);
  await expect(page.getByRole("button", { name: "Working Hours" })).toBeVisible();
  // New York allows no shipping to consumers (docs/rules.md): pickup is offered, or the reason shown.
  const shop = /^(Go to online store|Order for pickup)$/; // a button until the age check is passed
  await expect(page.getByRole("button", { name: shop }).or(page.getByRole("link", { name: shop })).or(page.getByTestId("shipping-ban")).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Directions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Reviews summary" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Ratings" })).toBeVisible();
  await animationsDone(page);
  await page.screenshot({ path: join(SHOTS, "desktop-store-detail-1280x800.png") });
  await axe(page, "store detail");
  // Favorite while signed out opens the sign-in popup and clears the store.
  await page.getByRole("button", { name: "Favorite" }).click();
  await page.getByRole("dialog").waitFor();
  await axe(page, "sign-in popup");
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  expect(new URL(page.url()).search).not.toMatch(/store=/);
  // Back/forward restore the panel from the address.
  await page.getByRole("list", { name: "Stores" }).getByRole("button").first().click();
  await expect(page.getByRole("heading", { level: 2, name: first })).toBeVisible();
  await page.getByRole("button", { name: "Back to results" }).click();
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 2, name: first })).toBeVisible();
});

test("opens a store from a map marker (clusters expand on click)", async ({ page }) => {
  await page.goto("/");
  await page.locator(MARKERS).first().waitFor();
  for (let i = 0; i < 8 && (await page.locator(".locator-marker").count()) === 0; i++) {
    // A cluster click starts the interactive map, which replaces the preview once drawn; the
    // clicked cluster goes once the map has zoomed in.
    const cluster = await page.locator(".locator-cluster").first().elementHandle();
    await cluster.click();
    await page.locator('[data-map="interactive"]').waitFor();
    await detached(page, cluster);
  }
  const marker = page.locator(".locator-marker").first();
  const name = await marker.getAttribute("aria-label");
  expect(name, "marker has a name").toBeTruthy();
  // Keyboard: focus the marker and press Enter.
  await marker.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  // The opened store is drawn as its own marker (e2e/map.spec.mjs covers it further).
  await expect(page.locator(".locator-marker-selected")).toHaveAttribute("aria-label", name);
  await expect(page.locator(".locator-marker-selected")).toHaveAttribute("aria-pressed", "true");
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

/** The entries of `names` ("name @x,y") with no entry of the same name within 2 px in `others`. */
function unmatched(names, others) {
  const parse = (e) => {
    const at = e.lastIndexOf(" @");
    const [x, y] = e.slice(at + 2).split(",").map(Number);
    return { name: e.slice(0, at), x, y };
  };
  const pool = others.map(parse);
  return names.filter((e) => {
    const m = parse(e);
    return !pool.some((o) => o.name === m.name && Math.abs(o.x - m.x) <= 2 && Math.abs(o.y - m.y) <= 2);
  });
}

test.describe("the map preview", () => {
  test("stays a preview without an interaction; a store opens from it", async ({ page }) => {
    const mapRequests = [];
    page.on("request", (r) => {
      if (/StoreMap-|createMap-|maplibre-gl-worker/.test(r.url())) mapRequests.push(r.url());
    });
    await page.goto("/");
    await expect(page.getByText("Showing results 1-20")).toBeVisible();
    await page.locator(MARKERS).first().waitFor();
    // The preview: basemap drawn (a canvas with a bitmap), markers and clusters, no MapLibre,
    // also once everything the page loads by itself has loaded.
    await previewDrawn(page);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("region", { name: "Map of stores" })).toHaveAttribute("data-map", "preview");
    await expect(page.locator(".maplibregl-canvas"), "MapLibre not started without an interaction").toHaveCount(0);
    expect(mapRequests, "the MapLibre chunk is not loaded before an interaction").toEqual([]);
    // A store marker opens the store.
    for (let i = 0; i < 4 && (await page.locator(".locator-marker").count()) === 0; i++) await zoomIn(page);
    const marker = page.locator(".locator-marker").first();
    const name = await marker.getAttribute("aria-label");
    await marker.click();
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    await page.getByRole("button", { name: "Back to results" }).click();
  });

  test("Zoom in hands over to MapLibre with the same markers at the same pixels", async ({ page }) => {
    // The preview clusters with MapLibre's settings, so the map shows what the preview showed.
    await page.goto("/");
    await page.locator(MARKERS).first().waitFor();
    await page.getByRole("button", { name: "Zoom in", exact: true }).click();
    const preview = await markerNames(page);
    const previewWide = await markerNames(page, 38);
    await expect(page.locator('[data-map="preview"]'), "read from the preview").toHaveCount(1);
    expect(preview.length, "markers in the zoomed preview").toBeGreaterThan(0);
    await page.locator('[data-map="interactive"]').waitFor();
    await page.locator(".maplibregl-canvas").waitFor();
    await expect(page.locator("[data-map-preview]"), "the preview is gone").toHaveCount(0);
    // The two renderers place a marker within a pixel of each other (sub-pixel rounding), so each
    // marker well inside the map must have a namesake within 2 px on the other side; a marker in the
    // 2 px band at the inset may show on one side only.
    await expect
      .poll(async () => unmatched(preview, await markerNames(page, 38)).concat(unmatched(await markerNames(page, 42), previewWide)), {
        message: "the map shows what the preview showed",
      })
      .toEqual([]);
  });

  test("an arrow key on the preview starts the map and moves the focus to its canvas", async ({ page }) => {
    await page.goto("/");
    await page.locator(MARKERS).first().waitFor();
    await page.locator("[data-map-preview] [role=region]").focus();
    await page.keyboard.press("ArrowRight");
    await page.locator('[data-map="interactive"]').waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains("maplibregl-canvas"));
  });
});

test.describe("without WebGL", () => {
  test.use({ chromiumArgs: ["--disable-webgl", "--disable-3d-apis"] });

  test("the preview stays and keeps working after an interaction", async ({ page }) => {
    await page.goto("/?place=Manhattan&lat=40.7831&lon=-73.9712");
    await page.locator(MARKERS).first().waitFor();
    const failure = page.waitForEvent("console", (m) => m.type() === "error" && m.text().includes("The map could not be loaded"));
    await page.getByRole("button", { name: "Zoom in", exact: true }).click();
    await failure;
    await expect(page.locator('[data-map="preview"]'), "the preview stays").toHaveCount(1);
    await expect(page.locator(".maplibregl-canvas")).toHaveCount(0);
    const marker = page.locator(".locator-marker").first();
    if ((await marker.count()) > 0) {
      const name = await marker.getAttribute("aria-label");
      await marker.click();
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    }
  });
});

test("paginates 20 stores per page", async ({ page }) => {
  await page.goto("/");
  const first = await listedNames(page);
  const nav = page.getByRole("navigation", { name: "Pagination" });
  await expect(nav.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await nav.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Showing results 21-40")).toBeVisible();
  const second = await listedNames(page);
  expect(second).toHaveLength(20);
  expect(second).not.toEqual(first);
  await nav.getByRole("button", { name: /^Page \d+$/ }).last().click();
  await expect(nav.getByRole("button", { name: "Next page" })).toBeDisabled();
});

test("redo search uses the map centre, clears the box, hides and comes back when the map moves", async ({ page }) => {
  await page.goto("/?place=Manhattan&lat=40.7831&lon=-73.9712");
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  await page.locator(MARKERS).first().waitFor();
  const box = page.getByRole("combobox", { name: "Search for a place" });
  await box.fill("something");
  // Dragging starts MapLibre, which takes over at the dragged camera.
  await dragMap(page, -250, 120);
  await page.locator('[data-map="interactive"]').waitFor();
  const redo = page.getByRole("button", { name: "Redo search in this area" });
  // The map's centre, once MapLibre has come to rest after the drag: not moving, and the same
  // centre 300 ms later (on a loaded machine the drag's inertia may start after a first rest).
  const centre = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
        const settle = () => {
          if (map.isMoving()) return map.once("moveend", () => requestAnimationFrame(settle));
          const at = map.getCenter();
          setTimeout(() => (!map.isMoving() && map.getCenter().lng === at.lng && map.getCenter().lat === at.lat ? resolve(at) : settle()), 300);
        };
        settle();
      }),
  );
  const reload = listResponse(page);
  await redo.click();
  const req = new URL((await reload).url());
  expect(Number(req.searchParams.get("longitude")), "the map's centre").toBeCloseTo(centre.lng, 5);
  expect(Number(req.searchParams.get("latitude")), "the map's centre").toBeCloseTo(centre.lat, 5);
  await expect(box).toHaveValue("");
  expect(new URL(page.url()).searchParams.get("place")).toBeNull();
  await expect(page.getByRole("heading", { name: "Stores in this area" })).toBeVisible();
  await expect(redo, "hidden after use").toHaveCount(0);
  // It stays hidden for a moment after use; a move after that brings it back.
  await expect(async () => {
    await dragMap(page, 100, 0, 5);
    await expect(redo).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
});

test.describe("mobile", () => {
  test.use({ viewport: MOBILE });

  test("burger menu with the search box, floating Claim button, expandable results", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByText("Showing results 1-20")).toBeVisible();
    const box = page.getByRole("combobox", { name: "Search for a place" });
    await expect(box, "search box inside the burger menu").toBeHidden();
    await page.locator(MARKERS).first().waitFor();
    await previewDrawn(page);
    await page.screenshot({ path: join(SHOTS, "mobile-375x667.png") });
    await axe(page, "mobile");
    await expect(page.getByRole("link", { name: "Claim your store" }).and(page.locator(":visible"))).toBeVisible();
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(box).toBeVisible();
    await page.screenshot({ path: join(SHOTS, "mobile-menu-375x667.png") });
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("button", { name: "Show results" }).click();
    const list = page.getByRole("list", { name: "Stores" });
    await expect(list).toBeVisible();
    // One-handed: the list sits in the lower part of the screen and the page does not scroll sideways.
    const lb = await list.boundingBox();
    expect(lb.y, "the list starts below the top 100 px").toBeGreaterThan(100);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scroll").toBe(true);
    await page.screenshot({ path: join(SHOTS, "mobile-results-375x667.png") });
    await list.getByRole("button").first().click();
    await expect(page.getByRole("button", { name: "Back to results" })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, "mobile-store-detail-375x667.png") });
    await axe(page, "mobile store detail");
  });
});

test("a shared link opens the store", async ({ page, server }) => {
  const res = await fetch(`${server.url}${LIST_PATH}?latitude=34.05&longitude=-118.24&radius=30&limit=1`);
  const [store] = (await res.json()).physical_stores;
  expect(store, "a store near Los Angeles").toBeTruthy();
  await page.goto(`/?store=${store.id}`);
  await expect(page.getByRole("heading", { level: 2, name: store.name })).toBeVisible();
});

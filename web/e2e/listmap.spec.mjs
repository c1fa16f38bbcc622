// The list and the map as one (issue #39, M5 and M6; docs/product-rules.md "The list and the
// map"): the first view frames the page's stores so their numbered pins show, clusters do not
// look like row numbers, a row pointed at or focused lights its pin, and on a phone the opened
// store stands on the map above its sheet, which "Hide results" lowers without closing the store.
// Against the real binary with 3000 demo stores, in Debian's Chromium.
import { join } from "node:path";
import { expect, previewDrawn, SHOTS, test } from "./fixtures.mjs";

const ROWS = 'ul[aria-label="Stores"] > li > button';

/** Each row's number -> where its pin stands, for the pins whose point lies inside the map's box (read at once). */
function numberedPins(page) {
  return page.evaluate(() => {
    const map = document.querySelector('[aria-label="Map of stores"]').getBoundingClientRect();
    const pins = {};
    for (const m of document.querySelectorAll(".locator-marker[data-number]")) {
      if (m.closest('[aria-hidden="true"]')) continue;
      const b = m.getBoundingClientRect();
      // A pin's point is the middle of its bottom edge.
      const [x, y] = [b.x + b.width / 2, b.bottom];
      if (x >= map.left && x <= map.right && y >= map.top && y <= map.bottom) pins[m.dataset.number] = { x, y, top: b.top };
    }
    return pins;
  });
}

test.describe("desktop", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("the first view frames the page's stores: every row's numbered pin shows, and no cluster looks like a number", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByText("Showing results 1-20")).toBeVisible();
    await expect(page.locator(ROWS)).toHaveCount(20);
    // All twenty rows stand on the map as pins with their numbers (none hidden in a cluster).
    await expect.poll(async () => Object.keys(await numberedPins(page)).map(Number).sort((a, b) => a - b), { message: "numbered pins in the map" }).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    await previewDrawn(page);
    await page.screenshot({ path: join(SHOTS, "listmap-first-view-1366x900.png") });
    // Clusters (the other stores) read "+n" on a white disc, named "n stores", unlike a row's green number.
    const clusters = page.locator(".locator-cluster");
    await zoomOutUntilClusters(page);
    const cluster = clusters.first();
    const count = await cluster.getAttribute("data-count");
    await expect(cluster).toHaveText(`+${count}`);
    await expect(cluster).toHaveAttribute("aria-label", `${count} stores, zoom in`);
    const [clusterColour, numberColour] = await page.evaluate(() => [
      getComputedStyle(document.querySelector(".locator-cluster")).backgroundColor,
      getComputedStyle(document.querySelector(".locator-marker[data-number]"), "::after").backgroundColor,
    ]);
    expect(clusterColour, "a cluster is not filled like a row number").not.toBe(numberColour);
  });

  test("pointing at or focusing a row lights its pin, in the preview and in MapLibre; rows say their numbers", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(ROWS)).toHaveCount(20);
    const pin = (n) => page.locator(`.locator-marker[data-number="${n}"]:not([aria-hidden="true"] *)`);
    await pin(7).waitFor();
    await page.locator(ROWS).nth(6).hover();
    await expect(pin(7)).toHaveClass(/locator-marker-highlighted/);
    await expect(page.locator(".locator-marker-highlighted")).toHaveCount(1);
    // The keyboard: the focus on row 3 lights pin 3 (and no longer 7).
    await page.locator(ROWS).nth(2).focus();
    await expect(pin(3)).toHaveClass(/locator-marker-highlighted/);
    await expect(pin(7)).not.toHaveClass(/locator-marker-highlighted/);
    // Screen readers hear the number the pin shows.
    await expect(page.locator(ROWS).nth(2)).toHaveAccessibleName(/^3\s*\.\s*\S/);
    await expect(page.getByRole("list", { name: "Stores" }).getByRole("button", { name: /^12\s*\./ })).toHaveCount(1);

    // The same once MapLibre has taken over (an arrow key on the preview starts it).
    await page.locator("[data-map-preview] [role=region]").focus();
    await page.keyboard.press("ArrowRight");
    await page.locator('[data-map="interactive"]').waitFor();
    await page.locator(".maplibregl-marker.locator-marker[data-number='5']").waitFor();
    await page.locator(ROWS).nth(4).hover();
    await expect(page.locator(".maplibregl-marker.locator-marker[data-number='5']")).toHaveClass(/locator-marker-highlighted/);
  });

  test("Redo search shows only after the user moves the map, and comes before the markers in the focus order", async ({ page }) => {
    await page.goto("/?place=Manhattan&lat=40.7831&lon=-73.9712");
    await expect(page.locator(ROWS)).toHaveCount(20);
    await page.locator(".locator-marker[data-number]").first().waitFor();
    const redo = page.getByRole("button", { name: "Redo search in this area" });
    // The app framed the results (a move of its own): no Redo yet.
    await previewDrawn(page);
    await expect(redo).toHaveCount(0);
    const region = await page.getByRole("region", { name: "Map of stores" }).boundingBox();
    await page.mouse.move(region.x + region.width / 2, region.y + region.height / 2);
    await page.mouse.down();
    await page.mouse.move(region.x + region.width / 2 - 150, region.y + region.height / 2 + 60, { steps: 8 });
    await page.mouse.up();
    await expect(redo).toBeVisible();
    const before = await page.evaluate(() => {
      const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("Redo search in this area"));
      const marker = document.querySelector(".locator-marker, .locator-cluster");
      return Boolean(button.compareDocumentPosition(marker) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(before, "Redo search comes before the markers").toBe(true);
  });
});

/** Zooms the preview out (its Zoom out button) until a cluster shows; the numbered pins stay pins. */
async function zoomOutUntilClusters(page) {
  for (let i = 0; i < 4 && (await page.locator(".locator-cluster").count()) === 0; i++) {
    await page.getByRole("button", { name: "Zoom out", exact: true }).click();
  }
  await page.locator(".locator-cluster").first().waitFor();
}

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** The opened store's pin, and whether it shows: inside the map, above the sheet, not under anything. */
  function openedPin(page) {
    return page.evaluate(() => {
      const pin = [...document.querySelectorAll(".locator-marker-selected")].find((m) => !m.closest('[aria-hidden="true"]'));
      if (!pin) return { shown: false, why: "no pin" };
      const b = pin.getBoundingClientRect();
      const map = document.querySelector('[aria-label="Map of stores"]').getBoundingClientRect();
      const sheet = document.querySelector('section[aria-label="Results"]').getBoundingClientRect();
      const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
      const top = document.elementFromPoint(x, y);
      const shown = b.top >= map.top && b.bottom <= sheet.top && b.left >= map.left && b.right <= map.right && (top === pin || pin.contains(top));
      return { shown, pin: [Math.round(b.top), Math.round(b.bottom)], sheetTop: Math.round(sheet.top), mapTop: Math.round(map.top), top: top?.tagName };
    });
  }

  test("the opened store's pin stands above its sheet; Hide results lowers the sheet and keeps the store", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByText("Showing results 1-20")).toBeVisible();
    await page.getByRole("button", { name: "Show results" }).click();
    const row = page.locator(ROWS).nth(2);
    const name = await row.locator("[data-part=name]").innerText();
    await row.click();
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    const id = new URL(page.url()).searchParams.get("store");
    expect(id, "the store is in the address").toBeTruthy();
    await expect(page.locator(".locator-marker-selected")).toHaveAttribute("aria-label", name);
    await expect.poll(() => openedPin(page), { message: "the opened store's pin shows above the sheet" }).toMatchObject({ shown: true });
    await previewDrawn(page);
    await page.screenshot({ path: join(SHOTS, "listmap-phone-store-390x844.png") });

    // Hide results: the sheet goes down, the store stays open (address, pin, panel on Show).
    await page.getByRole("button", { name: "Hide results" }).click();
    await expect(page.getByRole("button", { name: "Show results" })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("store")).toBe(id);
    await expect(page.locator(".locator-marker-selected")).toHaveAttribute("aria-label", name);
    await expect.poll(() => openedPin(page), { message: "the pin shows with the sheet lowered" }).toMatchObject({ shown: true });
    await page.screenshot({ path: join(SHOTS, "listmap-phone-store-hidden-390x844.png") });
    await page.getByRole("button", { name: "Show results" }).click();
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    // Back to results closes the store.
    await page.getByRole("button", { name: "Back to results" }).click();
    await expect(page.locator(ROWS)).toHaveCount(20);
    expect(new URL(page.url()).searchParams.get("store")).toBeNull();
  });
});

// The page fits a phone: no route is wider than the screen at 320-430 px, before and after a
// place search with a long name, with the store panel open, and in the mobile menu; every route
// has its landmarks (axe). And on a desktop, list and map match: pins carry their rows' numbers
// and pointing at a row lights its pin.
import { axe, expect, LIST_PATH, listResponse, previewDrawn, test } from "./fixtures.mjs";

const WIDTHS = [320, 375, 430];
const NYC = { lat: 40.7128, lon: -74.006 };

/** How much wider than the viewport the document is (0 when it fits). */
async function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function storeId(server) {
  const res = await fetch(`${server.url}${LIST_PATH}?latitude=${NYC.lat}&longitude=${NYC.lon}&radius=30&limit=1`);
  return (await res.json()).physical_stores[0].id;
}

for (const width of WIDTHS) {
  test.describe(`${width} px wide`, () => {
    test.use({ viewport: { width, height: 740 } });

    test("every route fits the screen", async ({ page, server }) => {
      const id = await storeId(server);
      for (const path of ["/", "/claim", "/profile", "/reset-password", `/reviews?store=${id}`, "/admin", "/business", "/no-such-page", `/?store=${id}`]) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        expect(await overflow(page), `${path} overflows at ${width} px`).toBeLessThanOrEqual(0);
        if (width === 375) await axe(page, `${path} at ${width} px`, { all: true });
      }
    });

    test("a place search with a long name and the store panel keep the page within the screen", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByText(/Showing results 1-/)).toBeVisible();
      await page.getByRole("button", { name: "Menu" }).click();
      expect(await overflow(page), "menu open").toBeLessThanOrEqual(0);
      await page.getByRole("combobox", { name: "Search for a place" }).fill("Brooklyn");
      const option = page.getByRole("option").filter({ hasText: "Brooklyn" }).first();
      await option.waitFor();
      const reload = listResponse(page);
      await option.click();
      await reload;
      await expect(page.getByRole("heading", { name: /^Stores in Brooklyn/ })).toBeVisible();
      expect(await overflow(page), "after the place search").toBeLessThanOrEqual(0);
      // The long title is cut on screen but whole for whoever reads it.
      const title = page.getByRole("heading", { name: /^Stores in Brooklyn/ });
      expect(await title.evaluate((h) => h.scrollWidth > h.clientWidth || h.textContent.length > 0)).toBe(true);
      await expect(page.getByRole("button", { name: "Zoom in", exact: true })).toBeInViewport();
      await page.getByRole("button", { name: "Show results" }).click();
      await page.getByRole("list", { name: "Stores" }).locator("li button").first().click();
      await expect(page.getByRole("button", { name: /Back to results/ })).toBeVisible();
      expect(await overflow(page), "with the store panel").toBeLessThanOrEqual(0);
    });
  });
}

test("pins carry their rows' numbers and pointing at a row lights its pin", async ({ page }) => {
  await page.goto(`/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await expect(page.getByText("Showing results 1-20")).toBeVisible();
  await previewDrawn(page);
  const rows = page.getByRole("list", { name: "Stores" }).locator("li button");
  // Close enough to the centre (the nearest stores are the first rows) that they are not clustered:
  // MapLibre, started from the preview by a key press, at zoom 15.
  await page.locator("[data-map-preview] [role=region]").focus();
  await page.keyboard.press("ArrowRight");
  await page.locator('[data-map="interactive"]').waitFor();
  await page.evaluate(
    ({ lat, lon }) =>
      new Promise((resolve) => {
        const map = [...document.querySelectorAll("div")].find((d) => d.locatorMap)?.locatorMap;
        map.once("idle", resolve);
        map.jumpTo({ center: [lon, lat], zoom: 15 });
      }),
    NYC,
  );
  await expect(page.locator(".locator-marker[data-number]").first()).toBeVisible();
  // Every numbered pin is a listed store with the same number (clustered stores have no pin).
  const pins = await page.locator(".locator-marker[data-store-id]").evaluateAll((els) =>
    els.map((el) => ({ id: el.dataset.storeId, number: el.dataset.number ?? null })),
  );
  const numbered = pins.filter((p) => p.number !== null);
  expect(numbered.length, "numbered pins").toBeGreaterThan(0);
  for (const pin of numbered) {
    const row = page.locator(`#locator-results-body button[data-store-id="${pin.id}"]`);
    await expect(row, `row of pin ${pin.number}`).toHaveText(new RegExp(`^${pin.number}\\D`));
  }
  // Hovering a row with a pin on screen lights that pin, and only it.
  const pin = numbered[0];
  await page.locator(`#locator-results-body button[data-store-id="${pin.id}"]`).hover();
  await expect(page.locator(".locator-marker-highlighted")).toHaveCount(1);
  await expect(page.locator(".locator-marker-highlighted")).toHaveAttribute("data-store-id", pin.id);
  // The distance of each row is in miles (en-US).
  await expect(rows.first()).toHaveText(/\d(\.\d)? mi|< 0\.1 mi/);
});

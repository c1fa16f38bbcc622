// Store pages against the real binary: a store opened in the app is shared (copy fallback, as
// when the browser has no Web Share), the copied URL opens the server-rendered page, and its
// "Open in the locator" comes back to the same store in the app.
import { join } from "node:path";
import { axe, expect, SHOTS, test } from "./fixtures.mjs";

test.use({ serverOptions: { stores: 300 } });

const storePageURL = /\/stores\/[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+-\d+$/;

/** Opens a store page as a visitor does: the directory's first link, three times from /stores. Gives its URL. */
async function openFirstStorePage(page) {
  await page.goto("/stores");
  const firstListed = page.locator("main ul.plain a").first();
  for (let i = 0; i < 3; i++) await firstListed.click();
  await expect(page).toHaveURL(storePageURL);
  return page.url();
}

test("shares a store's page and comes back from it", async ({ page, context, server }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  // No Web Share API: Share copies the link.
  await context.addInitScript(() => {
    delete Navigator.prototype.share;
  });
  await page.goto("/");
  const list = page.getByRole("list", { name: "Stores" });
  await list.getByRole("button").first().click();
  const heading = page.getByRole("heading", { level: 2 });
  await expect(heading).toBeVisible();
  const name = await heading.innerText();
  const id = new URL(page.url()).searchParams.get("store");
  expect(id).toMatch(/^\d+$/);
  await expect.poll(() => page.title()).toContain(name);

  await page.getByRole("button", { name: "Share" }).click();
  await expect(page.getByText("Link copied")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(url.origin).toBe(server.url);
  expect(url.pathname).toMatch(new RegExp(`^/stores/[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+-${id}$`));

  // The copied URL is the store's page: no redirect, server-rendered, with its structured data.
  const response = await page.goto(copied);
  expect(response.status()).toBe(200);
  expect(response.request().redirectedFrom()).toBeNull();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", copied);
  const types = await page.locator('script[type="application/ld+json"]').evaluateAll((els) => els.map((e) => JSON.parse(e.textContent)["@type"]));
  expect(types).toEqual(["Store", "BreadcrumbList"]);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "store-page-1280x800.png"), fullPage: true });
  await axe(page, "store page", { all: true });

  await page.getByRole("link", { name: "Open in the locator" }).click();
  await page.waitForURL((u) => u.pathname === "/" && u.searchParams.get("store") === id);
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
});

test("directory pages lead to every store within three links", async ({ page }) => {
  const response = await page.goto("/stores");
  expect(response.status()).toBe(200);
  const firstListed = page.locator("main ul.plain a").first();
  await firstListed.click();
  await expect(page).toHaveURL(/\/stores\/[a-z0-9-]+$/);
  await firstListed.click();
  await expect(page).toHaveURL(/\/stores\/[a-z0-9-]+\/[a-z0-9-]+$/);
  await axe(page, "city page", { all: true });
  await firstListed.click();
  await expect(page).toHaveURL(storePageURL);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const missing = await page.goto("/stores/zz/nowhere/nothing-999999999");
  expect(missing.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("the app's address of a store names the store page as canonical", async ({ page }) => {
  const storePage = await openFirstStorePage(page);
  const id = /-(\d+)$/.exec(storePage)[1];
  for (const path of [`/?store=${id}`, `/reviews?store=${id}`]) {
    await page.goto(path);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", storePage);
  }
});

test("a store without a photo previews as a picture a share sheet can show", async ({ page }) => {
  await openFirstStorePage(page);
  // The demo stores' photos are SVG, which previews do not show: the page offers its card.
  const image = await page.locator('meta[property="og:image"]').getAttribute("content");
  const alt = await page.locator('meta[property="og:image:alt"]').getAttribute("content");
  expect(image).toMatch(/\/cards\/\d+\.png\?v=[0-9a-f]+$/);
  expect(alt).toContain(await page.getByRole("heading", { level: 1 }).innerText());
  const path = new URL(image).pathname + new URL(image).search;
  const card = await page.request.get(path);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
  // The browser decodes it, loaded from the store page (under its content policy).
  const size = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  }, path);
  expect(size).toEqual([1200, 630]);
});

test("reports a problem from a store page without script", async ({ page }) => {
  const storeURL = await openFirstStorePage(page);
  await page.getByText("Report a problem").click();
  await page.getByRole("radio", { name: "Wrong hours" }).check();
  await page.getByLabel("Note (optional)").fill("Closes at 8 now");
  await axe(page, "store page with the report form", { all: true });
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page).toHaveURL(`${storeURL}/report?sent=1`);
  await expect(page.getByText("Thanks! We'll check this store.")).toBeVisible();
  await page.getByRole("link", { name: /^Back to / }).click();
  await expect(page).toHaveURL(storeURL);
});

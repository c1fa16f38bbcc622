// Store pages with products and product pages against the real binary and the demo data (`locator
// seed --demo` writes the catalogue and the stores' stock): a New York store's page lists a product it
// carries and may sell with its availability, and its JSON-LD has that product's schema.org Offer; a
// flavoured product it carries reads "Not sold here by law" with the citation and has no Offer; the
// product's link opens its product page, which shows the product, the law and the store. The demo
// stock is made for the run's date, so the store and products are found through the API first.
import { axe, expect, LIST_PATH, test } from "./fixtures.mjs";

const NYC = { lat: 40.7128, lon: -74.006 };

async function api(server, path) {
  const res = await fetch(`${server.url}/api${path}`);
  expect(res.status, path).toBe(200);
  return res.json();
}

/** A store near New York City carrying a lawful, fresh, priced product in stock and a product the law forbids there. */
async function demoStore(server) {
  const query = new URLSearchParams({ latitude: NYC.lat, longitude: NYC.lon, radius: "30", limit: "50" });
  const { physical_stores: stores } = await api(server, `${LIST_PATH.slice("/api".length)}?${query}`);
  for (const store of stores) {
    const { products } = await api(server, `/store/physical-store/${store.id}/products`);
    const sold = products.find((p) => p.lawful && !p.stale && p.availability === "in_stock" && p.price !== null);
    const forbidden = products.find((p) => !p.lawful && p.rule);
    if (sold && forbidden) return { store, sold, forbidden };
  }
  throw new Error("no demo store around New York City carries both a product it may sell and one it may not");
}

/** The page's JSON-LD blocks, parsed. */
const jsonLd = (page) => page.locator('script[type="application/ld+json"]').evaluateAll((els) => els.map((e) => JSON.parse(e.textContent)));

test("a store page lists a product with its Offer, and the product's page renders", async ({ page, server }) => {
  const { store, sold, forbidden } = await demoStore(server);
  // Any path ending in the id answers 301 to the store's page.
  const response = await page.goto(`/stores/x/y/${store.id}`);
  expect(response.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: store.name })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Products" })).toBeVisible();

  const item = (p) => page.getByRole("listitem").filter({ has: page.getByRole("link", { name: p.name, exact: true }) });
  await expect(item(sold)).toContainText("In stock");
  await expect(item(forbidden)).toContainText("Not sold here by law");
  await expect(item(forbidden).getByRole("link", { name: forbidden.rule.citation })).toHaveAttribute("href", forbidden.rule.url);
  await expect(item(forbidden)).not.toContainText("In stock");

  const [storeLd] = await jsonLd(page);
  expect(storeLd["@type"]).toBe("Store");
  const offers = storeLd.makesOffer ?? [];
  const offer = offers.find((o) => o.itemOffered.sku === sold.id);
  expect(offer).toMatchObject({
    "@type": "Offer",
    availability: "https://schema.org/InStock",
    priceCurrency: sold.currency_code.toUpperCase(),
    itemOffered: { "@type": "Product", name: sold.name, brand: { "@type": "Brand", name: sold.brand } },
  });
  expect(offer.price).toBe(sold.sale_price !== null && sold.sale_price < sold.price ? sold.sale_price : sold.price);
  expect(offers.some((o) => o.itemOffered.sku === forbidden.id)).toBe(false);
  await axe(page, "store page with products", { all: true });

  await item(sold).getByRole("link", { name: sold.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${sold.handle ?? sold.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: sold.name })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Where the law forbids selling it in stores" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Stores that carry it" })).toBeVisible();
  // New York's stores that carry it, the first 50 of them listed.
  await expect(page.getByRole("heading", { level: 3, name: /^New York \(\d+\)$/ })).toBeVisible();
  const types = (await jsonLd(page)).map((b) => b["@type"]);
  expect(types).toEqual(["Product", "BreadcrumbList"]);
  await axe(page, "product page", { all: true });

  // The forbidden product's page names the law that forbids it where this store stands.
  await page.goto(`/products/${forbidden.handle ?? forbidden.id}`);
  await expect(page.getByRole("link", { name: forbidden.rule.citation }).first()).toBeVisible();
  expect((await page.request.get("/products/no-such-product")).status()).toBe(404);
});

// The shopper's product search against the real binary and the demo data (`locator seed --demo`
// writes the catalogue and the stores' stock with the stores): a shopper picks a product in the
// box beside the place search and sees the stores that carry it, in stock first with a price;
// "In stock only" asks the server for those alone; in New York City a flavoured product reads
// "Not sold here by law" with the rule's citation, in the list and in the store's panel; a reload
// keeps the product (it is in the address). The demo data is made for the run's date (its stock
// is reported in the 10 days before), so the products are found through the API first, as the
// shopper's screen must then show them.
import { axe, expect, LIST_PATH, listResponse, test } from "./fixtures.mjs";

const NYC = { lat: 40.7128, lon: -74.006 };

async function api(server, path) {
  const res = await fetch(`${server.url}/api${path}`);
  expect(res.status, path).toBe(200);
  return res.json();
}

/** The first product suggested for `q` whose search around New York City answers stores satisfying `ok`. */
async function demoProduct(server, q, ok) {
  const { products } = await api(server, `/store/products/suggest?q=${encodeURIComponent(q)}&limit=20`);
  for (const product of products) {
    const query = new URLSearchParams({ latitude: NYC.lat, longitude: NYC.lon, radius: "30", limit: "200", product: product.id });
    const answer = await api(server, `${LIST_PATH.slice("/api".length)}?${query}`);
    if (ok(answer.physical_stores)) return product;
  }
  throw new Error(`no demo product for "${q}" has the stores this test needs around New York City`);
}

/** Types the product's name in the product box and picks it; answers the list call it makes. */
async function chooseProduct(page, product) {
  await page.getByRole("combobox", { name: "Search for a product" }).fill(product.name);
  const option = page.getByRole("option").filter({ has: page.getByText(product.name, { exact: true }) });
  await option.first().waitFor();
  const answer = listResponse(page, (u) => u.searchParams.get("product") === product.id);
  await option.first().click();
  return (await answer).json();
}

/** The distance band of the ranking (docs/products.md): 0-1, 1-3, 3-5, 5-10, 10-25, 25-50, 50-100 miles. */
const bandOf = (miles) => [1, 3, 5, 10, 25, 50, 100].findIndex((edge) => miles < edge);

const rows = (page) => page.getByRole("list", { name: "Stores" }).getByRole("listitem");

test("a shopper picks a demo product and sees the stores that have it in stock first, with a price", async ({ page, server }) => {
  const product = await demoProduct(
    server,
    "Classic Tobacco",
    (stores) => stores.length >= 3 && stores[0].product.availability === "in_stock" && stores[0].product.lawful && !stores[0].product.stale && stores[0].product.price !== null,
  );
  await page.goto(`/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await expect(page.getByText(/^Showing results 1-/)).toBeVisible();

  const answer = await chooseProduct(page, product);
  expect(new URL(page.url()).searchParams.get("product")).toBe(product.id);
  await expect(page.getByText(`Stores with ${product.name}`)).toBeVisible();
  // The list is the server's ranking; in its nearest band the stores that have it come first.
  const names = answer.physical_stores.slice(0, 20).map((s) => s.name);
  await expect(rows(page).locator('[data-part="name"]')).toHaveText(names);
  const first = rows(page).first();
  await expect(first).toContainText("In stock");
  await expect(first).toContainText(/\$\d+\.\d\d/);
  await expect(first).toContainText(/updated (just now|\d+ (min|h) ago|\d+ days ago)/);
  const band = answer.physical_stores.filter((s) => bandOf(s.distance) === bandOf(answer.physical_stores[0].distance));
  const order = band.map((s) => (s.product.lawful && !s.product.stale && s.product.availability === "in_stock" ? 0 : 1));
  expect(order, "in stock first within the nearest band").toEqual([...order].sort((a, b) => a - b));
  // Every listed store carries it: each row reads its stock (or the law).
  await expect(rows(page).filter({ hasNotText: /In stock|Limited|On display to order|Out of stock|Not sold here by law/ })).toHaveCount(0);
  await axe(page, "stores with a product");

  // In stock only: the server keeps the stores where it is in stock or limited, lawful and fresh.
  const onlyAnswer = listResponse(page, (u) => u.searchParams.get("product") === product.id && u.searchParams.get("in_stock") === "true");
  await page.getByRole("group", { name: "Product" }).getByRole("button", { name: "In stock only" }).click();
  const only = await (await onlyAnswer).json();
  expect(only.physical_stores.length).toBeGreaterThan(0);
  for (const s of only.physical_stores) {
    expect(["in_stock", "limited_availability"]).toContain(s.product.availability);
    expect(s.product.lawful && !s.product.stale).toBe(true);
  }
  await expect(rows(page).locator('[data-part="name"]')).toHaveText(only.physical_stores.slice(0, 20).map((s) => s.name));
  await expect(rows(page).filter({ hasNotText: /In stock|Limited/ })).toHaveCount(0);

  // A reload (or the link shared) keeps the product and the toggle.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Search for a product" })).toHaveValue(product.name);
  await expect(page.getByRole("button", { name: "In stock only" })).toHaveAttribute("aria-pressed", "true");
  await expect(rows(page).first()).toContainText(/In stock|Limited/);

  // The store's panel lists its products by kind, this one's kind open, with its stock.
  await rows(page).first().getByRole("button").click();
  const products = page.getByRole("region", { name: "Products" });
  const chosen = products.locator('li[aria-current="true"]');
  await expect(chosen).toContainText(product.name);
  await expect(chosen).toContainText(/In stock|Limited/);
  await axe(page, "store panel with its products");

  // Clearing the product: the plain locator again.
  await page.getByRole("button", { name: "Back to results" }).click();
  const plain = listResponse(page, (u) => !u.searchParams.has("product"));
  await page.getByRole("group", { name: "Product" }).getByRole("button", { name: "Clear product" }).click();
  await plain;
  expect(new URL(page.url()).searchParams.has("product")).toBe(false);
  await expect(page.getByRole("combobox", { name: "Search for a product" })).toHaveValue("");
  await expect(rows(page).filter({ hasText: /In stock|Not sold here by law/ })).toHaveCount(0);
});

test("in New York City a flavoured product reads Not sold here by law with its citation", async ({ page, server }) => {
  const product = await demoProduct(server, "Mango Ice", (stores) => stores.length > 0 && !stores[0].product.lawful && stores[0].product.rule !== null);
  await page.goto(`/?lat=${NYC.lat}&lon=${NYC.lon}`);
  await expect(page.getByText(/^Showing results 1-/)).toBeVisible();

  const answer = await chooseProduct(page, product);
  const rule = answer.physical_stores[0].product.rule;
  const first = rows(page).first();
  await expect(first).toContainText("Not sold here by law");
  await expect(first).not.toContainText("In stock");
  await expect(first.getByRole("link", { name: rule.citation })).toHaveAttribute("href", rule.url);
  // Whatever its feed says: no store the law forbids it at reads a stock.
  const forbidden = answer.physical_stores.slice(0, 20).filter((s) => !s.product.lawful);
  expect(forbidden.length).toBeGreaterThan(0);
  for (const s of forbidden) {
    const row = rows(page).filter({ has: page.locator(`button[data-store-id="${s.id}"]`) });
    await expect(row).toContainText("Not sold here by law");
    await expect(row).not.toContainText(/In stock|Limited|On display to order/);
  }
  await axe(page, "a product the law forbids here");

  // The reload keeps it; the store's panel says the same, with no way to buy it online.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Search for a product" })).toHaveValue(product.name);
  await expect(rows(page).first()).toContainText("Not sold here by law");
  await rows(page).first().getByRole("button").click();
  const chosen = page.getByRole("region", { name: "Products" }).locator('li[aria-current="true"]');
  await expect(chosen).toContainText("Not sold here by law");
  await expect(chosen.getByRole("link", { name: rule.citation })).toBeVisible();
  await expect(chosen.getByRole("button", { name: /Buy online/ })).toHaveCount(0);
});

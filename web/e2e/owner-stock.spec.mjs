// The owners' stock against the real binary (docs/products.md, "Owners' stock"): an owner finds a
// product by its barcode in /business, marks it carried, then out of stock, and the shoppers' list
// call with `product=` shows each change within 2 s (one index poll); removed, the store leaves the
// product's list. The law's verdict on the row is the dashboard's too.
import { axe, expect, LIST_PATH, test as base } from "./fixtures.mjs";
import { claimApproved } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const owner = {
  name: `E2E Stock Vapes ${Date.now()}`,
  email: `stock-${Date.now()}@example.com`,
  phone: "+1 303 555 0102",
  password: "stock-tulip-lamp-7",
};

/** The GTIN of the demo catalogue's product k (from 0), as internal/seed's DemoGTIN writes it. */
function demoGTIN(k) {
  const body = `29900${String(k + 1).padStart(7, "0")}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return `0${body}${(10 - (sum % 10)) % 10}`;
}

test("an owner marks a product carried, then out of stock, and the shoppers' list follows within 2 s", async ({ page, server, sink }) => {
  const { link } = await claimApproved(page, server, sink, owner);
  await page.goto(link);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();

  // The barcode's digits as a scanner types them (the EAN-13, without the GTIN-14's leading 0).
  const gtin = demoGTIN(7);
  const stock = page.getByRole("region", { name: "Stock" });
  await stock.getByLabel("Find a product").fill(gtin.slice(1));
  await stock.getByRole("button", { name: "Find" }).click();
  const results = stock.getByRole("list", { name: "Catalogue products" });
  await expect(results.getByRole("button")).toHaveCount(1);
  const productName = (await results.getByRole("button").locator("span").first().innerText()).trim();
  await results.getByRole("button").click();
  const carry = stock.getByRole("form", { name: `Carry ${productName}` });
  await carry.getByLabel("Quantity (optional)").fill("9");
  await carry.getByLabel("Price in USD (optional)").fill("24.50");
  await carry.getByRole("button", { name: "Mark carried" }).click();
  const row = stock.getByRole("listitem", { name: productName });
  await expect(row).toContainText("9 in store · 24.50 USD");
  await axe(page, "business stock");

  const stores = await page.evaluate(async () => (await (await fetch("/api/business/stores", { credentials: "include" })).json()).stores);
  const storeID = stores[0].id;
  /** Our store's stock of the product in the shoppers' list call, null when it is not listed. */
  const listed = async () => {
    const res = await fetch(`${server.url}${LIST_PATH}?latitude=40.015&longitude=-105.27&radius=30&limit=200&product=${gtin}`);
    expect(res.status).toBe(200);
    const found = (await res.json()).physical_stores.find((s) => s.id === storeID);
    return found ? found.product.availability : null;
  };
  await expect.poll(listed, { message: "the store carries it in the list within 2 s", timeout: 2000, intervals: [100] }).toBe("in_stock");

  // Out of stock: the list follows within 2 s.
  await row.getByLabel(`Availability of ${productName}`).selectOption("out_of_stock");
  await stock.getByText(`${productName}: out of stock.`).waitFor();
  await expect.poll(listed, { message: "out of stock in the list within 2 s", timeout: 2000, intervals: [100] }).toBe("out_of_stock");

  // Removed: the store leaves the product's list.
  await row.getByRole("button", { name: `Remove ${productName}` }).click();
  await stock.getByText(/No product listed yet/).waitFor();
  await expect.poll(listed, { message: "gone from the list within 2 s", timeout: 2000, intervals: [100] }).toBe(null);
});

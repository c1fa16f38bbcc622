// The point-of-sale API's keys against the real binary: an owner makes a key in /business (shown
// once), a till's fetch writes the store's stock with it, the owner revokes it and the same call
// is refused (docs/products.md, "Point-of-sale API").
import { axe, expect, test as base } from "./fixtures.mjs";
import { claimApproved } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const owner = {
  name: `E2E Till Vapes ${Date.now()}`,
  email: `till-${Date.now()}@example.com`,
  phone: "+1 303 555 0101",
  password: "till-tulip-lamp-7",
};

/** The GTIN of the demo catalogue's product k (from 0), as internal/seed's DemoGTIN writes it. */
function demoGTIN(k) {
  const body = `29900${String(k + 1).padStart(7, "0")}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return `0${body}${(10 - (sum % 10)) % 10}`;
}

/** The POS call as a till makes it, from the page (no cookie: the key is the only credential). */
function sendStock(page, key, rows) {
  return page.evaluate(
    async ({ key, rows }) => {
      const r = await fetch("/api/pos/v1/stock", {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: JSON.stringify({ rows }),
      });
      return { status: r.status, body: await r.json() };
    },
    { key, rows },
  );
}

test("an owner creates a key, a till writes stock with it, the owner revokes it and the call is refused", async ({ page, server, sink }) => {
  const { link } = await claimApproved(page, server, sink, owner);
  await page.goto(link);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();

  const section = page.getByRole("region", { name: "Point-of-sale API keys" });
  await section.getByLabel("Key name").fill("Front till");
  await section.getByRole("button", { name: "Create key" }).click();
  const shown = section.getByLabel("Your new key “Front till”");
  await expect(shown).toHaveValue(/^lpos_[A-Za-z0-9_-]{43}$/);
  const key = await shown.inputValue();
  const list = section.getByRole("list", { name: "Your keys" });
  await expect(list).toContainText("Front till");
  await expect(list).toContainText("never used");
  await expect(list).not.toContainText(key);
  await axe(page, "business API keys with a new key");

  const stores = await page.evaluate(async () => (await (await fetch("/api/business/stores", { credentials: "include" })).json()).stores);
  expect(stores).toHaveLength(1);
  const storeCode = String(stores[0].id);
  const written = await sendStock(page, key, [
    { store_code: storeCode, gtin: demoGTIN(0), availability: "in_stock", quantity: 4, price: "19.99 USD" },
    { store_code: storeCode, gtin: demoGTIN(1), availability: "out_of_stock", quantity: -1 },
  ]);
  expect(written, JSON.stringify(written)).toEqual({ status: 200, body: { written: 1, failed: 1, errors: [{ row: 2, message: "quantity -1 is negative" }] } });

  // The list shows the key used; then the owner revokes it.
  await page.reload();
  await expect(section.getByRole("list", { name: "Your keys" })).toContainText("last used");
  page.once("dialog", (d) => void d.accept());
  await section.getByRole("button", { name: "Revoke Front till" }).click();
  await section.getByText("“Front till” is revoked.").waitFor();
  await expect(section.getByRole("list", { name: "Your keys" })).toContainText("revoked");

  const refused = await sendStock(page, key, [{ store_code: storeCode, gtin: demoGTIN(0), availability: "out_of_stock" }]);
  expect(refused.status, JSON.stringify(refused)).toBe(401);
  expect(refused.body.message).toMatch(/API key/);
});

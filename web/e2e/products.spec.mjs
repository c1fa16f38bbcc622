// The /admin catalogue editor against the real binary: the demo data's products (seeded by
// `locator seed --demo` with the stores), a moderator searches by brand, opens a product, sees a
// strength without its unit refused under its field, renames the product and sees it saved; the
// API then answers the new name, and the search by the new name finds it.
import { addModerator, axe, expect, test } from "./fixtures.mjs";

const EMAIL = "moderator@example.com";
const PASSWORD = "correct horse battery staple";

test.use({ serverOptions: { stores: 200, prepare: addModerator(EMAIL, PASSWORD) } });

test("a moderator edits a demo product's name and sees it saved", async ({ page }) => {
  await page.goto("/admin");
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Moderation" }).getByRole("button", { name: "Products" }).click();

  // The whole demo catalogue, then the brand's products.
  await expect(page.getByText(/^1–20 of 300 products$/)).toBeVisible();
  await page.getByRole("textbox", { name: "Name, brand or GTIN" }).fill("zephyrine");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText(/^1–10 of 10 products$/)).toBeVisible();
  const products = page.getByRole("list", { name: "Products" });
  const first = products.getByRole("listitem").first();
  const oldName = await first.getByRole("heading", { level: 3 }).innerText();
  await first.getByRole("button", { name: `Edit ${oldName}` }).click();
  const form = page.getByRole("form", { name: `Edit ${oldName}` });
  const nicotine = form.getByRole("textbox", { name: "Nicotine strength" });
  await expect(nicotine).not.toHaveValue("");
  const strength = await nicotine.inputValue();

  // A strength without its unit: the server's reason under the field, nothing saved.
  await nicotine.fill("50");
  await form.getByRole("button", { name: "Save the product" }).click();
  await expect(form.getByRole("alert")).toHaveText('nicotine "50" has no unit (mg/mL, % or mg/pouch)');
  await expect(nicotine).toHaveAttribute("aria-invalid", "true");
  await axe(page, "product editor with a refused field");

  await nicotine.fill(strength);
  const newName = `${oldName} (E2E edition)`;
  await form.getByRole("textbox", { name: "Name" }).fill(newName);
  const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes("/api/admin/products/"));
  await form.getByRole("button", { name: "Save the product" }).click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(JSON.parse(answer.request().postData())).toEqual({ name: newName });
  await expect(page.getByRole("status")).toHaveText(`Saved ${newName}.`);
  await expect(products.getByRole("heading", { level: 3, name: newName })).toBeVisible();

  // Saved in the catalogue: the API reads it back, and a search by the new words finds it.
  const id = (await answer.json()).product.id;
  const again = await page.request.get(`/api/admin/products/${id}`);
  expect((await again.json()).product.name).toBe(newName);
  await page.getByRole("textbox", { name: "Name, brand or GTIN" }).fill("E2E edition");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText(/^1–1 of 1 product$/)).toBeVisible();
});

// Hours per service against the real binary: an owner opens the store around the clock with
// delivery, the locator's "Delivery now" (Open now + Delivery) lists it; the owner pauses delivery
// for an hour in /business, and within 2 s (one index poll) "Delivery now" no longer lists the
// store while its panel says when delivery is back.
import { join } from "node:path";
import { axe, expect, LIST_PATH, SHOTS, test as base } from "./fixtures.mjs";
import { claimApproved } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const stamp = Date.now();
const owner = { name: `E2E Delivery Vapes ${stamp}`, email: `delivery-${stamp}@example.com`, phone: "+1 303 555 0101", password: "delivery-tulip-7" };
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

test("an owner pauses delivery: Delivery now drops the store within 2 s and the panel says when it is back", async ({ page, server, sink }) => {
  const { link } = await claimApproved(page, server, sink, owner);
  await page.goto(link);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();

  // Open around the clock, with delivery.
  const form = page.getByRole("form", { name: "Hours and contact" });
  for (const day of DAYS) {
    const box = form.getByRole("checkbox", { name: day, exact: true });
    if (!(await box.isChecked())) await box.check();
    await form.getByLabel(`${day} opens`).fill("00:00");
    await form.getByLabel(`${day} closes`).fill("00:00");
  }
  await form.getByRole("checkbox", { name: "Delivery" }).check();
  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/api/business/stores/") && r.request().method() === "PATCH"),
    form.getByRole("button", { name: "Save and publish" }).click(),
  ]);
  expect(saved.status(), await saved.text()).toBe(200);

  const deliveryNow = async () => {
    const res = await fetch(`${server.url}${LIST_PATH}?latitude=40.015&longitude=-105.27&radius=30&limit=200&is_delivery_available=true&is_open_now=true&available_now=true`);
    return (await res.json()).physical_stores.find((s) => s.name === owner.name) ?? null;
  };
  await expect.poll(async () => (await deliveryNow())?.services.delivery.available_now ?? null, { message: "delivery is available now" }).toBe(true);
  const store = await deliveryNow();
  const at = `lat=${store.latitude}&lon=${store.longitude}&place=${encodeURIComponent("Boulder 80302")}`;

  // The locator: "Delivery now" while Open now is on lists the store.
  await page.goto(`/?${at}&open=1&delivery=1`);
  await expect(page.getByRole("button", { name: "Delivery now", pressed: true })).toBeVisible();
  const listed = page.getByRole("list", { name: "Stores" }).getByRole("button", { name: new RegExp(owner.name) });
  await listed.first().waitFor();

  // Pause delivery for an hour in the dashboard.
  await page.goto("/business");
  const delivery = page.getByRole("form", { name: "Delivery settings" });
  await delivery.getByLabel("Delivery pause note").fill("Driver out");
  await axe(page, "business service hours");
  const [paused] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/api/business/stores/") && r.request().method() === "PATCH"),
    delivery.getByRole("button", { name: "Pause for 1 hour" }).click(),
  ]);
  expect(paused.status(), await paused.text()).toBe(200);
  const pausedAt = Date.now();
  await delivery.getByText(/^Paused until /).waitFor();
  await expect(delivery.getByRole("button", { name: "Resume delivery" })).toBeVisible();

  // Within one poll, "Delivery now" no longer has it; Delivery alone (offered) still does.
  await expect.poll(deliveryNow, { message: "the pause is searchable within 2 s", timeout: 2000, intervals: [100] }).toBeNull();
  expect(Date.now() - pausedAt).toBeLessThan(2000);
  const offered = await fetch(`${server.url}${LIST_PATH}?latitude=40.015&longitude=-105.27&radius=30&limit=200&is_delivery_available=true`);
  const still = (await offered.json()).physical_stores.find((s) => s.name === owner.name);
  expect(still.services.delivery).toMatchObject({ offered: true, available_now: false, note: "Driver out" });

  await page.goto(`/?${at}&open=1&delivery=1`);
  await expect(page.getByRole("button", { name: "Delivery now", pressed: true })).toBeVisible();
  await page.getByText(/^(Showing results|No Results Found)/).first().waitFor();
  await expect(listed).toHaveCount(0);

  // The panel says when delivery is back.
  await page.goto(`/?${at}&store=${store.id}`);
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();
  await expect(page.getByRole("list", { name: "Services" })).toContainText(/Delivery paused( today)? · back (at )?\S+ [AP]M · Driver out/);
  await page.screenshot({ path: join(SHOTS, "services-paused-1280x800.png"), fullPage: true });
});

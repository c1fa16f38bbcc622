// Hours per service against the real binary: an owner opens the store around the clock with
// delivery, the locator's "Delivery now" (Open now + Delivery) lists it; the owner pauses delivery
// for an hour in /business, and within 2 s (one index poll) "Delivery now" no longer lists the
// store while its panel says when delivery is back; resumed, then closed today for delivery alone
// (a special date of the service), "Delivery now" drops the store again.
import { join } from "node:path";
import { axe, expect, LIST_PATH, SHOTS, test as base } from "./fixtures.mjs";
import { claimApproved } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const stamp = Date.now();
const owner = { name: `E2E Delivery Vapes ${stamp}`, email: `delivery-${stamp}@example.com`, phone: "+1 303 555 0101", password: "delivery-tulip-7" };
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

test("an owner pauses delivery, then closes it today: Delivery now drops the store within 2 s each time, the panel says when it is back", async ({ page, server, sink }) => {
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

  // Resumed, then closed today for delivery alone (a special date of the service, the store's
  // own date): "Delivery now" drops the store again while the store stays open.
  await page.goto("/business");
  const [resumed] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/api/business/stores/") && r.request().method() === "PATCH"),
    delivery.getByRole("button", { name: "Resume delivery" }).click(),
  ]);
  expect(resumed.status(), await resumed.text()).toBe(200);
  await expect.poll(async () => (await deliveryNow())?.services.delivery.available_now ?? null, { message: "delivery is back" }).toBe(true);

  const today = new Intl.DateTimeFormat("en-CA", { timeZone: store.time_zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const dates = delivery.getByRole("group", { name: "Delivery special dates" });
  await dates.getByLabel("Delivery date").fill(today);
  await dates.getByLabel("Delivery note").fill("Van in the garage");
  await dates.getByRole("button", { name: "Add date" }).click();
  await dates.getByText(`${today}: closed · Van in the garage`).waitFor();
  await axe(page, "business service special dates");
  const [closed] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/api/business/stores/") && r.request().method() === "PATCH"),
    delivery.getByRole("button", { name: "Save delivery hours" }).click(),
  ]);
  expect(closed.status(), await closed.text()).toBe(200);
  expect((await closed.json()).store.services.delivery.special_hours).toEqual([{ date: today, closed: true, startTime: null, endTime: null, note: "Van in the garage" }]);
  const closedAt = Date.now();
  await expect.poll(deliveryNow, { message: "delivery closed today is searchable within 2 s", timeout: 2000, intervals: [100] }).toBeNull();
  expect(Date.now() - closedAt).toBeLessThan(2000);
  const open = await fetch(`${server.url}${LIST_PATH}?latitude=40.015&longitude=-105.27&radius=30&limit=200&is_open_now=true&is_delivery_available=true`);
  const openStore = (await open.json()).physical_stores.find((s) => s.name === owner.name);
  expect(openStore.services.delivery).toMatchObject({ offered: true, available_now: false });
  expect(openStore.services.delivery.paused_until ?? null).toBeNull();

  await page.goto(`/?${at}&open=1&delivery=1`);
  await expect(page.getByRole("button", { name: "Delivery now", pressed: true })).toBeVisible();
  await page.getByText(/^(Showing results|No Results Found)/).first().waitFor();
  await expect(listed).toHaveCount(0);
  // With Delivery alone (offered), it is listed and open.
  await page.getByRole("button", { name: "Open now", pressed: true }).click();
  await expect(page.getByRole("button", { name: "Delivery", exact: true, pressed: true })).toBeVisible();
  await expect(listed.first()).toBeVisible();
});

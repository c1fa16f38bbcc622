// Stores where they stand (issue 39, major 1): a claim for 200 Bedford Ave, Brooklyn NY 11249,
// which the embedded gazetteer finds only at its ZIP's centre in East Flatbush, 8 km away, is not
// published there. The moderator sees "ZIP centre only" and that the map shows no streets,
// cannot approve until the pin is placed, and the store is published at the pin near Bedford Ave.
// The owner may place the pin in the wizard instead ("I'm at the store now"). A store imported
// without coordinates is listed in /admin "Stores to place" until its pin is placed.
import { request as httpRequest } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { addModerator, axe, expect, LIST_PATH, test } from "./fixtures.mjs";

const EMAIL = "moderator@example.com";
const PASSWORD = "correct horse battery staple";
/** 200 Bedford Ave, Williamsburg, and the gazetteer's centre of ZIP 11249 (East Flatbush). */
const BEDFORD = { latitude: 40.71783, longitude: -73.95773 };
const ZIP_CENTRE = { latitude: 40.6451, longitude: -73.945 };

test.use({
  serverOptions: {
    stores: 200,
    prepare: (opts) => {
      addModerator(EMAIL, PASSWORD)(opts);
      // A store imported without coordinates: placed at the ZIP's centre only.
      const file = join(opts.dir, "zip-only.csv");
      writeFileSync(file, "store_id,name,country,state,city,postal_code,address\nZIP1,Kent Ave Smoke,US,NY,Brooklyn,11249,80 Kent Ave\n");
      const out = execFileSync(opts.bin, ["import", "--database-url", opts.db, file], { cwd: opts.dir, encoding: "utf8" });
      if (!out.includes("1 store stands only at a ZIP or city centre (line 2)")) throw new Error(`import output: ${out}`);
    },
  },
});

const BROOKLYN = {
  phone: "+1 718 555 0199",
  country: "United States",
  state: "NY",
  address1: "200 Bedford Ave",
  city: "Brooklyn",
  postal_code: "11249",
};

/** Metres between two points. */
function metres(a, b) {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371e3 * Math.asin(Math.sqrt(h));
}

/** The published store named `name` within a mile of Bedford Ave, or undefined. */
async function nearBedford(api, name) {
  const res = await api.get(`${LIST_PATH}?latitude=${BEDFORD.latitude}&longitude=${BEDFORD.longitude}&radius=1&limit=200`);
  return (await res.json()).physical_stores.find((s) => s.name === name);
}

async function signIn(page) {
  await page.goto("/admin");
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a claim at a ZIP centre is not published until the moderator places the pin; then it stands on Bedford Ave", async ({ page, server }) => {
  const api = await httpRequest.newContext({ baseURL: server.url });
  const name = `Bedford Smoke ${Date.now()}`;
  const submitted = await api.post("/api/store/claim", { data: { ...BROOKLYN, business_name: name, email: "owner@bedford.example" } });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const claimId = (await submitted.json()).claim.id;

  await signIn(page);
  await page.getByRole("list", { name: "Claims" }).getByRole("button", { name: new RegExp(name) }).click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  // The precision in words, and the approval refused while nobody placed the pin.
  await expect(page.getByText(/\(ZIP centre only\): not the store/)).toBeVisible();
  await expect(page.getByText(/The address is found only at a centre \(ZIP centre only\)/)).toBeVisible();
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await expect(approve).toBeDisabled();
  // The default map has no streets under the pin, and says so.
  await expect(page.getByText(/The map here shows no streets/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("The marker is 0.0 mi from the centre of ZIP 11249.")).toBeVisible();
  await axe(page, "claim at a ZIP centre", { all: true });

  // The rule holds on the server too, whatever the page does.
  const modApi = await httpRequest.newContext({ baseURL: server.url });
  expect((await modApi.post("/api/admin/auth", { data: { email: EMAIL, password: PASSWORD } })).status()).toBe(200);
  const refused = await modApi.post(`/api/admin/claims/${claimId}/approve`, { data: {} });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toContain("found only at its ZIP code's centre (11249)");
  expect(await nearBedford(api, name), "nothing published").toBeUndefined();

  // The moderator places the pin on Bedford Ave (typed: the keyboard way of the marker).
  await page.getByLabel("Latitude").fill(String(BEDFORD.latitude));
  await page.getByLabel("Longitude").fill(String(BEDFORD.longitude));
  await expect(page.getByText("The marker is 5.1 mi from the centre of ZIP 11249.")).toBeVisible();
  await expect(approve).toBeEnabled();
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/admin/claims/${claimId}/approve`)), approve.click()]);
  expect(answer.status()).toBe(200);
  expect(JSON.parse(answer.request().postData())).toEqual({ latitude: BEDFORD.latitude, longitude: BEDFORD.longitude });

  await expect.poll(() => nearBedford(api, name), { message: "published near Bedford Ave", timeout: 10_000 }).toBeTruthy();
  const store = await nearBedford(api, name);
  expect(metres(store, BEDFORD)).toBeLessThan(5);
  expect(metres(store, ZIP_CENTRE)).toBeGreaterThan(7000);
  await api.dispose();
  await modApi.dispose();
});

test("the owner places the pin in the wizard with I'm at the store now; the approval publishes the store there", async ({ page, context, server }) => {
  await context.grantPermissions(["geolocation"], { origin: server.url });
  await context.setGeolocation({ ...BEDFORD, accuracy: 15 });
  const name = `Bedford Vapes ${Date.now()}`;
  await page.goto("/claim");
  for (const [label, value] of [["Business name", name], ["Email", "owner@bedford-vapes.example"], ["Phone", BROOKLYN.phone]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  for (const [label, value] of [["Country", BROOKLYN.country], ["State (optional)", BROOKLYN.state], ["City", BROOKLYN.city], ["Postal code", BROOKLYN.postal_code], ["Address", BROOKLYN.address1]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: "I'm at the store now" }).click();
  await expect(page.getByText("Pin placed from your device at the store: 40.717830, -73.957730.", { exact: false })).toBeVisible();
  await expect(page.getByText(/The map here shows no streets: place the pin from the address/)).toBeVisible({ timeout: 30_000 });
  await axe(page, "claim step 4 with the pin", { all: true });
  await page.getByRole("button", { name: "Add business" }).click();
  await page.getByLabel("Password", { exact: true }).fill("bedford-pass-1");
  const [claimed] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/store/claim")), page.getByRole("button", { name: "Submit" }).click()]);
  expect(claimed.status()).toBe(201);
  expect(JSON.parse(claimed.request().postData())).toMatchObject({ pin_latitude: BEDFORD.latitude, pin_longitude: BEDFORD.longitude, pin_source: "device" });
  const claimId = (await claimed.json()).claim.id;
  await page.getByRole("heading", { name: "Thank You!" }).waitFor();

  await signIn(page);
  await page.getByRole("list", { name: "Claims" }).getByRole("button", { name: new RegExp(name) }).click();
  await expect(page.getByText(/from the owner's device at the store; 5\.1 mi from the centre of ZIP 11249/)).toBeVisible();
  await expect(page.getByText("Publishes the store at the owner's pin.")).toBeVisible();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/admin/claims/${claimId}/approve`)),
    page.getByRole("button", { name: "Approve", exact: true }).click(),
  ]);
  expect(answer.status()).toBe(200);
  const api = await httpRequest.newContext({ baseURL: server.url });
  await expect.poll(() => nearBedford(api, name), { message: "published at the owner's pin", timeout: 10_000 }).toBeTruthy();
  expect(metres(await nearBedford(api, name), BEDFORD)).toBeLessThan(5);
  await api.dispose();
});

test("/admin lists the store imported at a ZIP centre until the moderator places its pin", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Stores to place" }).click();
  const list = page.getByRole("list", { name: "Stores to place" });
  const item = list.getByRole("listitem").filter({ hasText: "Kent Ave Smoke" });
  await expect(item).toContainText("80 Kent Ave, Brooklyn, NY 11249");
  await expect(item).toContainText("ZIP centre only");
  await item.getByRole("button", { name: "Place the pin" }).click();
  await item.getByLabel("Latitude").fill("40.72193");
  await item.getByLabel("Longitude").fill("-73.96231");
  const [saved] = await Promise.all([
    page.waitForResponse((r) => /\/api\/admin\/stores\/\d+\/position$/.test(r.url())),
    item.getByRole("button", { name: "Save the pin" }).click(),
  ]);
  expect(saved.status()).toBe(200);
  expect(await saved.json()).toMatchObject({ latitude: 40.72193, longitude: -73.96231, geo_precision: "exact" });
  await page.getByText("Every published store has a placed pin.").waitFor();
});

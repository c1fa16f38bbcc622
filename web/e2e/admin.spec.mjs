// The /admin moderation page against the real binary, at 375 px: a moderator (created with
// `locator moderators add`) signs in, moves the marker of a claim submitted through the API,
// approves it, and the store is listed at the approved position. A second, look-alike claim on
// that store shows the field-by-field comparison: only the ticked field changes and the store
// keeps its position.
import { request as httpRequest } from "@playwright/test";
import { join } from "node:path";
import { addModerator, axe, dragMarker, expect, LIST_PATH, SHOTS, submitBoulderClaim, test } from "./fixtures.mjs";

const EMAIL = "moderator@example.com";
const PASSWORD = "correct horse battery staple";

test.use({
  serverOptions: {
    stores: 200,
    prepare: addModerator(EMAIL, PASSWORD),
  },
  viewport: { width: 375, height: 740 },
});

test("a moderator approves a claim at a moved position; the store is listed there", async ({ page, server }) => {
  // A claim, as the claim form would send it.
  const api = await httpRequest.newContext({ baseURL: server.url });
  const name = `E2E Moderated Books ${Date.now()}`;
  const claimId = await submitBoulderClaim(api, {
    business_name: name,
    email: "owner@example.com",
    website: "https://books.example",
    working_hours: "Mon-Fri 9am-6pm, Sat 10am-4pm, Sun closed",
    category: "Books",
  });

  await page.goto("/admin");
  // Wrong password, then the right one.
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").filter({ hasText: "Could not sign in" }).waitFor();
  await axe(page, "sign-in", { all: true });
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();

  const list = page.getByRole("list", { name: "Claims" });
  await list.getByRole("button", { name: new RegExp(name) }).click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(page.getByText("Yes: read as weekly hours")).toHaveCount(1);
  const latitude = page.getByLabel("Latitude");
  const longitude = page.getByLabel("Longitude");
  const lat0 = Number(await latitude.inputValue());
  const lon0 = Number(await longitude.inputValue());
  expect(Math.abs(lat0 - 40.0) < 0.3 && Math.abs(lon0 + 105.27) < 0.3, `geocoded near Boulder: ${lat0}, ${lon0}`).toBe(true);

  // Drag the marker 40 px right and 30 px down: the fields follow.
  await dragMarker(page, page);
  const lat = Number(await latitude.inputValue());
  const lon = Number(await longitude.inputValue());
  expect(lat < lat0 && lon > lon0, `the marker moved south-east: ${lat0},${lon0} -> ${lat},${lon}`).toBe(true);
  const answer = await approveShown(page, claimId, "admin-claim-375.png", "claim detail");
  expect(JSON.parse(answer.request().postData())).toEqual({ latitude: lat, longitude: lon });
  await page.getByRole("status").filter({ hasText: `Approved claim #${claimId}` }).waitFor();
  // The list is refetched after the notice shows: it drops the claim.
  await expect(list.getByRole("button", { name: new RegExp(name) }), "the pending list no longer has the claim").toHaveCount(0);

  // The search index picks up new stores on its next poll (--sync-interval, 1 s by default).
  const listed = async () => {
    const near = await api.get(`${LIST_PATH}?latitude=${lat}&longitude=${lon}&radius=5`);
    expect(near.status()).toBe(200);
    return (await near.json()).physical_stores.find((s) => s.name === name) ?? null;
  };
  await expect.poll(listed, { message: "the approved store is listed near its position", timeout: 10_000 }).not.toBeNull();
  const found = await listed();
  expect(Math.abs(found.latitude - lat) < 1e-5 && Math.abs(found.longitude - lon) < 1e-5, "at the approved coordinates").toBe(true);

  // A look-alike claim: same name and ZIP, another email and phone. The moderator sees the listed
  // store, ticks the phone only; the store keeps its name, hours and position.
  const again = await api.post("/api/store/claim", {
    data: {
      business_name: name,
      email: "someone-else@example.com",
      phone: "+1 303 555 0199",
      country: "United States",
      state: "CO",
      address1: "1950 Broadway",
      city: "Boulder",
      postal_code: "80302",
      working_hours: "Daily 8am-8pm",
    },
  });
  expect(again.status(), await again.text()).toBe(201);
  const againId = (await again.json()).claim.id;
  await page.reload(); // the list loads pending claims when the page opens
  await list.getByRole("button", { name: new RegExp(name) }).click();
  await expect(page.getByText(`Already listed as store #${found.id}.`)).toBeVisible();
  await expect(page.getByText("This store has no owner yet.")).toBeVisible();
  const comparison = page.getByRole("table");
  await expect(comparison.getByRole("row", { name: /Phone/ })).toContainText("+1 303 555 0199");
  expect(Number(await latitude.inputValue())).toBeCloseTo(lat, 5);
  await page.getByRole("checkbox", { name: "Use the claimed phone" }).check();
  const approved = await approveShown(page, againId, "admin-claim-compare-375.png", "claim comparison");
  expect(JSON.parse(approved.request().postData())).toEqual({ fields: ["phone_number"] });
  await page.getByRole("status").filter({ hasText: `Approved claim #${againId}: 1 field of store #${found.id} changed.` }).waitFor();
  await expect
    .poll(async () => (await listed())?.phone_number, { message: "the ticked phone is published", timeout: 10_000 })
    .toBe("+1 303 555 0199");
  const updated = await listed();
  expect(updated.name).toBe(name);
  expect(Math.abs(updated.latitude - lat) < 1e-5 && Math.abs(updated.longitude - lon) < 1e-5, "the store kept its position").toBe(true);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Moderator sign-in" }).waitFor();
  expect((await api.get("/api/admin/claims")).status(), "no moderator session in the request context").toBe(401);
  await api.dispose();
});

/** Shoots and checks (axe) the claim shown, approves it and returns the approve call's answer, a 200. */
async function approveShown(page, claimId, shot, what) {
  await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
  await axe(page, what, { all: true });
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/admin/claims/${claimId}/approve`)),
    page.getByRole("button", { name: "Approve", exact: true }).click(),
  ]);
  expect(answer.status()).toBe(200);
  return answer;
}

// Insights without tracking (docs/insights.md) against the real binary: a shopper searches a place
// with no store, opens an owner's store and presses Call and Directions; after the next flush
// (LOCATOR_INSIGHTS_FLUSH, short here) the owner's insights at /business show the call and the
// directions, and the operator's Demand view at /admin lists the place among the zero-result searches.
import { request as httpRequest } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { addModerator, expect, listResponse, submitBoulderClaim, test as base } from "./fixtures.mjs";
import { withSink } from "./sink.mjs";

const MODERATOR = { email: "moderator@example.com", password: "correct horse battery staple" };
const test = base.extend(
  withSink({ stores: 200, prepare: addModerator(MODERATOR.email, MODERATOR.password), env: { LOCATOR_INSIGHTS_FLUSH: "300ms", LOCATOR_INSIGHTS_SEARCH_FLUSH: "300ms" } }),
);

const owner = { name: `E2E Insights Books ${Date.now()}`, email: `insights-${Date.now()}@example.com`, password: "insight-tulip-7" };

/**
 * Waits for the beacon (POST /api/events, 204) that `action` sends. Chromium does not show a
 * beacon's body to the test, so `kind` only names it in a failure; actions run one at a time.
 */
async function beacon(page, kind, action) {
  const [sent] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/events")),
    action(),
  ]);
  expect(sent.status(), `the ${kind} beacon`).toBe(204);
}

test("a zero-result search, a store opened, Call and Directions: the owner's chart and the operator's zero-result list show them after the flush", async ({ page, server, sink }) => {
  // An owner with an approved store in Boulder, signed in through the mailed confirmation link.
  const api = await httpRequest.newContext({ baseURL: server.url });
  const claimId = await submitBoulderClaim(api, { business_name: owner.name, email: owner.email, category: "Books" });
  const created = await api.post("/api/store/create-user", { data: { store_name: owner.name, email: owner.email, password: owner.password, phone_number: "+1 303 555 0100" } });
  expect(created.status(), await created.text()).toBe(201);
  execFileSync(server.bin, ["claims", "approve", String(claimId), "--database-url", server.db], { stdio: "inherit" });
  const confirmMail = async () => (await sink.messages()).find((m) => m.to.includes(owner.email) && /\/business\/verify\?token=/.test(m.text));
  await expect.poll(confirmMail, { message: "the confirmation mail reached the sink" }).toBeTruthy();
  const link = /(http:\/\/\S+\/business\/verify\?token=[^\s"<>]+)/.exec((await confirmMail()).text)[1];
  await page.goto(link);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();
  const stores = await (await page.request.get("/api/business/stores")).json();
  const storeId = stores.stores[0].id;

  // The shopper: a place with no store.
  await page.goto("/");
  await page.getByRole("combobox", { name: "Search for a place" }).fill("Nome");
  const option = page.getByRole("option").filter({ hasText: "Nome" }).first();
  await option.waitFor();
  const searched = listResponse(page);
  await option.click();
  expect((await (await searched).json()).physical_stores).toEqual([]);

  // The owner's store, opened from a shared link: the panel counts itself.
  await beacon(page, "panel", () => page.goto(`/?store=${storeId}`));
  await expect(page.getByRole("heading", { level: 2, name: owner.name })).toBeVisible();
  // The test follows neither link (tel: has no handler here; directions opens a map site): the
  // app's click handlers run and send their beacons all the same.
  await page.evaluate(() =>
    document.addEventListener("click", (e) => e.target instanceof Element && e.target.closest("a[href^='tel:'], a[target='_blank']") && e.preventDefault(), true),
  );
  const actions = page.locator("article");
  await beacon(page, "call", () => actions.getByRole("link", { name: "Call", exact: true }).click());
  await beacon(page, "directions", () => actions.getByRole("link", { name: "Directions" }).click());

  // The owner's insights, once a flush wrote the counts.
  await expect
    .poll(async () => (await (await page.request.get(`/api/business/stores/${storeId}/insights?days=7`)).json()).current, {
      message: "the counts reached the database",
    })
    .toMatchObject({ panel: 1, call: 1, directions: 1 });
  await page.goto("/business");
  const insights = page.getByRole("region", { name: "Insights" });
  await expect(insights.locator('tr[data-metric="calls"] td').first()).toHaveText("1");
  await expect(insights.locator('tr[data-metric="directions"] td').first()).toHaveText("1");
  await expect(insights.getByTestId("insights-chart")).toBeVisible();

  // The operator's Demand view: Nome among the zero-result searches.
  await page.goto("/admin");
  await page.getByLabel("Email").fill(MODERATOR.email);
  await page.getByLabel("Password").fill(MODERATOR.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Demand" }).click();
  const places = page.getByRole("region", { name: "Top places by zero-result searches" });
  await expect(places.getByRole("row").filter({ hasText: "Nome" })).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Top places by zero-result searches" }).getByRole("rowheader").first()).toContainText("Nome");
});

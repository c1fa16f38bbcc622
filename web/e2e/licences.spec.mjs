// Licences from public registries against the real binary: registry files in NYC DCWP's and the
// FDA export's column layouts are written for three demo stores and imported with
// `locator licences import` into the server's database; the store panel and the store page show
// "Licence verified", the "Licence verified" filter keeps the licensed store (and rides in the
// URL), and a No-Tobacco-Sale Order shows as a warning. A claim made in the wizard with a licence
// number and delivery hours verifies the number on approval and publishes the hours.
import { request as httpRequest } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BOULDER_DOOR, expect, LIST_PATH, listResponse, test as base } from "./fixtures.mjs";

const test = base.extend({ serverOptions: [{ stores: 300 }, { scope: "worker" }] });

const csv = (rows) => rows.map((r) => r.map((v) => `"${String(v).replaceAll('"', '""')}"`).join(",")).join("\n") + "\n";
/** The columns of NYC DCWP's export. */
const header = ["business_unique_id", "license_nbr", "license_type", "license_status", "license_creation_date", "lic_expir_dd",
  "business_category", "business_name", "dba_trade_name", "address_building", "address_street_name", "address_street_name_2",
  "address_city", "address_state", "address_zip", "contact_phone", "address_borough", "latitude", "longitude"];
const isoDate = (d) => d.toISOString().slice(0, 10);
/** "Dec 31, 2026" */
const shown = (iso) => new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
/** 120 Main St -> building "120", street "Main St" (the DCWP export splits them). */
const split = (address) => {
  const street = address.split(",")[0];
  const i = street.indexOf(" ");
  return [street.slice(0, i), street.slice(i + 1)];
};

// First in the file: the suite's server has no registry loaded yet (the next test imports one).
test("with no registry loaded, \"Licence verified\" near Manhattan says why the list is empty and offers all stores (M8)", async ({ page, server }) => {
  const api = await httpRequest.newContext({ baseURL: server.url });
  const answer = await (await api.get(`${LIST_PATH}?latitude=40.758&longitude=-73.9855&radius=30&is_licence_verified=true`)).json();
  expect(answer.physical_stores).toEqual([]);
  expect(answer.licence_registry).toBe(false);

  const filtered = listResponse(page, (u) => u.searchParams.get("is_licence_verified") === "true");
  await page.goto("/?place=Manhattan&lat=40.758&lon=-73.9855&licensed=1");
  await filtered;
  const results = page.getByRole("region", { name: "Results" });
  await expect(results.getByText("No licence registry covers this area")).toBeVisible();
  await expect(results.getByText(/none we read lists the stores around here/)).toBeVisible();
  await expect(page.getByText("No Results Found")).toHaveCount(0);
  const chip = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: "Licence verified" });
  await expect(chip).toHaveAttribute("aria-pressed", "true");
  await expect(chip).toHaveAccessibleDescription("No licence registry covers this area");

  // The way out: every store near Manhattan again, the filter off (also in the URL).
  await results.getByRole("button", { name: "Show all stores" }).click();
  await expect(chip).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("list", { name: "Stores" }).getByRole("listitem").first()).toBeVisible();
  expect(new URL(page.url()).searchParams.get("licensed")).toBeNull();
  await api.dispose();
});

test("an imported registry verifies a store's licence, filters the list and warns of a No-Tobacco-Sale Order", async ({ page, server }) => {
  const api = await httpRequest.newContext({ baseURL: server.url });
  const res = await api.get(`${LIST_PATH}?latitude=40.7128&longitude=-74.006&radius=30&limit=10`);
  const [licensed, revoked, ordered] = (await res.json()).physical_stores;
  expect(ordered, "three demo stores around New York").toBeTruthy();

  const today = new Date();
  const expires = `${today.getUTCFullYear() + 1}-12-31`;
  const checked = isoDate(today);
  const dir = tmpdir();
  const row = (store, number, status) => [`BA-${number}`, number, "Business", status, "2024-01-15T00:00:00.000", `${expires}T00:00:00.000`,
    "Electronic Cigarette Retail Dealer", `${store.name.toUpperCase()} INC.`, "", ...split(store.address), "", store.city.toUpperCase(), "NY",
    store.postal_code, "", "", store.latitude, store.longitude];
  const nyc = join(dir, `dcwp-${process.pid}.csv`);
  writeFileSync(nyc, csv([header, row(licensed, "2091234", "Active"), row(revoked, "2091300", "Revoked"),
    ["BA-bad", "", "Business", "Active", "", "", "Tobacco Retail Dealer", "NO NUMBER", "", "1", "Main St", "", "NEW YORK", "NY", "10001", "", "", "", ""]]));
  // A bad row is reported (exit status 1); the good ones are imported.
  let out = "";
  try {
    execFileSync(server.bin, ["licences", "import", "--source", "nyc-dcwp", "--date", checked, "--database-url", server.db, nyc], { encoding: "utf8" });
  } catch (e) {
    out = e.stdout;
  }
  expect(out).toContain("license_nbr is empty");
  expect(out).toMatch(/2 rows .* 1 bad; 2 matched/);

  const decided = new Date(today.getTime() - 5 * 86400_000);
  const mmddyyyy = (d) => `${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCDate()).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const fda = join(dir, `fda-${process.pid}.csv`);
  writeFileSync(fda, csv([["Retailer Name", "Street Address", "City", "State", "Zip", "Sale to Minor", "Product Type", "Decision Date", "Inspection Result"],
    [ordered.name, ordered.address.split(",")[0], ordered.city, "NY", ordered.postal_code, "Yes", "ENDS", mmddyyyy(decided), "No-Tobacco-Sale Order"]]));
  execFileSync(server.bin, ["licences", "import", "--source", "fda-compliance-checks", "--date", checked, "--database-url", server.db, fda], { stdio: "inherit" });

  // The running server's search index reads the imports from the change feed at its next poll
  // (the licence filter); the panel's lines come with the whole store (the one-store answer).
  const listed = async (id, filter = "") => (await (await api.get(`${LIST_PATH}?latitude=40.7128&longitude=-74.006&radius=30&limit=10${filter}`)).json())
    .physical_stores.find((s) => s.id === id);
  const whole = async (id) => (await api.get(`/api/store/physical-store/${id}`)).json();
  await expect.poll(async () => (await listed(licensed.id, "&is_licence_verified=true"))?.id ?? null, { message: "the index has the imported licence" }).toBe(licensed.id);
  // The server reads where registries cover at its poll interval, also after an import by the command line.
  await expect.poll(async () => (await (await api.get(`${LIST_PATH}?latitude=40.7128&longitude=-74.006&radius=5`)).json()).licence_registry, { message: "NYC's registry covers New York" }).toBe(true);
  expect((await (await api.get(`${LIST_PATH}?latitude=30.2672&longitude=-97.7431&radius=30`)).json()).licence_registry, "no registry covers Austin").toBe(false);
  await expect.poll(async () => (await whole(licensed.id))?.licence?.status ?? null, { message: "the store has the imported licence" }).toBe("active");
  await expect.poll(async () => (await whole(ordered.id))?.enforcement?.length ?? 0, { message: "the store has the imported order" }).toBeGreaterThan(0);

  // The store panel.
  const line = `Licence verified · NYC Electronic Cigarette Retail Dealer #2091234 · expires ${shown(expires)} · source checked ${shown(checked)}`;
  await page.goto(`/?store=${licensed.id}`);
  await page.getByRole("heading", { level: 2, name: licensed.name }).waitFor();
  await expect(page.getByText(line)).toBeVisible();
  await expect(page.getByRole("link", { name: "registry record" })).toHaveAttribute("href", /license_nbr=2091234/);

  await page.goto(`/?store=${revoked.id}`);
  await page.getByRole("heading", { level: 2, name: revoked.name }).waitFor();
  await expect(page.getByText(/^Licence revoked · NYC Electronic Cigarette Retail Dealer #2091300/)).toBeVisible();

  await page.goto(`/?store=${ordered.id}`);
  await page.getByRole("heading", { level: 2, name: ordered.name }).waitFor();
  await expect(page.getByRole("note")).toContainText(`FDA No-Tobacco-Sale Order from ${shown(isoDate(decided))}`);

  // The store page (the id alone redirects to its canonical address) and its JSON-LD.
  await expect
    .poll(async () => {
      await page.goto(`/stores/ny/any/store-${licensed.id}`);
      await page.getByRole("heading", { level: 1, name: licensed.name }).waitFor();
      return page.getByText(line).count();
    }, { message: "the store page (read from the search index) shows the licence" })
    .toBe(1);
  const ld = await page.locator('script[type="application/ld+json"]').first().textContent();
  expect(JSON.parse(ld).hasCredential).toMatchObject({ identifier: "2091234", credentialCategory: "license" });

  // The filter: off by default, then only the licensed store, kept in the URL. The index
  // follows the change feed within its poll interval.
  await page.goto(`/?lat=${licensed.latitude}&lon=${licensed.longitude}`);
  const chip = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: "Licence verified" });
  await expect(chip).toHaveAttribute("aria-pressed", "false");
  const filtered = listResponse(page, (u) => u.searchParams.get("is_licence_verified") === "true");
  await chip.click();
  await filtered;
  await expect(chip).toHaveAttribute("aria-pressed", "true");
  expect(new URL(page.url()).searchParams.get("licensed")).toBe("1");
  const names = page.getByRole("list", { name: "Stores" }).locator("li button [data-part=name]");
  // A reload returns at the load event, before the app (loaded after the server-written first
  // frame) has drawn the list: each try waits for the list itself, never reads it at once.
  await expect(async () => {
    await page.reload();
    await expect(names, "the licensed store alone passes the filter").toHaveText([licensed.name], { timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  await expect(chip).toHaveAttribute("aria-pressed", "true");
});

test("a claim's licence number verifies on approval and its delivery hours are published", async ({ page, server }) => {
  // A DCWP-layout row at the claimed address (the offline gazetteer places Boulder's ZIP).
  const number = "2097777";
  const dcwp = join(tmpdir(), `dcwp-claim-${process.pid}.csv`);
  writeFileSync(dcwp, csv([header, [`BA-${number}`, number, "Business", "Active", "2024-01-15T00:00:00.000", `${new Date().getUTCFullYear() + 1}-12-31T00:00:00.000`,
    "Electronic Cigarette Retail Dealer", "FLATIRON VAPOR LLC", "", "1942", "BROADWAY", "", "BOULDER", "CO", "80302", "", "", "", ""]]));
  execFileSync(server.bin, ["licences", "import", "--source", "nyc-dcwp", "--date", isoDate(new Date()), "--database-url", server.db, dcwp], { stdio: "inherit" });

  const name = `Flatiron Vapor ${process.pid}-${test.info().repeatEachIndex}`;
  await page.goto("/claim");
  for (const [label, value] of [["Business name", name], ["Email", `flatiron-${Date.now()}@example.com`], ["Phone", "+1 303 555 0142"]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  for (const [label, value] of [["Country", "United States"], ["City", "Boulder"], ["Postal code", "80302"], ["Address", "1942 Broadway"],
    ["Working hours (optional)", "Mon-Sat 10am-8pm"], ["Licence number (optional)", number]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByText("Delivery, curbside pickup and online ordering hours (optional)").click();
  await page.getByLabel("Delivery hours (optional)", { exact: true }).fill("Mon-Fri 11am-7pm");
  await page.getByRole("button", { name: "Add business" }).click();
  await page.getByLabel("Password", { exact: true }).fill("flatiron-pass-1");
  const [claimed] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/store/claim")),
    page.getByRole("button", { name: "Submit" }).click(),
  ]);
  expect(claimed.status()).toBe(201);
  const claimId = (await claimed.json()).claim.id;
  await page.getByRole("heading", { name: "Thank You!" }).waitFor();

  const show = () => JSON.parse(execFileSync(server.bin, ["claims", "show", String(claimId), "--json", "--database-url", server.db], { encoding: "utf8" }));
  const pending = show();
  expect(pending).toMatchObject({ licence_number: number, licence_verified: null, delivery_hours: "Mon-Fri 11am-7pm" });
  expect(pending.service_hours_read).toEqual([{ service: "delivery", parsed: true, notes: [] }]);
  // The moderator places the pin at the door: the gazetteer knows only the ZIP's centre.
  const at = ["--lat", String(BOULDER_DOOR.latitude), "--lon", String(BOULDER_DOOR.longitude)];
  execFileSync(server.bin, ["claims", "approve", String(claimId), ...at, "--database-url", server.db], { stdio: "inherit" });
  const approved = show();
  expect(approved.licence_verified, "the registry lists the number at the claimed address").toBe(true);

  const api = await httpRequest.newContext({ baseURL: server.url });
  await expect
    .poll(async () => {
      const res = await api.get(`/api/store/physical-store/${approved.store_id}`);
      if (!res.ok()) return null;
      const store = await res.json();
      const open = (store.services?.delivery?.hours ?? []).filter((h) => h.startTime !== null).map((h) => `${h.weekDay} ${h.startTime}-${h.endTime}`);
      return { licence: store.licence?.number, delivery: store.is_delivery_available, open };
    }, { message: "the store shows the licence and its own delivery hours" })
    .toEqual({ licence: number, delivery: true, open: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].map((d) => `${d} 11:00-19:00`) });
});

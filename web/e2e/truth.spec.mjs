// One truth per store (issue #39, M2 and M3) against the real binary, with the browser's clock
// fixed in the evening: a store whose owner kept a free-text hours line written for former hours
// reads a line made from its weekly hours in the panel and on its page; a store closing tomorrow
// "until further notice" tells of it, with its note, in the list and the panel as its page does;
// hours read "Open 24 hours" and phones their national format.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, listResponse, test } from "./fixtures.mjs";

const STALE = "E2E Stale Hours Shop";
const CLOSING = "E2E Renovation Shop";
const STALE_TEXT = "Mon-Sat 10am-9pm";
const DERIVED = "Mon–Fri 8:00 AM – 8:00 PM · Sat, Sun closed";

/** The date in New York `days` from now (the server answers by its own clock). */
function nyDate(days) {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

const TODAY = nyDate(0);
const TOMORROW = nyDate(1);
/** "Dec 3", as the app and the store page write a date. */
const short = (date) => new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const CLOSURE = `Temporarily closed from ${short(TOMORROW)} until further notice · Renovation`;

const ALL_DAY = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map((d) => `${d} 00:00-00:00`).join("; ");
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"].map((d) => `${d} 08:00-20:00`).join("; ");

test.use({
  serverOptions: {
    stores: 300,
    prepare: ({ bin, db, dir }) => {
      const file = join(dir, "truth.csv");
      // At the default centre of the map: first in the list. The stale store's text is what its owner
      // wrote for the hours it had before the week was changed (in /business, the walk's case).
      writeFileSync(
        file,
        "store_id,name,latitude,longitude,phone_number,hours,working_hours,temporarily_closed_from,temporarily_closed_note\n" +
          `e2e-stale,${STALE},40.7128,-74.006,+19175550166,${STALE_TEXT},${WEEKDAYS},,\n` +
          `e2e-closing,${CLOSING},40.71281,-74.00601,,,${ALL_DAY},${TOMORROW},Renovation\n`,
      );
      execFileSync(bin, ["import", "--database-url", db, file], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    },
  },
});

/** Opens the locator in the evening in New York on the server's today (23:30 UTC is 18:30 or 19:30 there); gives the list answer. */
async function openEvening(page) {
  await page.clock.setFixedTime(new Date(`${TODAY}T23:30:00Z`));
  const first = listResponse(page);
  await page.goto("/");
  return (await first).json();
}

test("M2: the hours line under the name follows the weekly hours, not a text written for former hours; one time and phone format", async ({ page }) => {
  const answer = await openEvening(page);
  const stale = answer.physical_stores.find((s) => s.name === STALE);
  expect(stale, "the stale store is listed").toBeTruthy();
  // The API's line is made from the week, not the owner's former text.
  expect(stale.hours).toBe(DERIVED);

  await page.getByRole("list", { name: "Stores" }).getByRole("listitem").filter({ hasText: STALE }).getByRole("button").first().click();
  const panel = page.getByRole("article");
  await expect(page.getByRole("heading", { level: 2, name: STALE })).toBeVisible();
  await expect(panel).toContainText(DERIVED);
  await expect(panel).not.toContainText(STALE_TEXT);
  // m10: one time format and the national phone format.
  await expect(panel.getByRole("row", { name: /Monday/ })).toContainText("8:00 AM – 8:00 PM");
  await expect(panel.getByRole("link", { name: "(917) 555-0166" })).toHaveAttribute("href", "tel:+19175550166");
  await expect(panel).not.toContainText("+19175550166");

  // The store page says the same.
  const html = await (await page.request.get(`/stores/x/y/${stale.id}`)).text();
  expect(html).toContain(DERIVED);
  expect(html).not.toContain(STALE_TEXT);
  expect(html).toContain("(917) 555-0166");
});

test("M3: a closure starting tomorrow is told with its note in the list and the panel, as on the store page", async ({ page }) => {
  const answer = await openEvening(page);
  const closing = answer.physical_stores.find((s) => s.name === CLOSING);
  expect(closing, "the closing store is listed").toBeTruthy();
  expect(closing.temporarily_closed).toMatchObject({ from: TOMORROW, until: null, note: "Renovation" });

  // The list row tells of the closure to come, after "Opened".
  const row = page.getByRole("list", { name: "Stores" }).getByRole("listitem").filter({ hasText: CLOSING });
  await expect(row).toContainText("Opened");
  await expect(row).toContainText(CLOSURE);

  await row.getByRole("button").first().click();
  const panel = page.getByRole("article");
  await expect(page.getByRole("heading", { level: 2, name: CLOSING })).toBeVisible();
  await expect(panel.getByRole("note").filter({ hasText: "Temporarily closed" })).toHaveText(CLOSURE);
  // m9: a day open around the clock.
  await expect(panel.getByRole("row", { name: /Monday/ })).toHaveText("MondayOpen 24 hours");
  await expect(panel).not.toContainText("00:00 - 00:00");

  // The store page (by the server's clock: the closure starts tomorrow there too).
  const html = await (await page.request.get(`/stores/x/y/${closing.id}`)).text();
  expect(html).toContain(CLOSURE);
  expect(html).toContain("Open 24 hours");
});

// Special hours against the real binary, with the browser's clock fixed: a store imported with
// its special hours closing it today reads "Closed" with its note in the list and the panel, its
// Working Hours table lists the special dates, and it is absent from Open now.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, listResponse, test } from "./fixtures.mjs";

const NAME = "E2E Holiday Shop";
const NOTE = "E2E Holiday";

/** The date in New York `days` from now (the server decides open now by its own clock). */
function nyDate(days) {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

// Open around the clock, but closed by special hours yesterday, today and tomorrow (New York),
// so the server's "today" is closed even if the run crosses midnight.
const TODAY = nyDate(0);
const SPECIAL = [-1, 0, 1].map((d) => `${nyDate(d)} closed ${NOTE}`).join("; ");
const WEEK = "Sun 00:00-00:00; Mon 00:00-00:00; Tue 00:00-00:00; Wed 00:00-00:00; Thu 00:00-00:00; Fri 00:00-00:00; Sat 00:00-00:00";

test.use({
  serverOptions: {
    stores: 300,
    prepare: ({ bin, db, dir }) => {
      const file = join(dir, "holiday.csv");
      // At the default centre of the map: first in the list.
      writeFileSync(file, `store_id,name,latitude,longitude,working_hours,special_hours\ne2e-holiday,${NAME},40.7128,-74.006,${WEEK},${SPECIAL}\n`);
      execFileSync(bin, ["import", "--database-url", db, file], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    },
  },
});

test("a store closed today by special hours reads Closed with its note and is absent from Open now", async ({ page }) => {
  // Noon in New York on the server's today (17:00 UTC is that date in New York all year).
  await page.clock.setFixedTime(new Date(`${TODAY}T17:00:00Z`));
  const first = listResponse(page);
  await page.goto("/");
  const answer = await (await first).json();
  const mine = answer.physical_stores.find((s) => s.name === NAME);
  expect(mine, "the imported store is listed").toBeTruthy();
  expect(mine.open_now).toBe(false);
  expect(mine.special_hours.map((h) => h.note)).toEqual([NOTE, NOTE, NOTE]);

  const item = page.getByRole("list", { name: "Stores" }).getByRole("listitem").filter({ hasText: NAME });
  await expect(item).toContainText("Closed");
  await expect(item).toContainText(`Closed today · ${NOTE}`);
  await expect(item).not.toContainText("Opened");

  await item.getByRole("button").click();
  await expect(page.getByRole("heading", { level: 2, name: NAME })).toBeVisible();
  await expect(page.getByRole("article").getByText(`Closed today · ${NOTE}`)).toBeVisible();
  const special = page.getByRole("table", { name: "Special hours" });
  await expect(special.getByRole("row")).toHaveCount(2); // today and tomorrow
  await expect(special.getByRole("row").first()).toContainText(`Closed · ${NOTE}`);
  await expect(page.locator('tr[aria-current="date"]')).toHaveCount(1); // today, marked
  await page.getByRole("button", { name: "Back to results" }).click();

  const chip = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: "Open now" });
  const filtered = listResponse(page, (u) => u.searchParams.get("is_open_now") === "true");
  await chip.click();
  const open = await (await filtered).json();
  expect(open.physical_stores.map((s) => s.name)).not.toContain(NAME);
  await expect(chip).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("list", { name: "Stores" }).getByRole("listitem").filter({ hasText: NAME })).toHaveCount(0);
});

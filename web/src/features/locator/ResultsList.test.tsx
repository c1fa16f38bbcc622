import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { WEEKDAYS } from "../../lib/constants";
import { makeStore } from "../../test/fixtures";
import { ResultsList } from "./ResultsList";

const daily = WEEKDAYS.map((weekDay) => ({ weekDay, startTime: "09:00", endTime: "21:00" }));

describe("ResultsList", () => {
  it("shows Opened or Closed by the real rule, with what comes next, at the time it is given", () => {
    const stores = [
      makeStore({ id: 1, name: "Late Night", workingHours: daily }),
      makeStore({ id: 2, name: "Thanksgiving Shop", workingHours: daily, special_hours: [{ date: "2026-11-26", closed: true, startTime: null, endTime: null, note: "Thanksgiving" }] }),
      makeStore({ id: 3, name: "Gone For Good", workingHours: daily, permanently_closed: true }),
    ];
    const rows = (now: string) => {
      const { unmount } = render(<ResultsList stores={stores} onSelect={vi.fn()} now={new Date(now)} />);
      const out = within(screen.getByRole("list", { name: "Stores" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent?.replace(/\(\d+ reviews\)/, "").replace(/Rated [\d.]+ out of 5/, ""));
      unmount();
      return out;
    };
    // 02:53 on Thanksgiving morning in New York: the spec's literal rule said "Opened".
    expect(rows("2026-11-26T02:53:00-05:00")).toEqual(["Late NightClosedOpens 9:00 AM", "Thanksgiving ShopClosedClosed today · Thanksgiving", "Gone For GoodClosedPermanently closed"]);
    expect(rows("2026-11-27T20:30:00-05:00")).toEqual(["Late NightOpenedCloses soon · 9:00 PM", "Thanksgiving ShopOpenedCloses soon · 9:00 PM", "Gone For GoodClosedPermanently closed"]);
  });
});

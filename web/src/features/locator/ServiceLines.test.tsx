import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NO_FILTERS } from "./api/list-physical-stores";
import { filterLabel } from "./FilterChips";
import { makeService, makeStore } from "../../test/fixtures";
import { ServiceLines } from "./ServiceLines";
import { WorkingHoursTable } from "./WorkingHoursTable";

describe("the panel's services", () => {
  const store = makeStore({
    services: {
      delivery: makeService({
        offered: true,
        available_now: true,
        until: "2026-11-27T20:00:00-05:00",
        last_order_at: "2026-11-27T19:30:00-05:00",
        hours: [{ weekDay: "Friday", startTime: "11:00", endTime: "20:00" }],
      }),
      curbside_pickup: makeService({ offered: true, paused_until: "2026-11-27T14:00:00-05:00", next_start: "2026-11-27T14:00:00-05:00" }),
      online_order: makeService(),
    },
  });
  const now = new Date("2026-11-27T12:00:00-05:00");

  it("shows a line per offered service", () => {
    render(<ServiceLines store={store} now={now} />);
    expect(within(screen.getByRole("list", { name: "Services" })).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Delivery until 8:00 PM · order by 7:30 PM",
      "Curbside pickup paused today · back at 2:00 PM",
    ]);
  });

  it("shows a service's own week under the store's", () => {
    render(<WorkingHoursTable store={store} now={now} />);
    const rows = within(screen.getByRole("table", { name: "Delivery hours" })).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toContain("Friday11:00 AM – 8:00 PM");
    expect(screen.queryByRole("table", { name: "Curbside pickup hours" })).not.toBeInTheDocument();
  });
});

describe("filter chips", () => {
  it("keep the spec's texts, and say Delivery now etc. while Open now is on", () => {
    expect(["open", "delivery", "online", "curbside"].map((k) => filterLabel(k as keyof typeof NO_FILTERS, NO_FILTERS))).toEqual([
      "Open now",
      "Delivery",
      "Order online",
      "Curbside pickup",
    ]);
    const open = { ...NO_FILTERS, open: true };
    expect(["open", "delivery", "online", "curbside"].map((k) => filterLabel(k as keyof typeof NO_FILTERS, open))).toEqual([
      "Open now",
      "Delivery now",
      "Order online now",
      "Curbside pickup now",
    ]);
  });
});

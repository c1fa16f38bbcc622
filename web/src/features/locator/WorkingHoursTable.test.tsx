import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { WorkingHour } from "../../api/types";
import { NO_HOURS_NOTICE, WorkingHoursTable } from "./WorkingHoursTable";

describe("WorkingHoursTable", () => {
  it("lists Sunday to Saturday with Closed for a day without times", () => {
    const hours: WorkingHour[] = [
      { weekDay: "Monday", startTime: "09:00", endTime: "17:00" },
      { weekDay: "Tuesday", startTime: "10:00", endTime: null },
      { weekDay: "Friday", startTime: "18:00", endTime: "02:00" },
      { weekDay: "Saturday", startTime: "00:00", endTime: "00:00" },
    ];
    render(<WorkingHoursTable store={{ workingHours: hours }} />);
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "SundayClosed",
      "Monday9:00 AM – 5:00 PM",
      "TuesdayClosed",
      "WednesdayClosed",
      "ThursdayClosed",
      "Friday6:00 PM – 2:00 AM",
      "SaturdayOpen 24 hours", // one time format, and no "00:00 - 00:00" (issue #39, m9 m10)
    ]);
    expect(screen.queryByText(NO_HOURS_NOTICE)).not.toBeInTheDocument();
  });

  it("shows the notice when the store has no working hours", () => {
    render(<WorkingHoursTable store={{ workingHours: [] }} />);
    expect(screen.getByText("Attention Customers: This store does not have set business hours.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("collapses and expands under the Working Hours button", async () => {
    render(<WorkingHoursTable store={{ workingHours: [{ weekDay: "Monday", startTime: "09:00", endTime: "17:00" }] }} />);
    const toggle = screen.getByRole("button", { name: "Working Hours" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(screen.getByRole("table")).toBeInTheDocument();
  });
});

describe("WorkingHoursTable with the clock", () => {
  it("marks today in the store's zone and lists the special hours from today on", () => {
    const now = new Date("2026-11-26T02:00:00Z"); // Wednesday 21:00 in New York, already Thursday in UTC
    render(
      <WorkingHoursTable
        store={{
          workingHours: [{ weekDay: "Wednesday", startTime: "09:00", endTime: "21:00" }],
          time_zone: "America/New_York",
          special_hours: [
            { date: "2026-11-24", closed: true, startTime: null, endTime: null, note: "yesterday: not listed" },
            { date: "2026-11-26", closed: true, startTime: null, endTime: null, note: "Thanksgiving" },
            { date: "2026-12-24", closed: false, startTime: "09:00", endTime: "12:00", note: "Christmas Eve" },
            { date: "2026-12-24", closed: false, startTime: "13:00", endTime: "15:00", note: null },
          ],
        }}
        now={now}
      />,
    );
    const week = within(screen.getAllByRole("table")[0]!);
    expect(week.getByRole("row", { current: "date" })).toHaveTextContent("Wednesday (today)9:00 AM – 9:00 PM");
    expect(week.getAllByRole("row").filter((r) => r.getAttribute("aria-current"))).toHaveLength(1);
    const special = within(screen.getByRole("table", { name: "Special hours" }));
    expect(special.getAllByRole("row").map((r) => r.textContent)).toEqual(["Thu, Nov 26Closed · Thanksgiving", "Thu, Dec 249:00 AM – 12:00 PM, 1:00 PM – 3:00 PM · Christmas Eve"]);
  });

  it("keeps the no-hours notice and still lists special hours", () => {
    render(<WorkingHoursTable store={{ workingHours: [], special_hours: [{ date: "2026-11-26", closed: false, startTime: "10:00", endTime: "14:00", note: null }] }} />);
    expect(screen.getByText(NO_HOURS_NOTICE)).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Special hours" })).toHaveTextContent("10:00 AM – 2:00 PM");
  });
});

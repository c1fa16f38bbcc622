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
    ];
    render(<WorkingHoursTable hours={hours} />);
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "SundayClosed",
      "Monday09:00 - 17:00",
      "TuesdayClosed",
      "WednesdayClosed",
      "ThursdayClosed",
      "Friday18:00 - 02:00",
      "SaturdayClosed",
    ]);
    expect(screen.queryByText(NO_HOURS_NOTICE)).not.toBeInTheDocument();
  });

  it("shows the notice when the store has no working hours", () => {
    render(<WorkingHoursTable hours={[]} />);
    expect(screen.getByText("Attention Customers: This store does not have set business hours.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("collapses and expands under the Working Hours button", async () => {
    render(<WorkingHoursTable hours={[{ weekDay: "Monday", startTime: "09:00", endTime: "17:00" }]} />);
    const toggle = screen.getByRole("button", { name: "Working Hours" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(screen.getByRole("table")).toBeInTheDocument();
  });
});

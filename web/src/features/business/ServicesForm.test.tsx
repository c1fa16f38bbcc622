import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ServicesForm } from "./ServicesForm";
import { makeBusinessStore } from "./testing";
import type { StorePatch } from "./types";

// Generous, as HolidayForm.test.tsx: user-event typing is slow on a loaded 2-core machine.
describe("Service hours: special dates", { timeout: 20_000 }, () => {
  it("adds a closed date to delivery with the store's checks and sends it alone", async () => {
    const sent: StorePatch[] = [];
    const onSubmit = vi.fn((patch: StorePatch) => {
      sent.push(patch);
      return Promise.resolve();
    });
    const user = userEvent.setup();
    render(<ServicesForm store={makeBusinessStore({ is_delivery_available: true })} busy={false} onSubmit={onSubmit} />);
    const form = screen.getByRole("form", { name: "Delivery settings" });
    const dates = within(form).getByRole("group", { name: "Delivery special dates" });
    expect(within(dates).getByText("No special dates.")).toBeInTheDocument();

    await user.click(within(dates).getByRole("button", { name: "Add date" }));
    expect(within(dates).getByText("Enter a date")).toBeInTheDocument();
    await user.type(within(dates).getByLabelText("Delivery date"), "2026-11-27");
    await user.click(within(dates).getByRole("checkbox", { name: "Delivery closed all day" }));
    await user.type(within(dates).getByLabelText("Delivery opens"), "12:00");
    await user.click(within(dates).getByRole("button", { name: "Add date" }));
    expect(within(dates).getByText("Give an opening and a closing time, or mark the date closed")).toBeInTheDocument();
    await user.click(within(dates).getByRole("checkbox", { name: "Delivery closed all day" }));
    await user.type(within(dates).getByLabelText("Delivery note"), "Van in the garage");
    await user.click(within(dates).getByRole("button", { name: "Add date" }));
    expect(within(dates).getByText("2026-11-27: closed · Van in the garage")).toBeInTheDocument();
    // The other services' editors are their own.
    expect(within(screen.getByRole("form", { name: "Curbside pickup settings" })).getByText("No special dates.")).toBeInTheDocument();

    await user.click(within(form).getByRole("button", { name: "Save delivery hours" }));
    expect(sent).toEqual([
      { services: { delivery: { special_hours: [{ date: "2026-11-27", closed: true, startTime: null, endTime: null, note: "Van in the garage" }] } } },
    ]);
  });

  it("removes a service's date", async () => {
    const onSubmit = vi.fn(async () => {});
    const user = userEvent.setup();
    const closed = { date: "2026-12-25", closed: true, startTime: null, endTime: null, note: null };
    const store = makeBusinessStore();
    render(
      <ServicesForm
        store={makeBusinessStore({ services: { ...store.services, online_order: { ...store.services.online_order, special_hours: [closed] } } })}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    const form = screen.getByRole("form", { name: "Online orders settings" });
    await user.click(within(form).getByRole("button", { name: "Remove 2026-12-25: closed" }));
    await user.click(within(form).getByRole("button", { name: "Save online orders hours" }));
    expect(onSubmit).toHaveBeenCalledWith({ services: { online_order: { special_hours: [] } } });
  });
});

describe("Service hours: the own week's first values", { timeout: 20_000 }, () => {
  it("start from the store's hours as they are now, not as the page first had them (issue #39, m28)", async () => {
    const user = userEvent.setup();
    const before = makeBusinessStore({ is_delivery_available: true });
    const { rerender } = render(<ServicesForm store={before} busy={false} onSubmit={vi.fn(async () => {})} />);
    // The owner saves new store hours: the dashboard's store answer changes under the form.
    const after = { ...before, workingHours: [{ weekDay: "Monday" as const, startTime: "08:00", endTime: "22:00" }] };
    rerender(<ServicesForm store={after} busy={false} onSubmit={vi.fn(async () => {})} />);
    const form = screen.getByRole("form", { name: "Delivery settings" });
    await user.click(within(form).getByRole("checkbox", { name: "Delivery has its own hours" }));
    expect(within(form).getByLabelText("Delivery Monday opens")).toHaveValue("08:00");
    expect(within(form).getByLabelText("Delivery Monday closes")).toHaveValue("22:00");
  });
});

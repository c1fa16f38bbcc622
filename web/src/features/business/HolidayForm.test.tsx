import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { addEntry, holidayPatch, validateClosure, validateNewDate } from "./holidayForm";
import { businessAccount, makeBusinessStore, stubPatchRefusedOnce } from "./testing";

const account = businessAccount;
const now = new Date("2026-11-23T12:00:00Z");

describe("holidayForm", () => {
  it("checks a new date and a closure with the server's limits", () => {
    expect(validateNewDate({ date: "", closed: true, start: "", end: "", note: "" })).toEqual({ date: "Enter a date" });
    expect(validateNewDate({ date: "2026-12-25", closed: false, start: "10:00", end: "", note: "x".repeat(101) })).toEqual({
      times: "Give an opening and a closing time, or mark the date closed",
      note: "Note must be at most 100 characters",
    });
    expect(validateClosure({ closed: true, from: "2026-12-02", until: "2026-12-01", note: "" })).toEqual({ until: "The closure cannot end before it starts" });
    expect(validateClosure({ closed: true, from: "", until: "", note: "" })).toEqual({ from: "Enter the first day of the closure" });
    expect(validateClosure({ closed: false, from: "", until: "", note: "" })).toEqual({});
  });

  it("keeps the list by date and sends only what changed", () => {
    const open = { date: "2026-12-24", closed: false, startTime: "10:00", endTime: "14:00", note: null };
    const closed = { date: "2026-12-25", closed: true, startTime: null, endTime: null, note: "Christmas" };
    expect(addEntry([closed], open)).toEqual([open, closed]);
    expect(addEntry([open], { ...open, closed: true, startTime: null, endTime: null })).toHaveLength(1);
    const store = makeBusinessStore({ special_hours: [closed], temporarily_closed: { from: "2027-01-02", until: null, note: "Works" } });
    expect(holidayPatch(store, [closed], { closed: true, from: "2027-01-02", until: "", note: "Works" })).toEqual({});
    expect(holidayPatch(store, [], { closed: false, from: "", until: "", note: "" })).toEqual({ special_hours: [], temporarily_closed: null });
  });
});

// Generous, as AdminPage.test.tsx: user-event typing is slow on a loaded 2-core machine.
describe("Holiday hours and closures", { timeout: 20_000 }, () => {
  it("adds a closed date with a note and a closure, shows the server's refusal, then its answer", async () => {
    const calls = stubPatchRefusedOnce('special_hours entry 1: date "2026-11-23" is not a date (YYYY-MM-DD, years 2000-2100)', "Changes saved and published.");
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    const form = await screen.findByRole("form", { name: "Holiday hours and closures" });
    expect(within(form).getByText("No special dates.")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Add date" }));
    expect(within(form).getByText("Enter a date")).toBeInTheDocument();

    await user.type(within(form).getByLabelText("Date"), "2026-11-23");
    await user.type(within(form).getByLabelText("Note"), "Staff party");
    await user.click(within(form).getByRole("button", { name: "Add date" }));
    expect(within(form).getByText("2026-11-23: closed · Staff party")).toBeInTheDocument();

    await user.click(within(form).getByRole("checkbox", { name: "Temporarily closed" }));
    await user.click(within(form).getByRole("button", { name: "Save holiday hours and closures" }));
    expect(within(form).getByText("Enter the first day of the closure")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "PATCH")).toBe(false);
    await user.type(within(form).getByLabelText("Closed from"), "2026-12-01");
    await user.type(within(form).getByLabelText("Closure note"), "Renovation");

    await user.click(within(form).getByRole("button", { name: "Save holiday hours and closures" }));
    expect(await screen.findByText('special_hours entry 1: date "2026-11-23" is not a date (YYYY-MM-DD, years 2000-2100)')).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Save holiday hours and closures" }));
    expect(await screen.findByText("Changes saved and published.")).toBeInTheDocument();
    const patches = calls.filter((c) => c.method === "PATCH").map((c) => c.body);
    expect(patches[1]).toEqual({
      special_hours: [{ date: "2026-11-23", closed: true, startTime: null, endTime: null, note: "Staff party" }],
      temporarily_closed: { from: "2026-12-01", until: null, note: "Renovation" },
    });
  });

  it("adds special opening hours and removes a date", async () => {
    const calls = stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": {
        body: { stores: [makeBusinessStore({ special_hours: [{ date: "2026-12-25", closed: true, startTime: null, endTime: null, note: "Christmas" }] })] },
      },
      "PATCH /api/business/stores/5": (call) => ({
        body: { message: "Changes saved and published.", store: makeBusinessStore({ ...(call.body as object) }), change_request: null },
      }),
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    const form = await screen.findByRole("form", { name: "Holiday hours and closures" });
    await user.click(within(form).getByRole("button", { name: "Remove 2026-12-25: closed · Christmas" }));
    await user.type(within(form).getByLabelText("Date"), "2026-12-24");
    await user.click(within(form).getByRole("checkbox", { name: "Closed all day" }));
    await user.type(within(form).getByLabelText("Opens"), "10:00");
    await user.click(within(form).getByRole("button", { name: "Add date" }));
    expect(within(form).getByText("Give an opening and a closing time, or mark the date closed")).toBeInTheDocument();
    await user.type(within(form).getByLabelText("Closes"), "14:00");
    await user.click(within(form).getByRole("button", { name: "Add date" }));
    await user.click(within(form).getByRole("button", { name: "Save holiday hours and closures" }));
    expect(await screen.findByText("Changes saved and published.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({
      special_hours: [{ date: "2026-12-24", closed: false, startTime: "10:00", endTime: "14:00", note: null }],
    });
  });
});

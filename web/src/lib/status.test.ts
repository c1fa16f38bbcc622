import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SpecialHour, WorkingHour } from "../api/types";
import { WEEKDAYS } from "./constants";
import { closureLine, storeStatus, type StatusFields } from "./status";

const daily = (startTime: string, endTime: string): WorkingHour[] => WEEKDAYS.map((weekDay) => ({ weekDay, startTime, endTime }));
const closed = (date: string, note: string | null = null): SpecialHour => ({ date, closed: true, startTime: null, endTime: null, note });
const span = (date: string, startTime: string, endTime: string, note: string | null = null): SpecialHour => ({ date, closed: false, startTime, endTime, note });

function store(over: Partial<StatusFields> = {}): StatusFields {
  return { workingHours: daily("09:00", "21:00"), time_zone: "America/New_York", special_hours: [], temporarily_closed: null, permanently_closed: false, ...over };
}

/** The status at an instant given with its offset, e.g. "2026-11-23T02:53:00-05:00", read with the clock fixed there. */
function at(instant: string, s: StatusFields) {
  vi.setSystemTime(new Date(instant));
  return storeStatus(s, new Date(Date.now()));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("storeStatus: the status line texts", () => {
  it("is closed at 02:53 for a 09:00-21:00 store, and says when it opens (the issue's case)", () => {
    expect(at("2026-11-23T02:53:00-05:00", store())).toEqual({ open: false, line: "Opens 9:00 AM", today: "2026-11-23" });
  });

  it("says when an open store closes, and that it closes soon within the last hour", () => {
    expect(at("2026-11-23T12:00:00-05:00", store())).toMatchObject({ open: true, line: "Closes 9:00 PM" });
    expect(at("2026-11-23T19:59:00-05:00", store())).toMatchObject({ open: true, line: "Closes 9:00 PM" });
    expect(at("2026-11-23T20:00:00-05:00", store())).toMatchObject({ open: true, line: "Closes soon · 9:00 PM" });
    expect(at("2026-11-23T21:00:00-05:00", store())).toMatchObject({ open: true, line: "Closes soon · 9:00 PM" });
  });

  it("names the weekday when the next opening is another day", () => {
    const tuesdays = store({ workingHours: [{ weekDay: "Tuesday", startTime: "09:00", endTime: "17:00" }] });
    expect(at("2026-11-23T21:01:00-05:00", tuesdays)).toMatchObject({ open: false, line: "Opens Tue 9:00 AM" });
    expect(at("2026-11-25T12:00:00-05:00", tuesdays)).toMatchObject({ open: false, line: "Opens Tue 9:00 AM" });
    expect(at("2026-11-23T21:01:00-05:00", store())).toMatchObject({ open: false, line: "Opens Tue 9:00 AM" });
  });

  it("reads Closed today with the note on a special closed date", () => {
    const s = store({ special_hours: [closed("2026-11-26", "Thanksgiving")] });
    expect(at("2026-11-26T12:00:00-05:00", s)).toMatchObject({ open: false, line: "Closed today · Thanksgiving" });
    expect(at("2026-11-26T00:30:00-05:00", s)).toMatchObject({ open: false, line: "Closed today · Thanksgiving" });
    expect(at("2026-11-25T22:00:00-05:00", s)).toMatchObject({ open: false, line: "Opens Fri 9:00 AM" });
    expect(at("2026-11-26T12:00:00-05:00", store({ special_hours: [closed("2026-11-26")] }))).toMatchObject({ line: "Closed today" });
  });

  it("reads Temporarily closed until the last date, inclusive", () => {
    const s = store({ temporarily_closed: { from: "2026-11-20", until: "2026-12-02", note: "Renovation" } });
    expect(at("2026-11-23T12:00:00-05:00", s)).toMatchObject({ open: false, line: "Temporarily closed until Dec 2" });
    expect(at("2026-12-02T23:59:00-05:00", s)).toMatchObject({ open: false, line: "Temporarily closed until Dec 2" });
    expect(at("2026-12-03T09:00:00-05:00", s)).toMatchObject({ open: true, line: "Closes 9:00 PM" });
    expect(at("2026-11-19T12:00:00-05:00", s)).toMatchObject({ open: true });
    const noEnd = store({ temporarily_closed: { from: "2026-11-20", until: null, note: null } });
    expect(at("2027-03-01T12:00:00-05:00", noEnd)).toMatchObject({ open: false, line: "Temporarily closed" });
  });

  it("reads Permanently closed", () => {
    expect(at("2026-11-23T12:00:00-05:00", store({ permanently_closed: true }))).toMatchObject({ open: false, line: "Permanently closed" });
  });
});

describe("storeStatus: the rule's edges", () => {
  it("runs special late hours past midnight", () => {
    const s = store({ workingHours: daily("09:00", "17:00"), special_hours: [span("2026-11-26", "18:00", "02:00", "Late night")] });
    expect(at("2026-11-26T10:00:00-05:00", s)).toMatchObject({ open: false, line: "Opens 6:00 PM" });
    expect(at("2026-11-26T23:00:00-05:00", s)).toMatchObject({ open: true, line: "Closes 2:00 AM" });
    expect(at("2026-11-27T01:30:00-05:00", s)).toMatchObject({ open: true, line: "Closes soon · 2:00 AM" });
    expect(at("2026-11-27T02:01:00-05:00", s)).toMatchObject({ open: false, line: "Opens 9:00 AM" });
  });

  it("cuts the weekly late span at a closed date's midnight, but not at a date with spans", () => {
    const late: WorkingHour[] = [
      { weekDay: "Wednesday", startTime: "18:00", endTime: "02:00" },
      { weekDay: "Thursday", startTime: "09:00", endTime: "17:00" },
    ];
    const shut = store({ workingHours: late, special_hours: [closed("2026-11-26", "Thanksgiving")] });
    expect(at("2026-11-25T23:30:00-05:00", shut)).toMatchObject({ open: true, line: "Closes soon · 11:59 PM" });
    expect(at("2026-11-26T00:30:00-05:00", shut)).toMatchObject({ open: false, line: "Closed today · Thanksgiving" });
    const short = store({ workingHours: late, special_hours: [span("2026-11-26", "10:00", "14:00")] });
    expect(at("2026-11-26T01:30:00-05:00", short)).toMatchObject({ open: true, line: "Closes soon · 2:00 AM" });
    expect(at("2026-11-26T09:30:00-05:00", short)).toMatchObject({ open: false, line: "Opens 10:00 AM" });
  });

  it("reads the wall clock on DST days in New York", () => {
    const spring = store({ workingHours: [{ weekDay: "Saturday", startTime: "20:00", endTime: "02:30" }] });
    // The span's 02:30 never comes that night: the last open minute is 1:59 AM, before the clock
    // jumps to 03:00 (next_change_at is 03:00 EDT; the server's line says the same).
    expect(at("2026-03-08T01:59:00-05:00", spring)).toMatchObject({ open: true, line: "Closes soon · 1:59 AM" });
    expect(at("2026-03-08T03:00:00-04:00", spring)).toMatchObject({ open: false, line: "Opens Sat 8:00 PM" });
    const fall = store({ workingHours: [{ weekDay: "Saturday", startTime: "20:00", endTime: "01:30" }] });
    expect(at("2026-11-01T01:20:00-04:00", fall)).toMatchObject({ open: true });
    expect(at("2026-11-01T01:40:00-04:00", fall)).toMatchObject({ open: false });
    expect(at("2026-11-01T01:10:00-05:00", fall)).toMatchObject({ open: true }); // the repeated hour
  });

  it("uses the store's zone, not the browser's", () => {
    const la = store({ time_zone: "America/Los_Angeles" });
    expect(at("2026-11-23T12:00:00-05:00", la)).toMatchObject({ open: true, line: "Closes 9:00 PM", today: "2026-11-23" });
    expect(at("2026-11-23T08:00:00-05:00", la)).toMatchObject({ open: false, line: "Opens 9:00 AM" });
  });

  it("has no line for a store open around the clock or without hours", () => {
    expect(at("2026-11-23T12:00:00-05:00", store({ workingHours: daily("00:00", "00:00") }))).toMatchObject({ open: true, line: "" });
    expect(at("2026-11-23T12:00:00-05:00", store({ workingHours: [] }))).toMatchObject({ open: false, line: "" });
  });
});

describe("storeStatus: asked again for the same store", () => {
  it("answers the same for the same instant and works the status out again for another one", () => {
    const s = store();
    const first = storeStatus(s, new Date("2026-11-23T20:59:00-05:00"));
    expect(first).toEqual({ open: true, line: "Closes soon · 9:00 PM", today: "2026-11-23" });
    // Another Date object for the same instant (a re-render at the same minute tick).
    expect(storeStatus(s, new Date("2026-11-23T20:59:00-05:00"))).toBe(first);
    expect(storeStatus(s, new Date("2026-11-23T21:01:00-05:00"))).toEqual({ open: false, line: "Opens Tue 9:00 AM", today: "2026-11-23" });
    // A store object with other hours is its own entry, even at the same instant.
    expect(storeStatus(store({ workingHours: daily("08:00", "23:00") }), new Date("2026-11-23T20:59:00-05:00"))).toEqual({
      open: true,
      line: "Closes 11:00 PM",
      today: "2026-11-23",
    });
  });
});

describe("closureLine: a temporary closure in words, as the store page writes it (issue #39, M3)", () => {
  const evening = new Date("2026-12-02T20:00:00-05:00");
  it("tells of a closure starting tomorrow, with its note", () => {
    expect(closureLine({ from: "2026-12-03", until: null, note: "Renovation" }, "America/New_York", evening)).toBe(
      "Temporarily closed from Dec 3 until further notice · Renovation",
    );
  });
  it("tells of a closure in force, and of none that has ended", () => {
    expect(closureLine({ from: "2026-12-01", until: "2026-12-09", note: null }, "America/New_York", evening)).toBe("Temporarily closed until Dec 9");
    expect(closureLine({ from: "2026-11-01", until: "2026-12-01", note: "Gone" }, "America/New_York", evening)).toBeNull();
    expect(closureLine(null, "America/New_York", evening)).toBeNull();
  });
});

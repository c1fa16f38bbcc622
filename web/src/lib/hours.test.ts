import { describe, expect, it } from "vitest";
import type { WorkingHour } from "../api/types";
import { clock12, spanText, zonedTime } from "./hours";
import { storeStatus } from "./status";

/** An instant on a weekday (0 = Sunday) of the week of 2026-03-01, a Sunday, in UTC. */
const at = (weekday: number, hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return new Date(Date.UTC(2026, 2, 1 + weekday, h, m));
};
/** The Open now rule of a week of hours (lib/status.ts, as the server's): open at that instant in UTC. */
const isOpenAt = (hours: WorkingHour[], instant: Date) => storeStatus({ workingHours: hours, time_zone: "UTC" }, instant).open;
const isOpenNow = (store: { workingHours: WorkingHour[]; time_zone: string }, now: Date) => storeStatus(store, now).open;
/** Checks isOpenAt(hours, ...) at each [weekday, time, open] step. */
const expectOpenAt = (hours: WorkingHour[], ...steps: [number, string, boolean][]) => {
  for (const [weekday, hhmm, open] of steps) expect(isOpenAt(hours, at(weekday, hhmm)), `day ${weekday} ${hhmm}`).toBe(open);
};
const MONDAY = 1;
const TUESDAY = 2;
const week = (startTime: string | null, endTime: string | null): WorkingHour[] =>
  (["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const).map((weekDay) => ({
    weekDay,
    startTime,
    endTime,
  }));

describe("isOpenAt (the Open now rule)", () => {
  const hours = week("09:00", "17:00");

  it("is open from start inclusive to end inclusive to the minute", () => {
    expectOpenAt(hours, [MONDAY, "08:59", false], [MONDAY, "09:00", true], [MONDAY, "12:30", true]);
    expectOpenAt(hours, [MONDAY, "17:00", true], [MONDAY, "17:01", false]);
  });

  it("needs an entry for today with both times", () => {
    const mondayOnly: WorkingHour[] = [{ weekDay: "Monday", startTime: "09:00", endTime: "17:00" }];
    expect(isOpenAt(mondayOnly, at(TUESDAY, "10:00"))).toBe(false);
    expect(isOpenAt([{ weekDay: "Monday", startTime: "09:00", endTime: null }], at(MONDAY, "10:00"))).toBe(false);
    expect(isOpenAt([], at(MONDAY, "10:00"))).toBe(false);
  });

  it("runs hours past midnight into the next day (end before start)", () => {
    const late: WorkingHour[] = [{ weekDay: "Monday", startTime: "18:00", endTime: "02:00" }];
    expectOpenAt(late, [MONDAY, "17:59", false], [MONDAY, "18:00", true], [MONDAY, "23:59", true]);
    expectOpenAt(late, [TUESDAY, "00:00", true], [TUESDAY, "02:00", true], [TUESDAY, "02:01", false]);
    // Monday early morning belongs to Sunday's entry, which there is none of.
    expectOpenAt(late, [MONDAY, "01:00", false]);
  });

  it("wraps Saturday night into Sunday", () => {
    const sat: WorkingHour[] = [{ weekDay: "Saturday", startTime: "20:00", endTime: "03:00" }];
    expect(isOpenAt(sat, at(0, "02:30"))).toBe(true);
  });

  it("treats start equal to end as open all day", () => {
    expect(isOpenAt([{ weekDay: "Monday", startTime: "00:00", endTime: "00:00" }], at(MONDAY, "03:00"))).toBe(true);
  });
});

describe("isOpenNow in the store's own time zone", () => {
  // 2026-03-02 is a Monday. 15:30 UTC = 10:30 in New York (EST), 07:30 in Los Angeles (PST).
  const now = new Date("2026-03-02T15:30:00Z");
  const hours = week("09:00", "17:00");

  it("reads the weekday and time in the zone", () => {
    expect(zonedTime(now, "America/New_York")).toEqual({ weekday: MONDAY, minutes: 10 * 60 + 30 });
    expect(zonedTime(now, "America/Los_Angeles")).toEqual({ weekday: MONDAY, minutes: 7 * 60 + 30 });
    expect(zonedTime(new Date("2026-03-03T02:00:00Z"), "America/Chicago")).toEqual({ weekday: MONDAY, minutes: 20 * 60 });
  });

  it("opens a New York store and not a Los Angeles one at the same instant", () => {
    expect(isOpenNow({ workingHours: hours, time_zone: "America/New_York" }, now)).toBe(true);
    expect(isOpenNow({ workingHours: hours, time_zone: "America/Los_Angeles" }, now)).toBe(false);
  });

  it("uses the zone's weekday across midnight UTC", () => {
    // 2026-03-03 03:00 UTC is Monday 22:00 in New York: a Monday 18:00-02:00 store is open.
    const late: WorkingHour[] = [{ weekDay: "Monday", startTime: "18:00", endTime: "02:00" }];
    expect(isOpenNow({ workingHours: late, time_zone: "America/New_York" }, new Date("2026-03-03T03:00:00Z"))).toBe(true);
    // and at Tuesday 01:30 New York time, still open from Monday's entry
    expect(isOpenNow({ workingHours: late, time_zone: "America/New_York" }, new Date("2026-03-03T06:30:00Z"))).toBe(true);
    expect(isOpenNow({ workingHours: late, time_zone: "America/New_York" }, new Date("2026-03-03T07:30:00Z"))).toBe(false);
  });

  it("falls back to the browser's zone for an unknown zone", () => {
    expect(() => isOpenNow({ workingHours: hours, time_zone: "Nowhere/Special" }, now)).not.toThrow();
  });
});

describe("spanText and clock12 (one time format everywhere, issue #39 m9 m10)", () => {
  it("writes times as 9:00 PM", () => {
    expect(clock12("00:00")).toBe("12:00 AM");
    expect(clock12("09:05")).toBe("9:05 AM");
    expect(clock12("12:00")).toBe("12:00 PM");
    expect(clock12("23:59")).toBe("11:59 PM");
    expect(clock12("24:00")).toBe("12:00 AM");
  });
  it("writes a span, and a whole day as Open 24 hours", () => {
    expect(spanText("09:00", "21:00")).toBe("9:00 AM – 9:00 PM");
    expect(spanText("18:00", "02:00")).toBe("6:00 PM – 2:00 AM");
    for (const [a, b] of [["00:00", "00:00"], ["08:00", "08:00"], ["00:00", "23:59"], ["00:00", "24:00"]] as const) {
      expect(spanText(a, b)).toBe("Open 24 hours");
    }
  });
});

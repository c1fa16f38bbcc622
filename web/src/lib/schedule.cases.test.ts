import { describe, expect, it } from "vitest";
import type { ServiceName, ServiceState, SpecialHour, TemporaryClosure, WorkingHour } from "../api/types";
import cases from "../../../internal/schedule/testdata/cases.json?raw";
import { WEEKDAYS } from "./constants";
import { serviceLine } from "./services";
import { closureLine, storeStatus } from "./status";

/**
 * The cases the server's rule is tested with (internal/schedule/testdata/cases.json, read by
 * internal/schedule/cases_test.go): the app's copy of the rule and its words must say the same.
 */
interface StatusCase {
  name: string;
  at: string;
  zone: string;
  hours: string[];
  special?: Partial<SpecialHour>[];
  closure?: Partial<TemporaryClosure> & { from: string };
  permanent?: boolean;
  badge: "Opened" | "Closed";
  line: string;
  hoursLine: string;
  closureLine?: string;
}

/** "Mon-Fri 09:00-12:00, 13:00-17:00" as weekly entries. */
function week(entries: readonly string[]): WorkingHour[] {
  const day = (name: string) => WEEKDAYS.findIndex((d) => d.startsWith(name));
  const out: WorkingHour[] = [];
  for (const entry of entries) {
    const [days = "", spans = ""] = entry.split(/ (.*)/);
    const [first = "", last = first] = days.split("-");
    const a = day(first);
    const b = day(last);
    if (a < 0 || b < 0) throw new Error(`hours entry ${entry}`);
    for (let d = a; ; d = (d + 1) % 7) {
      for (const span of spans.split(", ")) {
        const [startTime = "", endTime = ""] = span.split("-");
        out.push({ weekDay: WEEKDAYS[d] ?? "Sunday", startTime, endTime });
      }
      if (d === b) break;
    }
  }
  return out;
}

/** A service case: the server's state of each service at the instant, and the line it reads as. */
interface ServiceCase {
  name: string;
  at: string;
  zone: string;
  expect: Partial<Record<ServiceName, { state: ServiceState; line: string }>>;
}

const file = JSON.parse(cases) as { cases: StatusCase[]; services: ServiceCase[] };
const all = file.cases;

describe("the shared cases of the status (internal/schedule/testdata/cases.json)", () => {
  it("has enough of them", () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
  });

  it.each(all)("$name", (c) => {
    const closure: TemporaryClosure | null = c.closure ? { until: null, note: null, ...c.closure } : null;
    const store = {
      workingHours: week(c.hours),
      time_zone: c.zone,
      special_hours: (c.special ?? []).map((h) => ({ date: "", closed: false, startTime: null, endTime: null, note: null, ...h })),
      temporarily_closed: closure,
      permanently_closed: c.permanent ?? false,
    };
    const now = new Date(c.at);
    const status = storeStatus(store, now);
    expect({ badge: status.open ? "Opened" : "Closed", line: status.line }).toEqual({ badge: c.badge, line: c.line });
    if (c.closureLine !== undefined) expect(closureLine(closure, c.zone, now) ?? "").toBe(c.closureLine);
  });
});

describe("the shared cases of the services' lines (internal/schedule/testdata/cases.json)", () => {
  it.each(file.services)("$name", (c) => {
    for (const [name, want] of Object.entries(c.expect) as [ServiceName, { state: ServiceState; line: string }][]) {
      expect(serviceLine(name, want.state, c.zone, new Date(c.at))).toBe(want.line);
    }
  });
});

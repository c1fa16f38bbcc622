import type { PhysicalStore, WorkingHour } from "../api/types";
import { WEEKDAYS } from "./constants";

/** The weekday (0 = Sunday) and minute of the day at `now` in `timeZone`. */
export interface ZonedTime {
  weekday: number;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Local weekday and time of `now` in an IANA zone; the browser's zone when it is empty or unknown. */
export function zonedTime(now: Date, timeZone: string | null | undefined): ZonedTime {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone).formatToParts(now);
  } catch {
    return { weekday: now.getDay(), minutes: now.getHours() * 60 + now.getMinutes() };
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const weekday = WEEKDAYS.indexOf(get("weekday") as (typeof WEEKDAYS)[number]);
  const hour = Number(get("hour")) % 24;
  return { weekday: weekday < 0 ? now.getDay() : weekday, minutes: hour * 60 + Number(get("minute")) };
}

/** "HH:MM" to minutes after midnight, or null. */
export function parseTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59) return null;
  return h * 60 + min;
}

function entriesFor(hours: readonly WorkingHour[], weekday: number): WorkingHour[] {
  return hours.filter((h) => h.weekDay === WEEKDAYS[weekday]);
}

/**
 * The Open now rule, at a weekday and minute in the store's zone: some entry for
 * today runs from start (inclusive) to end (inclusive to the minute). An entry whose end is before
 * its start (18:00-02:00) runs past midnight, so yesterday's such entry also counts until its end;
 * start equal to end means open all day.
 */
export function isOpenAt(hours: readonly WorkingHour[], { weekday, minutes }: ZonedTime): boolean {
  for (const entry of entriesFor(hours, weekday)) {
    const start = parseTime(entry.startTime);
    const end = parseTime(entry.endTime);
    if (start === null || end === null) continue;
    if (start === end) return true;
    if (start < end ? minutes >= start && minutes <= end : minutes >= start) return true;
  }
  for (const entry of entriesFor(hours, (weekday + 6) % 7)) {
    const start = parseTime(entry.startTime);
    const end = parseTime(entry.endTime);
    if (start === null || end === null) continue;
    if (end < start && minutes <= end) return true;
  }
  return false;
}

/**
 * Whether a store is open now by its weekly hours alone, in its own time zone. The app uses
 * lib/status.ts, which adds special hours and closures to this rule.
 */
export function isOpenNow(store: Pick<PhysicalStore, "workingHours" | "time_zone">, now = new Date()): boolean {
  return isOpenAt(store.workingHours, zonedTime(now, store.time_zone));
}

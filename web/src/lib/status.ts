import type { PhysicalStore, SpecialHour, TemporaryClosure, WorkingHour } from "../api/types";
import { WEEKDAYS } from "./constants";
import { parseTime, type Zoned, zonedDay } from "./hours";

/**
 * The status a shopper reads: the open rule with special hours and closures, in the store's
 * zone, and the line that says what comes next. The server's copy of the rule is
 * schedule.Schedule.Status (internal/schedule/status.go); docs/product-rules.md, "Opening hours and
 * the status", is the rule in words. Computed from the store's fields and the clock, so the page
 * updates every minute without asking the server again.
 */

export type StatusFields = Pick<PhysicalStore, "workingHours" | "time_zone"> &
  Partial<Pick<PhysicalStore, "special_hours" | "temporarily_closed" | "permanently_closed">>;

export interface StoreStatus {
  /** Whether the store is open now: the badge ("Opened"/"Closed"). */
  open: boolean;
  /** What comes next, e.g. "Closes 9:00 PM"; empty when there is nothing to say. */
  line: string;
  /** The store's local date (YYYY-MM-DD) now, for the hours table's "today". */
  today: string;
}

/** How far ahead "Opens ..." looks: to the end of the 8th local day after today (as the server). */
const LOOK_AHEAD_DAYS = 8;
const DAY = 24 * 60;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export function dayToDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

interface Span {
  start: number;
  end: number;
}

function spansOf(entries: readonly (WorkingHour | SpecialHour)[]): Span[] {
  const out: Span[] = [];
  for (const e of entries) {
    const start = parseTime(e.startTime);
    const end = parseTime(e.endTime);
    if (start !== null && end !== null) out.push({ start, end });
  }
  return out;
}

/** The rule's view of one store: which spans each local date has, and whether it is closed from its midnight. */
class Schedule {
  private readonly special = new Map<string, SpecialHour[]>();
  private readonly store: StatusFields;
  // nextChange asks for the same few days dozens of times (each candidate minute looks at its day
  // and the day before): each day's spans are worked out once.
  private readonly days = new Map<number, { spans: Span[]; closed: boolean }>();

  constructor(store: StatusFields) {
    this.store = store;
    for (const h of store.special_hours ?? []) {
      const list = this.special.get(h.date) ?? [];
      list.push(h);
      this.special.set(h.date, list);
    }
  }

  temporarilyClosedOn(day: number): boolean {
    const c = this.store.temporarily_closed;
    if (!c) return false;
    const date = dayToDate(day);
    return date >= c.from && (c.until === null || date <= c.until);
  }

  specialOn(day: number): SpecialHour[] | undefined {
    return this.special.get(dayToDate(day));
  }

  spansOn(day: number): { spans: Span[]; closed: boolean } {
    let out = this.days.get(day);
    if (!out) {
      out = this.computeSpansOn(day);
      this.days.set(day, out);
    }
    return out;
  }

  private computeSpansOn(day: number): { spans: Span[]; closed: boolean } {
    if (this.store.permanently_closed || this.temporarilyClosedOn(day)) return { spans: [], closed: true };
    const special = this.specialOn(day);
    if (special) return { spans: spansOf(special), closed: special.some((h) => h.closed) };
    const weekday = WEEKDAYS[(((day % 7) + 7 + 4) % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6];
    return { spans: spansOf(this.store.workingHours.filter((h) => h.weekDay === weekday)), closed: false };
  }

  /** The rule at minute `minutes` of local day `day` (wall clock). */
  openAt(day: number, minutes: number): boolean {
    const today = this.spansOn(day);
    if (today.closed) return false;
    for (const s of today.spans) {
      if (s.start === s.end) return true;
      if (s.start < s.end ? minutes >= s.start && minutes <= s.end : minutes >= s.start) return true;
    }
    for (const s of this.spansOn(day - 1).spans) {
      if (s.start > s.end && minutes <= s.end) return true;
    }
    return false;
  }

  /**
   * The first wall minute after `now` (as minutes from the start of `now.day`) at which the
   * answer differs from `open`, within the look-ahead, or null.
   */
  nextChange(now: Zoned, open: boolean): number | null {
    const candidates: number[] = [];
    for (let d = -1; d <= LOOK_AHEAD_DAYS; d++) {
      const base = d * DAY;
      candidates.push(base);
      for (const s of this.spansOn(now.day + d).spans) {
        candidates.push(base + s.start);
        if (s.start < s.end) candidates.push(base + s.end + 1);
        else if (s.start > s.end) candidates.push(base + DAY + s.end + 1);
      }
    }
    const horizon = (LOOK_AHEAD_DAYS + 1) * DAY;
    const sorted = [...new Set(candidates)].filter((c) => c > now.minutes && c < horizon).sort((a, b) => a - b);
    for (const c of sorted) {
      const day = now.day + Math.floor(c / DAY);
      if (this.openAt(day, ((c % DAY) + DAY) % DAY) !== open) return c;
    }
    return null;
  }
}

/** "9:00 PM" for a minute of the day. */
export function formatClock(minutes: number): string {
  const m = ((minutes % DAY) + DAY) % DAY;
  const h = Math.floor(m / 60);
  return `${h % 12 || 12}:${String(m % 60).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/** "Dec 2" for "2026-12-02". */
export function formatShortDate(date: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(date);
  return m ? `${MONTHS[Number(m[1]) - 1] ?? ""} ${Number(m[2])}` : date;
}

// The last status worked out for each store object, with the instant it was for: the results
// list, the Open now filter and the detail panel ask for the same store at the same minute tick
// (useMinuteTick) on every render. Store objects from the API are never changed in place.
const lastStatus = new WeakMap<StatusFields, { at: number; status: StoreStatus }>();

/** The store's status at `now` (in its own zone). */
export function storeStatus(store: StatusFields, now: Date = new Date()): StoreStatus {
  const at = now.getTime();
  const cached = lastStatus.get(store);
  if (cached && cached.at === at) return cached.status;
  const status = computeStoreStatus(store, now);
  lastStatus.set(store, { at, status });
  return status;
}

function computeStoreStatus(store: StatusFields, now: Date): StoreStatus {
  const zoned = zonedDay(now, store.time_zone);
  const today = dayToDate(zoned.day);
  const schedule = new Schedule(store);
  if (store.permanently_closed) return { open: false, line: "Permanently closed", today };
  const c = store.temporarily_closed;
  if (c && schedule.temporarilyClosedOn(zoned.day)) {
    return { open: false, line: c.until ? `Temporarily closed until ${formatShortDate(c.until)}` : "Temporarily closed", today };
  }
  const open = schedule.openAt(zoned.day, zoned.minutes);
  const next = schedule.nextChange(zoned, open);
  if (open) {
    if (next === null) return { open, line: "", today }; // around the clock
    const last = next - 1; // hours are inclusive to the minute: the last open minute
    return { open, line: last - zoned.minutes <= 60 ? `Closes soon · ${formatClock(last)}` : `Closes ${formatClock(last)}`, today };
  }
  const special = schedule.specialOn(zoned.day);
  if (special?.some((h) => h.closed)) {
    const note = special.find((h) => h.note)?.note;
    return { open, line: note ? `Closed today · ${note}` : "Closed today", today };
  }
  if (next === null) return { open, line: "", today };
  const dayOffset = Math.floor(next / DAY);
  if (dayOffset === 0) return { open, line: `Opens ${formatClock(next)}`, today };
  const weekday = WEEKDAYS[(((zoned.day + dayOffset) % 7) + 7 + 4) % 7] ?? "";
  return { open, line: `Opens ${weekday.slice(0, 3)} ${formatClock(next)}`, today };
}

/** The special hours from today on (the API also sends yesterday's, for its late hours). */
export function upcomingSpecialHours(special: readonly SpecialHour[] | undefined, timeZone: string | null | undefined, now: Date = new Date()): SpecialHour[] {
  const today = dayToDate(zonedDay(now, timeZone).day);
  return (special ?? []).filter((h) => h.date >= today);
}

/**
 * A temporary closure that has not ended by the store's today, in words: "Temporarily closed from
 * Dec 3 until further notice · Renovation" (upcoming) or "Temporarily closed until Dec 9" (now),
 * with its note; null when there is none. The store page writes the same line
 * (internal/storepages/store.go, closureLine), so the panel tells of a closure starting tomorrow
 * as the page does (issue #39, M3).
 */
export function closureLine(closure: TemporaryClosure | null | undefined, timeZone: string | null | undefined, now: Date = new Date()): string | null {
  if (!closure) return null;
  const today = dayToDate(zonedDay(now, timeZone).day);
  if (closure.until !== null && closure.until < today) return null;
  let line = closure.from <= today ? "Temporarily closed" : `Temporarily closed from ${formatShortDate(closure.from)}`;
  line += closure.until !== null ? ` until ${formatShortDate(closure.until)}` : " until further notice";
  return closure.note ? `${line} · ${closure.note}` : line;
}

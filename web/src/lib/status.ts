import type { PhysicalStore, SpecialHour, TemporaryClosure, WorkingHour } from "../api/types";
import { WEEKDAYS } from "./constants";
import { parseTime, type Zoned, zonedDay } from "./hours";

/**
 * The status a shopper reads: the open rule with special hours and closures, in the store's
 * zone, and the line that says what comes next. The server's copy of the rule and its words is
 * schedule.Schedule.Shown (internal/schedule/line.go, status.go); docs/product-rules.md, "Opening
 * hours and the status", is the rule in words; both copies run the cases of
 * internal/schedule/testdata/cases.json (schedule.cases.test.ts). Computed from the store's fields
 * and the clock, so the page updates every minute without asking the server again.
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
const MINUTE = 60_000;
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
   * The first instant after `now` (epoch milliseconds, on a minute) at which the answer differs
   * from `open`, with its wall clock, within the look-ahead; null when there is none. As the
   * server (changeAfter, internal/schedule/status.go): the answer can only change where the wall
   * clock reaches a span's start, the minute after a span's end, a midnight, or where the zone's
   * offset changes (a DST jump can skip a boundary, a repeated hour reads it twice), so those
   * instants are tried in order.
   */
  nextChange(now: Date, zoned: Zoned, open: boolean, timeZone: string | null | undefined): { at: number; wall: Zoned } | null {
    const nowMinute = Math.floor(now.getTime() / MINUTE);
    const horizon = (zoned.day + LOOK_AHEAD_DAYS + 1) * DAY; // wall minutes of the look-ahead's end
    const { offsets, jumps } = zoneChanges(nowMinute, zoned, horizon, timeZone);
    const candidates = new Set<number>(jumps.filter((u) => u > nowMinute && u < horizon - (offsets[0] ?? 0)));
    const add = (wall: number) => {
      if (wall >= horizon) return;
      for (const o of offsets) {
        const u = wall - o;
        if (u <= nowMinute) continue;
        if (offsets.length > 1 && offsetAt(u, timeZone) !== o) continue; // no such wall time at that offset
        candidates.add(u);
      }
    };
    for (let d = zoned.day - 1; d <= zoned.day + LOOK_AHEAD_DAYS; d++) {
      const base = d * DAY;
      add(base);
      for (const s of this.spansOn(d).spans) {
        add(base + s.start);
        if (s.start < s.end) add(base + s.end + 1);
        else if (s.start > s.end) add(base + DAY + s.end + 1);
      }
    }
    for (const u of [...candidates].sort((a, b) => a - b)) {
      const o = offsets.length > 1 ? offsetAt(u, timeZone) : (offsets[0] ?? 0);
      const wall = { day: Math.floor((u + o) / DAY), minutes: (((u + o) % DAY) + DAY) % DAY };
      if (this.openAt(wall.day, wall.minutes) !== open) return { at: u * MINUTE, wall };
    }
    return null;
  }
}

/** The zone's offset (wall minus UTC, in minutes) at an instant given in epoch minutes. */
function offsetAt(minute: number, timeZone: string | null | undefined): number {
  const z = zonedDay(new Date(minute * MINUTE), timeZone);
  return z.day * DAY + z.minutes - minute;
}

/**
 * The offsets the zone has from now to the look-ahead's end, and the instants (epoch minutes) at
 * which it changes. One check at each end in the usual case; a day-by-day search where they differ.
 */
function zoneChanges(nowMinute: number, zoned: Zoned, horizon: number, timeZone: string | null | undefined): { offsets: number[]; jumps: number[] } {
  const first = zoned.day * DAY + zoned.minutes - nowMinute;
  const end = horizon - first + DAY; // a day past the horizon, read at the first offset
  if (offsetAt(end, timeZone) === first) return { offsets: [first], jumps: [] };
  const offsets = [first];
  const jumps: number[] = [];
  for (let lo = nowMinute, o = first; lo < end; lo += DAY) {
    const hi = Math.min(lo + DAY, end);
    const next = offsetAt(hi, timeZone);
    if (next === o) continue;
    let a = lo;
    let b = hi; // offsetAt(a) is o, offsetAt(b) is not: the jump is at b once they meet
    while (b - a > 1) {
      const m = Math.floor((a + b) / 2);
      if (offsetAt(m, timeZone) === o) a = m;
      else b = m;
    }
    jumps.push(b);
    if (!offsets.includes(next)) offsets.push(next);
    o = next;
  }
  return { offsets, jumps };
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
  const next = schedule.nextChange(now, zoned, open, store.time_zone);
  if (open) {
    if (next === null) return { open, line: "", today }; // around the clock
    // Hours are inclusive to the minute: the last open minute, read on the clock then (on a
    // spring-forward night, 1:59 AM before the jump) and "soon" within the last hour of real time.
    const last = zonedDay(new Date(next.at - MINUTE), store.time_zone);
    const soon = next.at - MINUTE - Math.floor(now.getTime() / MINUTE) * MINUTE <= 60 * MINUTE;
    return { open, line: soon ? `Closes soon · ${formatClock(last.minutes)}` : `Closes ${formatClock(last.minutes)}`, today };
  }
  const special = schedule.specialOn(zoned.day);
  if (special?.some((h) => h.closed)) {
    const note = special.find((h) => h.note)?.note;
    return { open, line: note ? `Closed today · ${note}` : "Closed today", today };
  }
  if (next === null) return { open, line: "", today };
  if (next.wall.day === zoned.day) return { open, line: `Opens ${formatClock(next.wall.minutes)}`, today };
  const weekday = WEEKDAYS[((next.wall.day % 7) + 7 + 4) % 7] ?? "";
  return { open, line: `Opens ${weekday.slice(0, 3)} ${formatClock(next.wall.minutes)}`, today };
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

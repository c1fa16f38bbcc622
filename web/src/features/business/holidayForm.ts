import { CLOSURE_FROM_REQUIRED, CLOSURE_ORDER, DATE_REQUIRED, NOTE_TOO_LONG, SPAN_TIMES } from "./messages";
import type { BusinessStore, StorePatch } from "./types";

// The "Holiday hours and closures" part of the dashboard: the store's special dates and its
// temporary closure, checked in the browser with the server's limits (internal/schedule/special.go).
// Each service's special dates (servicesForm.ts) are edited and checked the same way.

export type SpecialEntry = BusinessStore["special_hours"][number];

/** A special date being added: closed all day, or open from start to end. */
export interface NewDate {
  date: string;
  closed: boolean;
  start: string;
  end: string;
  note: string;
}

export interface ClosureValues {
  closed: boolean;
  from: string;
  until: string;
  note: string;
}

export const MAX_NOTE = 100;
export const emptyDate: NewDate = { date: "", closed: true, start: "", end: "", note: "" };

export function closureOf(store: BusinessStore): ClosureValues {
  const c = store.temporarily_closed;
  return c ? { closed: true, from: c.from, until: c.until ?? "", note: c.note ?? "" } : { closed: false, from: "", until: "", note: "" };
}

/** Checks a date to add; the keys are the fields with a problem. */
export function validateNewDate(d: NewDate): Partial<Record<"date" | "times" | "note", string>> {
  const errors: Partial<Record<"date" | "times" | "note", string>> = {};
  if (!/^\d{4}-\d\d-\d\d$/.test(d.date)) errors.date = DATE_REQUIRED;
  if (!d.closed && (!/^\d\d:\d\d$/.test(d.start) || !/^\d\d:\d\d$/.test(d.end))) errors.times = SPAN_TIMES;
  if ([...d.note.trim()].length > MAX_NOTE) errors.note = NOTE_TOO_LONG;
  return errors;
}

export function entryOf(d: NewDate): SpecialEntry {
  const note = d.note.trim() || null;
  return d.closed
    ? { date: d.date, closed: true, startTime: null, endTime: null, note }
    : { date: d.date, closed: false, startTime: d.start, endTime: d.end, note };
}

/** Adds an entry, keeping the list by date; a closed date replaces that date's other entries. */
export function addEntry(list: SpecialEntry[], e: SpecialEntry): SpecialEntry[] {
  const kept = list.filter((x) => x.date !== e.date || (!e.closed && !x.closed));
  return [...kept, e].sort((a, b) => a.date.localeCompare(b.date));
}

export function validateClosure(c: ClosureValues): Partial<Record<"from" | "until" | "note", string>> {
  const errors: Partial<Record<"from" | "until" | "note", string>> = {};
  if (!c.closed) return errors;
  if (!/^\d{4}-\d\d-\d\d$/.test(c.from)) errors.from = CLOSURE_FROM_REQUIRED;
  else if (c.until && c.until < c.from) errors.until = CLOSURE_ORDER;
  if ([...c.note.trim()].length > MAX_NOTE) errors.note = NOTE_TOO_LONG;
  return errors;
}

/** "2026-12-25: closed · Christmas", "2026-12-24: 10:00–14:00". */
export const describeEntry = (e: SpecialEntry) =>
  `${e.date}: ${e.closed ? "closed" : `${e.startTime ?? ""}–${e.endTime ?? ""}`}${e.note ? ` · ${e.note}` : ""}`;

/** Whether two lists of special dates say the same. */
export const sameEntries = (a: SpecialEntry[], b: SpecialEntry[]) =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i];
    return y !== undefined && x.date === y.date && x.closed === y.closed && x.startTime === y.startTime && x.endTime === y.endTime && (x.note ?? null) === (y.note ?? null);
  });

/** The PATCH body for what changed: special_hours as a whole list, temporarily_closed as an object or null. */
export function holidayPatch(store: BusinessStore, list: SpecialEntry[], c: ClosureValues): StorePatch {
  const patch: StorePatch = {};
  if (!sameEntries(store.special_hours, list)) patch.special_hours = list;
  const next = c.closed ? { from: c.from, until: c.until || null, note: c.note.trim() || null } : null;
  const cur = store.temporarily_closed;
  const same =
    next === null ? cur === null : cur !== null && cur.from === next.from && (cur.until ?? null) === next.until && (cur.note ?? null) === next.note;
  if (!same) patch.temporarily_closed = next;
  return patch;
}

/** The weekday (0 = Sunday) and minute of the day at `now` in `timeZone`. */
export interface ZonedTime {
  weekday: number;
  minutes: number;
}

/** The local date (days since 1970-01-01) and minute of the day at `now` in `timeZone`. */
export interface Zoned {
  day: number;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Local date (as a day number) and minute of `now` in an IANA zone; the browser's zone when unknown. */
export function zonedDay(now: Date, timeZone: string | null | undefined): Zoned {
  let parts: Intl.DateTimeFormatPart[] | null = null;
  try {
    parts = partsFormatter(timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone).formatToParts(now);
  } catch {
    parts = null;
  }
  if (!parts) {
    return { day: Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / 86_400_000), minutes: now.getHours() * 60 + now.getMinutes() };
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  return { day: Math.floor(Date.UTC(get("year"), get("month") - 1, get("day")) / 86_400_000), minutes: (get("hour") % 24) * 60 + get("minute") };
}

/** Local weekday (0 = Sunday; 1970-01-01 was a Thursday) and time of `now` in an IANA zone; the browser's zone when it is empty or unknown. */
export function zonedTime(now: Date, timeZone: string | null | undefined): ZonedTime {
  const { day, minutes } = zonedDay(now, timeZone);
  return { weekday: (((day % 7) + 7 + 4) % 7), minutes };
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

/** What a span covering the whole day reads, everywhere (the server's schedule.AllDayText). */
export const ALL_DAY_TEXT = "Open 24 hours";

/** "9:00 PM" for "21:00" ("00:00" and "24:00": "12:00 AM"); a text it cannot read, as it is. */
export function clock12(hhmm: string): string {
  const m = parseTime(hhmm);
  if (m === null) return hhmm;
  const minutes = m % (24 * 60);
  const h = Math.floor(minutes / 60);
  return `${h % 12 || 12}:${String(minutes % 60).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/**
 * One span as every surface writes it (docs/product-rules.md, "One truth per store"): "9:00 AM – 9:00 PM",
 * or "Open 24 hours" for a span covering the whole day (start = end, or midnight to 23:59 or 24:00).
 * The server's copy is schedule.SpanText (internal/schedule/hoursline.go), which the store pages use.
 */
export function spanText(start: string, end: string): string {
  const a = parseTime(start);
  const b = parseTime(end);
  if (a !== null && b !== null && (a === b || (a === 0 && (b === 24 * 60 - 1 || b === 24 * 60)))) return ALL_DAY_TEXT;
  return `${clock12(start)} – ${clock12(end)}`;
}

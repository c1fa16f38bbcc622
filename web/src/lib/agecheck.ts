/**
 * The age check before commerce (docs/rules.md, "Age check"): the shopper's date of birth against
 * the rulebook's minimum age for their place, judged on today's date in that place. Only the
 * verdict is kept (a first-party cookie, 30 days), never the date of birth. This is not legal age
 * verification: that happens at the marketplace's checkout and on delivery.
 */

export interface CalendarDate {
  year: number;
  month: number; // 1-12
  day: number;
}

/** "YYYY-MM-DD" (an <input type="date"> value) as a real calendar date, or null. */
export function parseDate(value: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** Today's date in an IANA time zone (the shopper's place), from instant now. */
export function todayIn(timeZone: string, now: Date): CalendarDate {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "numeric", day: "numeric" }).formatToParts(now);
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day") };
}

/**
 * Whole years from birth to today. A birthday counts from its own day; someone born on 29 February
 * gains a year on 1 March in years without one (the day after 28 February).
 */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  let age = today.year - birth.year;
  if (today.month < birth.month || (today.month === birth.month && today.day < birth.day)) age -= 1;
  return age;
}

export type Verdict = { kind: "ok" } | { kind: "under"; minAge: number } | { kind: "invalid"; message: string };

/** The answer to the dialog: a date of birth (YYYY-MM-DD) judged against minAge on today. */
export function judge(value: string, minAge: number, today: CalendarDate): Verdict {
  const birth = parseDate(value);
  if (!birth) return { kind: "invalid", message: "Enter your date of birth as a full date." };
  const age = ageOn(birth, today);
  if (age < 0) return { kind: "invalid", message: "The date of birth is in the future." };
  if (age > 120) return { kind: "invalid", message: "Check the year of your date of birth." };
  return age >= minAge ? { kind: "ok" } : { kind: "under", minAge };
}

export const AGE_COOKIE = "locator_age";
const COOKIE_DAYS = 30;

/**
 * The kept verdict: "ok:21" (old enough for a minimum of 21, so for any lower one) or "under:21".
 * null when none is kept or it says nothing about minAge (under 21 says nothing about 18).
 */
export function keptVerdict(cookie: string, minAge: number): "ok" | "under" | null {
  const m = new RegExp(`(?:^|;\\s*)${AGE_COOKIE}=(ok|under):(\\d{1,2})(?:;|$)`).exec(cookie);
  if (!m) return null;
  const age = Number(m[2]);
  if (m[1] === "ok") return age >= minAge ? "ok" : null;
  return age <= minAge ? "under" : null;
}

/**
 * The cookie that keeps a verdict (first party, strictly necessary, no date of birth): "ok" for 30
 * days; "under" only until the browser closes, so a mistyped year does not lock an adult out for a
 * month (issue 39, m16).
 */
export function verdictCookie(verdict: "ok" | "under", minAge: number, secure: boolean): string {
  const lifetime = verdict === "ok" ? `; Max-Age=${COOKIE_DAYS * 86400}` : "";
  return `${AGE_COOKIE}=${verdict}:${minAge}${lifetime}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}

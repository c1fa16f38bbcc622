import { describe, expect, it } from "vitest";
import { ageOn, judge, keptVerdict, parseDate, todayIn, verdictCookie } from "./agecheck";

const d = (s: string) => parseDate(s)!;

describe("age check", () => {
  it("reads real dates only", () => {
    expect(parseDate("2005-11-27")).toEqual({ year: 2005, month: 11, day: 27 });
    expect(parseDate("2005-02-30")).toBeNull();
    expect(parseDate("2005-2-3")).toBeNull();
    expect(parseDate("")).toBeNull();
    expect(parseDate("2004-02-29")).not.toBeNull();
    expect(parseDate("2005-02-29")).toBeNull();
  });

  it("counts the birthday itself", () => {
    expect(ageOn(d("2005-11-27"), d("2026-11-26"))).toBe(20);
    expect(ageOn(d("2005-11-27"), d("2026-11-27"))).toBe(21);
    expect(ageOn(d("2005-12-31"), d("2026-01-01"))).toBe(20);
  });

  it("gives a 29 February birthday its year on 1 March in other years", () => {
    expect(ageOn(d("2004-02-29"), d("2025-02-28"))).toBe(20);
    expect(ageOn(d("2004-02-29"), d("2025-03-01"))).toBe(21);
    expect(ageOn(d("2004-02-29"), d("2024-02-29"))).toBe(20);
    expect(ageOn(d("2004-02-29"), d("2024-02-28"))).toBe(19);
  });

  it("judges on the date of the shopper's place", () => {
    // 03:00 UTC on 27 November is still 26 November in New York and Los Angeles.
    const now = new Date("2026-11-27T03:00:00Z");
    expect(todayIn("America/New_York", now)).toEqual({ year: 2026, month: 11, day: 26 });
    expect(todayIn("Asia/Tokyo", now)).toEqual({ year: 2026, month: 11, day: 27 });
    expect(judge("2005-11-27", 21, todayIn("America/New_York", now))).toEqual({ kind: "under", minAge: 21 });
    expect(judge("2005-11-27", 21, todayIn("Asia/Tokyo", now))).toEqual({ kind: "ok" });
    // An unknown zone falls back to the browser's, never throws.
    expect(todayIn("Mars/Base", now).year).toBeGreaterThan(2000);
  });

  it("refuses what is not a date of birth", () => {
    const today = d("2026-11-27");
    expect(judge("", 21, today).kind).toBe("invalid");
    expect(judge("2027-01-01", 21, today).kind).toBe("invalid");
    expect(judge("1890-01-01", 21, today).kind).toBe("invalid");
    expect(judge("2008-05-05", 18, today)).toEqual({ kind: "ok" });
    expect(judge("2008-05-05", 21, today)).toEqual({ kind: "under", minAge: 21 });
  });

  it("keeps the verdict, not the date, and reads it for the place's minimum", () => {
    const c = verdictCookie("ok", 21, true);
    expect(c).toMatch(/^locator_age=ok:21; Max-Age=2592000; Path=\/; SameSite=Lax; Secure$/);
    expect(c).not.toMatch(/\d{4}-\d{2}/);
    // Under age is kept only until the browser closes: a mistyped year locks no adult out for 30 days (issue 39, m16).
    expect(verdictCookie("under", 21, false)).toBe("locator_age=under:21; Path=/; SameSite=Lax");
    expect(keptVerdict("a=b; locator_age=ok:21", 21)).toBe("ok");
    expect(keptVerdict("locator_age=ok:21; a=b", 18)).toBe("ok");
    expect(keptVerdict("locator_age=ok:18", 21)).toBeNull();
    expect(keptVerdict("locator_age=under:21", 21)).toBe("under");
    expect(keptVerdict("locator_age=under:21", 18)).toBeNull();
    expect(keptVerdict("xlocator_age=ok:21", 21)).toBeNull();
    expect(keptVerdict("", 21)).toBeNull();
  });
});

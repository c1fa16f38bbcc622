/** How long a confirmation of a store's details counts as recent (docs/claims.md). */
export const VERIFIED_RECENT_DAYS = 180;
export const NOT_VERIFIED_RECENTLY = "Not verified recently";

const formats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 3, 2026" in the store's zone (UTC when it has none or the browser does not know it). */
function formatDate(at: Date, timeZone: string | null | undefined): string {
  const zone = timeZone || "UTC";
  let f = formats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    }
    formats.set(zone, f);
  }
  return f.format(at);
}

/**
 * The store's "last verified" line: "Verified Nov 3, 2026" when the owner or a moderator confirmed
 * the details within 180 days of `now`, "Not verified recently" otherwise (also when never
 * confirmed, or the date is unreadable). The date is the confirmation's date where the store is
 * (`timeZone`, as the store page writes it): a confirmation at 7 PM on Dec 1 in New York reads
 * "Dec 1", not the UTC "Dec 2" (issue #39, m27).
 */
export function verifiedLabel(lastVerifiedAt: string | null | undefined, now: Date, timeZone?: string | null): string {
  if (!lastVerifiedAt) return NOT_VERIFIED_RECENTLY;
  const at = new Date(lastVerifiedAt);
  if (Number.isNaN(at.getTime())) return NOT_VERIFIED_RECENTLY;
  if (now.getTime() - at.getTime() > VERIFIED_RECENT_DAYS * 24 * 60 * 60 * 1000) return NOT_VERIFIED_RECENTLY;
  return `Verified ${formatDate(at, timeZone)}`;
}

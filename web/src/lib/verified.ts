/** How long a confirmation of a store's details counts as recent (docs/claims.md). */
export const VERIFIED_RECENT_DAYS = 180;
export const NOT_VERIFIED_RECENTLY = "Not verified recently";

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * The store's "last verified" line: "Verified Nov 3, 2026" when the owner or a moderator confirmed
 * the details within 180 days of `now`, "Not verified recently" otherwise (also when never
 * confirmed, or the date is unreadable). The date is the UTC calendar date of the confirmation.
 */
export function verifiedLabel(lastVerifiedAt: string | null | undefined, now: Date): string {
  if (!lastVerifiedAt) return NOT_VERIFIED_RECENTLY;
  const at = new Date(lastVerifiedAt);
  if (Number.isNaN(at.getTime())) return NOT_VERIFIED_RECENTLY;
  if (now.getTime() - at.getTime() > VERIFIED_RECENT_DAYS * 24 * 60 * 60 * 1000) return NOT_VERIFIED_RECENTLY;
  return `Verified ${dateFormat.format(at)}`;
}

// Texts of the moderation page.
export const EMAIL_REQUIRED = "Enter your email";
export const PASSWORD_REQUIRED = "Enter your password";
export const SIGN_IN_FAILED = "Could not sign in";
export const REASON_REQUIRED = "Enter the reason for rejecting this claim; it is emailed to the owner.";
export const COORDINATES_INVALID = "Enter a latitude from -90 to 90 and a longitude from -180 to 180, or neither.";
export const NO_SUGGESTION =
  "The address could not be geocoded. Click the map or type the coordinates before approving.";
export const STATUS_LABELS = { pending: "Pending", approved: "Approved", rejected: "Rejected", all: "All" } as const;
/** The services whose hours a claim may give, as the claim view names them. */
export const SERVICE_LABELS = { delivery: "Delivery", curbside_pickup: "Curbside pickup", online_order: "Online ordering" } as const;

// Where the store stands (docs/claims.md).
export const MODERATOR_NO_STREETS =
  "The map here shows no streets: check the pin against the address (the owner's pin, a street map you trust) before you approve.";
export const centreOnlyText = (precision: string) =>
  `The address is found only at a centre (${precision}), not at the store: drag the marker onto the store, click the map or type its coordinates before approving.`;

/** Great-circle distance in km. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance in km said in miles, one decimal ("5.0 mi"). */
export const formatMiles = (km: number) => `${(km / 1.609344).toFixed(1)} mi`;

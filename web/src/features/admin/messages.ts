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

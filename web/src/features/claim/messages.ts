// Claim wizard texts; the toasts are fixed product texts, kept word for word (web/README.md, "Product rules").

export const SUCCESS_TITLE = "Store claim submitted!";
export const SUCCESS_TEXT = "We will review your claim and get back to you soon.";
export const FAILURE_TITLE = "Something went wrong";
export const FAILURE_TEXT = "Failed to submit your store claim. Please try again.";
export const SUBMITTING = "Submitting...";

// New texts (docs/claims.md, "A second store"): the thank-you step's way to the dashboard.
export const DASHBOARD_LINK = "Go to the store dashboard";
export const EXISTING_ACCOUNT_LINK = "Sign in to the store dashboard";
export const existingAccountText = (email: string) =>
  `You already have a business account with ${email}. Once the claim is approved, the store appears in your store dashboard: sign in there with that account's password.`;

// New texts (docs/claims.md, "Where the store stands"): step 4's pin, an addition to the spec's wizard.
export const PIN_TITLE = "Your store on the map (optional)";
export const PIN_INTRO =
  "Shoppers walk to this pin. Place it on your store's door, or tap I'm at the store now when you are there. A store we can find only at its ZIP code's or city's centre is published once you or a moderator place its pin.";
export const PIN_NO_STREETS =
  "The map here shows no streets: place the pin from the address (you know your block), or use I'm at the store now when you are there.";
export const DEVICE_LOCATING = "Finding where you are…";
export const DEVICE_FAILED = "Your location is not available: place the pin on the map instead";
export const roughDeviceText = (metres: number) =>
  `Your device knows where you are only to within ${Math.round(metres)} m: check the pin is on your door and drag it there if not.`;

/** What the wizard says of where the address was found. */
export function locatedText(located: { found: boolean; precision: string; approximate: boolean }): string {
  if (!located.found) return "We could not find this address on the map: click your store's door on the map, or type its coordinates.";
  if (located.approximate) {
    const centre = located.precision === "city" ? "the centre of the city" : "the centre of the ZIP code";
    return `We can place this address only at ${centre}, which may be miles from your door: click your store's door on the map, drag the pin there, or type its coordinates.`;
  }
  return "We found the street address: click your store's door on the map to confirm it.";
}

/** The pin placed, and how. */
export function pinnedText(at: { latitude: number; longitude: number }, source: string): string {
  const how = source === "device" ? "from your device at the store" : "on the map";
  return `Pin placed ${how}: ${at.latitude.toFixed(6)}, ${at.longitude.toFixed(6)}. The store is published there once approved.`;
}

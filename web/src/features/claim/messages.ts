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

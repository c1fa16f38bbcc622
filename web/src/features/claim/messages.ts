// Claim wizard texts; the toasts are fixed product texts, kept word for word (web/README.md, "Product rules").

export const SUCCESS_TITLE = "Store claim submitted!";
export const SUCCESS_TEXT = "We will review your claim and get back to you soon.";
export const FAILURE_TITLE = "Something went wrong";
export const FAILURE_TEXT = "Failed to submit your store claim. Please try again.";
export const SUBMITTING = "Submitting...";

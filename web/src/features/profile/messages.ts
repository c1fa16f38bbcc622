// Profile texts: fixed product texts, kept word for word, typos included (web/README.md, "Product rules").

export const FIRST_NAME_EMPTY = "First name cant be empty";
export const FIRST_NAME_TOO_LONG = "Name must be less than 255 symbols";
export const LAST_NAME_TOO_LONG = "Last name must be less than 255 symbols";
export { PHONE_REQUIRED, PHONE_TOO_LONG } from "../../lib/phone";
export const PASSWORD_REQUIRED = "Password is required";
export const PASSWORD_TOO_BIG = "Password is too big";
export const PASSWORD_MISMATCH = "New password do not match.";
export const PASSWORD_UPDATED = "Password updated";
export const PASSWORD_FAILED = "Reset password has been failed. Make sure you use existing user email.";

/** Longest name and password the forms accept (the phone's digits: lib/phone.ts). */
export const NAME_MAX = 255;
export const PASSWORD_MAX = 255;

// Proof of mailbox (docs/accounts.md).
export const EMAIL_CONFIRMED = "Confirmed";
export const EMAIL_NOT_CONFIRMED = "Not confirmed yet";
export const SEND_CONFIRMATION = "Send confirmation link";

// /profile signed out (issue 39, m24): new texts, in the tone of the ones above.
export const SIGN_IN_TO_SEE_PROFILE = "Sign in to see your profile";
export const SIGN_IN_TO_SEE_PROFILE_TEXT = "Your name, phone and password are kept in your member profile.";

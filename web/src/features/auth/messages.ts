// Texts of the auth popup and the reset page: fixed product texts, kept word for word, typos
// included (web/README.md, "Product rules").

export const EMAIL_REQUIRED = "Email is required";
export const PASSWORD_REQUIRED = "Password is required";
export const FIRST_NAME_REQUIRED = "First name is required";
export const LAST_NAME_REQUIRED = "Last name is required";
export { PHONE_REQUIRED } from "../../lib/phone";

export const SIGN_IN_FAILED = "These credentials do not match our records";
export const RESET_REQUEST_FAILED = "User with this email not found";

export const RESET_DONE = "Password has been reset.  Now you can login";
export const RESET_FAILED = "Reset password has been failed. Make sure you use existing user email.";
/** Under the reset page's confirmation: the spec's words for the same check on the profile. */
export const PASSWORDS_DIFFER = "New password do not match.";

// New texts (docs/product-rules.md, "Accounts"), in the tone of the ones above.
export const SIGNED_UP = "Your account has been created. Please sign in.";
export const RESET_NO_TOKEN = "This reset link is incomplete. Open the link from the email again.";

// Proof of mailbox (docs/accounts.md): new texts, in the tone of the ones above.
export const CONFIRM_EMAIL_HEADING = "Confirm your email";
export const CONFIRM_EMAIL_TEXT = "Enter your password to confirm that this email address is yours.";
export const CONFIRM_EMAIL_BUTTON = "Confirm email";
export const CONFIRM_EMAIL_NO_TOKEN = "This confirmation link is incomplete. Open the link from the email again.";

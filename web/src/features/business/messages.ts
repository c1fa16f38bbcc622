// Texts of the store dashboard. The validation messages are the server's own (internal/business),
// so a form shows the same words whether the browser or the server finds the problem.
export const EMAIL_REQUIRED = "Enter your email";
export const PASSWORD_REQUIRED = "Enter your password";
export const SIGN_IN_FAILED = "Could not sign in";
export const PHONE_TOO_LONG = "Phone number must be less than 32 symbols";
export const PHONE_CHARACTERS = "Phone number may contain only digits, spaces, + - ( ) and .";
export const WEBSITE_INVALID = "Website must be a web address, e.g. https://example.com";
export const WEBSITE_TOO_LONG = "Website must be less than 2048 symbols";
export const HOURS_TOO_LONG = "Hours must be less than 1000 symbols";
export const NAME_REQUIRED = "Name is required";
export const NAME_TOO_LONG = "Name must be less than 255 symbols";
export const ADDRESS_REQUIRED = "Address is required";
export const CITY_REQUIRED = "City is required";
export const POSTAL_CODE_REQUIRED = "Postal code is required";
export const COORDINATES_BOTH = "Give both latitude and longitude, or neither";
export const LATITUDE_RANGE = "Latitude must be between -90 and 90";
export const LONGITUDE_RANGE = "Longitude must be between -180 and 180";
export const NOTHING_CHANGED = "Nothing to save: change a field first.";
export const SAVED = "Changes saved and published.";
export const CHANGE_REQUESTED = "Sent to a moderator. The new details are published once approved.";
export const VERIFIED = "Thank you: the details are marked as verified today.";
export const RESET_SENT = "If an account exists for this email, a link to reset the password is on its way.";
export const RESET_DONE = "Your password has been reset. Sign in with the new one.";
export const PASSWORDS_DIFFER = "The passwords do not match";
export const RESET_NO_TOKEN = "This reset link is incomplete. Open the link from the email again.";

/** "Working hours: give Monday both an opening and a closing time, or neither" (the server's words). */
export const hoursBoth = (day: string) => `Working hours: give ${day} both an opening and a closing time, or neither`;
export const hoursFormat = (day: string) => `Working hours: ${day} times must be HH:MM, e.g. 09:00`;
export const DATE_REQUIRED = "Enter a date";
export const SPAN_TIMES = "Give an opening and a closing time, or mark the date closed";
export const NOTE_TOO_LONG = "Note must be at most 100 characters";
export const CLOSURE_FROM_REQUIRED = "Enter the first day of the closure";
export const CLOSURE_ORDER = "The closure cannot end before it starts";
export const PHOTO_TYPE = "The photo must be a JPEG, PNG or WebP image";
export const PHOTO_SIZE = "The photo must be at most 8 MB";
export const PHOTO_CHOOSE = "Choose a photo to upload";
export const PHOTO_UPLOADED = "Photo uploaded. It is shown in the locator now.";

// Proof of mailbox (docs/accounts.md): an unconfirmed account sees only this.
export const CONFIRM_HEADING = "Confirm your email";
export const confirmPrompt = (email: string) =>
  `We sent a link to ${email}. Open it and enter your password to confirm that this mailbox is yours: then you can manage your store here.`;
export const RESEND = "Send the link again";
export const CONFIRM_PAGE_TEXT = "Enter the password you chose when you claimed your store to confirm your email.";
export const CONFIRM_BUTTON = "Confirm email";
export const CONFIRM_NO_TOKEN = "This confirmation link is incomplete. Open the link from the email again, or sign in to send a new one.";

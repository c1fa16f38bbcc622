import { z } from "zod";
import { normalizePhone, PHONE_MESSAGES } from "./phone";

// zod probes for eval with Function("") before its first object parse; the server's
// Content-Security-Policy refuses eval and reports each attempt. Its interpreted checks need
// none. Every schema takes z from here (ESLint forbids importing "zod" elsewhere), so this runs
// before any parse.
z.config({ jitless: true });

export { z };

/** A string that must hold something other than spaces; `message` when it does not. */
export function required(message: string) {
  return z.string().refine((value) => value.trim() !== "", { message });
}

/**
 * An email field. The rule is the server's, one for every form (internal/identity/email.go:
 * trimmed, compared lower-case, a bare address whose domain has a dot), and its message is shown
 * as-is; the form only asks for something typed, and the claim wizard for an "@" before it goes on.
 */
export function email(requiredMessage: string) {
  return required(requiredMessage);
}

/** Whether a typed address has the "@" the claim wizard waits for before its Continue. */
export const hasAt = (value: string) => value.includes("@");

/** The server's password policy (internal/secret/policy.go): 8 to 255 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 255;
export const PASSWORD_TOO_SHORT = "Password must be at least 8 characters";
export const PASSWORD_TOO_BIG = "Password is too big";

/**
 * A new password, checked as the server checks it, but for its list of the most common passwords:
 * that is server side only, and the form shows the server's message.
 */
export function newPassword(requiredMessage: string) {
  const length = (value: string) => [...value].length; // characters, as the server counts them
  return required(requiredMessage)
    .refine((value) => length(value) >= PASSWORD_MIN, { message: PASSWORD_TOO_SHORT })
    .refine((value) => length(value) <= PASSWORD_MAX, { message: PASSWORD_TOO_BIG });
}

/**
 * A member's phone, one rule at sign-up and on the profile (lib/phone.ts): at most 12 digits,
 * whatever separators were typed; the parsed value is the number's one stored form.
 */
export function memberPhone() {
  return z
    .string()
    .superRefine((value, ctx) => {
      const { problem } = normalizePhone(value);
      if (problem) ctx.addIssue({ code: "custom", message: PHONE_MESSAGES[problem] });
    })
    .transform((value) => normalizePhone(value).phone ?? value);
}

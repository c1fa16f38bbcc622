import { memberPhone, newPassword, z } from "../../lib/validation";
import {
  FIRST_NAME_EMPTY,
  FIRST_NAME_TOO_LONG,
  LAST_NAME_TOO_LONG,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MISMATCH,
  PASSWORD_REQUIRED,
  PASSWORD_TOO_BIG,
} from "./messages";

const notBlank = (value: string) => value.trim() !== "";

/** Name: both required, not blank after trimming, at most 255; a blank last name reads "First name cant be empty" too. */
export const nameSchema = z.object({
  first_name: z.string().refine(notBlank, FIRST_NAME_EMPTY).refine((v) => v.length <= NAME_MAX, FIRST_NAME_TOO_LONG),
  last_name: z.string().refine(notBlank, FIRST_NAME_EMPTY).refine((v) => v.length <= NAME_MAX, LAST_NAME_TOO_LONG),
});
export type NameValues = z.infer<typeof nameSchema>;

/** Phone: the sign-up's rule (at most 12 digits, separators as typed); parses to the stored form. */
export const phoneSchema = z.object({ phone: memberPhone() });
export type PhoneValues = z.input<typeof phoneSchema>;

const password = z.string().min(1, PASSWORD_REQUIRED).max(PASSWORD_MAX, PASSWORD_TOO_BIG);

/** Password change: old, new and confirm required, at most 255; the new one 8 or more; confirm equals new. */
export const passwordSchema = z
  .object({ old_password: password, new_password: newPassword(PASSWORD_REQUIRED), confirm_password: password })
  .refine((v) => v.confirm_password === v.new_password, { message: PASSWORD_MISMATCH, path: ["confirm_password"] });
export type PasswordValues = z.infer<typeof passwordSchema>;

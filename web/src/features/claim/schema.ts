import { email, hasAt, newPassword, z } from "../../lib/validation";
import type { ClaimPayload } from "./api/submit-claim";

const filled = z.string().refine((v) => v.trim() !== "");

/** What each step needs before Continue is enabled. Step 6 is the thank-you. */
export const stepSchemas = {
  1: z.object({ business_name: filled }),
  2: z.object({ email: email("").refine(hasAt) }),
  3: z.object({ phone: filled }),
  4: z.object({ country: filled, city: filled, postal_code: filled, address1: filled }),
  5: z.object({ password: newPassword("") }),
} as const;

export type FormStep = keyof typeof stepSchemas;
export const FORM_STEPS = 5;

/**
 * The wizard's values: every field of the claim request (ClaimPayload, from the API's contract) as
 * the form keeps it, a string ("yes" for adult_only, an adult-only store: docs/rules.md), and the
 * password of the business account the wizard creates. The owner's pin (pin_latitude, pin_longitude:
 * "" for none; pin_source "map" or "device") is kept as text like the rest and sent as numbers.
 */
export type ClaimValues = Record<keyof ClaimPayload, string> & { password: string };

export const EMPTY_VALUES: ClaimValues = {
  business_name: "",
  email: "",
  phone: "",
  country: "",
  state: "",
  address1: "",
  city: "",
  postal_code: "",
  website: "",
  working_hours: "",
  category: "",
  licence_number: "",
  delivery_hours: "",
  curbside_pickup_hours: "",
  online_order_hours: "",
  adult_only: "",
  pin_latitude: "",
  pin_longitude: "",
  pin_source: "",
  password: "",
};

export function stepIsValid(step: FormStep, values: ClaimValues): boolean {
  return stepSchemas[step].safeParse(values).success;
}

import { newPassword, z } from "../../lib/validation";

const filled = z.string().refine((v) => v.trim() !== "");

/** What each step needs before Continue is enabled. Step 6 is the thank-you. */
export const stepSchemas = {
  1: z.object({ business_name: filled }),
  2: z.object({ email: filled.refine((v) => v.includes("@")) }),
  3: z.object({ phone: filled }),
  4: z.object({ country: filled, city: filled, postal_code: filled, address1: filled }),
  5: z.object({ password: newPassword("") }),
} as const;

export type FormStep = keyof typeof stepSchemas;
export const FORM_STEPS = 5;

export interface ClaimValues {
  business_name: string;
  email: string;
  phone: string;
  country: string;
  state: string;
  address1: string;
  city: string;
  postal_code: string;
  website: string;
  working_hours: string;
  category: string;
  licence_number: string;
  delivery_hours: string;
  curbside_pickup_hours: string;
  online_order_hours: string;
  /** "yes": an adult-only store (docs/rules.md); a string like every value of the wizard. */
  adult_only: string;
  password: string;
}

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
  password: "",
};

export function stepIsValid(step: FormStep, values: ClaimValues): boolean {
  return stepSchemas[step].safeParse(values).success;
}

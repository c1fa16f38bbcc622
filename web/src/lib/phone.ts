// One rule for a telephone number a person types, the web app's mirror of internal/phone: people
// write "(212) 555-0199", "212.555.0199" or "+1 212 555 0199" for the same number, so separators
// do not count; the length limit applies to the digits; every spelling is sent and stored in one
// form (E.164 for a North American number, "+12125550199", as store phones are) and shown in the
// national format "(212) 555-0199".

/** The product's "phone max 12", counted in digits (docs/product-rules.md, "Members"). */
export const PHONE_MAX_DIGITS = 12;
/** The typed text, separators included, is bounded too (as the server bounds it). */
export const PHONE_MAX_CHARS = 32;

export type PhoneProblem = "required" | "too-long" | "invalid";
export type NormalizedPhone = { phone: string; problem?: undefined } | { phone?: undefined; problem: PhoneProblem };

const SEPARATORS = /[ ().-]/g;

/**
 * Checks a typed number and returns its one stored form: a North American number (10 digits whose
 * area and exchange codes start with 2-9, optionally after 1 or +1) becomes "+1" and its 10
 * digits; any other keeps its digits and its leading "+", if it had one.
 */
export function normalizePhone(typed: string): NormalizedPhone {
  const value = typed.trim();
  if (value === "") return { problem: "required" };
  if (value.length > PHONE_MAX_CHARS) return { problem: "too-long" };
  const plus = value.startsWith("+");
  const rest = (plus ? value.slice(1) : value).replace(SEPARATORS, "");
  if (!/^[0-9]+$/.test(rest)) return { problem: "invalid" };
  if (rest.length > PHONE_MAX_DIGITS) return { problem: "too-long" };
  const national = northAmerican(rest, plus);
  if (national) return { phone: `+1${national}` };
  return { phone: plus ? `+${rest}` : rest };
}

function northAmerican(digits: string, plus: boolean): string | null {
  let national: string;
  if (digits.length === 10 && !plus) national = digits;
  else if (digits.length === 11 && digits.startsWith("1")) national = digits.slice(1);
  else return null;
  // Area and exchange codes never start with 0 or 1, which keeps another country's national
  // number ("0201234567") as typed.
  return /^[2-9]\d\d[2-9]\d{6}$/.test(national) ? national : null;
}

/** A stored number as people in its country write it: "(212) 555-0199", anything else as stored. */
export function formatPhone(stored: string): string {
  const { phone } = normalizePhone(stored);
  if (phone === undefined) return stored;
  const national = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return national ? `(${national[1]}) ${national[2]}-${national[3]}` : phone;
}

/** What a phone input lets through as it is typed: digits, the separators people use, a leading "+". */
export function phoneInputFilter(value: string): string {
  const plus = value.trimStart().startsWith("+") ? "+" : "";
  return plus + value.replace(/[^0-9 ().-]/g, "");
}

// The member's phone messages: the first two are the product's, word for word (typo included);
// the third is our own, for characters that are not part of a number.
export const PHONE_REQUIRED = "Phone is required";
export const PHONE_TOO_LONG = "Phone should be less thant 12 symbols";
export const PHONE_INVALID = "Phone may contain only digits, spaces, ( ) - . and a leading +";

export const PHONE_MESSAGES: Record<PhoneProblem, string> = {
  required: PHONE_REQUIRED,
  "too-long": PHONE_TOO_LONG,
  invalid: PHONE_INVALID,
};

/**
 * The tel: link of a stored number: its one stored form ("tel:+19175550166" for a North American
 * number however written), or its digits and a leading + when it is no number normalizePhone reads.
 * The panel shows formatPhone's text and dials this (docs/product-rules.md, "One truth per store").
 */
export function phoneHref(stored: string): string {
  const { phone } = normalizePhone(stored);
  if (phone !== undefined) return `tel:${phone}`;
  const trimmed = stored.trim();
  return `tel:${trimmed.startsWith("+") ? "+" : ""}${trimmed.replace(/\D/g, "")}`;
}

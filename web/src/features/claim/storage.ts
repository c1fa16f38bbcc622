import { EMPTY_VALUES, FORM_STEPS, type ClaimValues, type FormStep } from "./schema";

const KEY = "locator:claim-wizard";

export interface Draft {
  step: FormStep;
  values: ClaimValues;
}

/** The wizard as it was before a reload (sessionStorage); the password is never kept. */
export function loadDraft(): Draft {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return { step: 1, values: { ...EMPTY_VALUES } };
    const parsed = JSON.parse(raw) as { step?: unknown; values?: Partial<Record<keyof ClaimValues, unknown>> };
    const values = { ...EMPTY_VALUES };
    for (const key of Object.keys(EMPTY_VALUES) as (keyof ClaimValues)[]) {
      const value = parsed.values?.[key];
      if (key !== "password" && typeof value === "string") values[key] = value;
    }
    const step = typeof parsed.step === "number" && parsed.step >= 1 && parsed.step <= FORM_STEPS ? (Math.floor(parsed.step) as FormStep) : 1;
    return { step, values };
  } catch {
    return { step: 1, values: { ...EMPTY_VALUES } };
  }
}

export function saveDraft(step: FormStep, values: ClaimValues): void {
  const { password: _password, ...kept } = values;
  void _password;
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ step, values: kept }));
  } catch {
    // Storage full or disabled: the wizard still works, it just forgets on reload.
  }
}

export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to clear.
  }
}

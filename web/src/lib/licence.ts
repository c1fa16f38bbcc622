import type { components } from "../api/schema";

export type StoreLicence = components["schemas"]["StoreLicence"];
export type Enforcement = components["schemas"]["Enforcement"];

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "Dec 31, 2026" for a YYYY-MM-DD date (the registry's calendar date, no time zone). */
export function formatRegistryDate(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? date : dateFormat.format(at);
}

/** The UTC calendar date of `now`, YYYY-MM-DD. */
const isoDate = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The licence's status on `now`: the registry's, except that an active licence past its expiry
 * date is expired (the file may be older than the expiry; stores.Licence.StatusOn).
 */
export function licenceStatusOn(licence: StoreLicence, now: Date): StoreLicence["status"] {
  return licence.status === "active" && licence.expires_on !== null && licence.expires_on < isoDate(now) ? "expired" : licence.status;
}

/**
 * The licence line shoppers see on `now` (docs/licences.md, "What shoppers see"): what the registry
 * records, never our own judgement, its expiry date included. Null when no registry we read lists
 * the store: nothing is shown then.
 */
export function licenceLine(licence: StoreLicence | null | undefined, now: Date): string | null {
  if (!licence) return null;
  const what = `${licence.kind} #${licence.number}`;
  const checked = `source checked ${formatRegistryDate(licence.checked_at)}`;
  switch (licenceStatusOn(licence, now)) {
    case "active":
      return ["Licence verified", what, licence.expires_on && `expires ${formatRegistryDate(licence.expires_on)}`, checked]
        .filter(Boolean)
        .join(" · ");
    case "expired":
      return [licence.expires_on ? `Licence expired on ${formatRegistryDate(licence.expires_on)}` : "Licence expired", what, checked].join(" · ");
    case "revoked":
      return ["Licence revoked", what, checked].join(" · ");
    default:
      return ["Licence inactive", what, checked].join(" · ");
  }
}

const ACTION_NAMES: Record<Enforcement["kind"], string> = {
  no_tobacco_sale_order: "No-Tobacco-Sale Order",
  civil_money_penalty: "Civil money penalty",
  warning_letter: "Warning letter",
};

/** The warning for a No-Tobacco-Sale Order in force on `now`, with its dates; null when none is. */
export function saleOrderWarning(enforcement: Enforcement[] | undefined, now: Date): string | null {
  const today = isoDate(now);
  const order = (enforcement ?? []).find(
    (e) => e.kind === "no_tobacco_sale_order" && e.decided_on <= today && (e.until === null || e.until >= today),
  );
  if (!order) return null;
  const until = order.until ? ` until ${formatRegistryDate(order.until)}` : "";
  return `FDA No-Tobacco-Sale Order from ${formatRegistryDate(order.decided_on)}${until}: this store may not sell tobacco products`;
}

/** The other enforcement records, newest first: "Warning letter, Mar 2, 2025". */
export function enforcementHistory(enforcement: Enforcement[] | undefined, now: Date): string[] {
  const warning = saleOrderWarning(enforcement, now);
  return (enforcement ?? [])
    .filter((e) => !(warning && e.kind === "no_tobacco_sale_order" && (e.until === null || e.until >= isoDate(now))))
    .map((e) => `${ACTION_NAMES[e.kind]}, ${formatRegistryDate(e.decided_on)}`);
}

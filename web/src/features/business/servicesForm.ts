import { sameEntries, type SpecialEntry } from "./holidayForm";
import type { BusinessStore, StorePatch } from "./types";
import { sameWeek, validateWeek, weekEntries, weekOf, type Day, type DayHours, type Errors } from "./storeForm";

// The service settings of the dashboard (internal/business/services.go): each service's own week,
// special dates, last order and pause, as plain values, their checks and the PATCH body each sends.

export type ServiceKey = keyof BusinessStore["services"];
export type ServicePatch = NonNullable<NonNullable<StorePatch["services"]>[ServiceKey]>;

export const SERVICE_KEYS: readonly ServiceKey[] = ["delivery", "curbside_pickup", "online_order"];
export const SERVICE_TITLES: Record<ServiceKey, string> = { delivery: "Delivery", curbside_pickup: "Curbside pickup", online_order: "Online orders" };

export const LAST_ORDER_RANGE = "Last order must be a whole number of minutes from 0 to 240";

export interface ServiceValues {
  /** Own hours; otherwise the service follows the store's hours. */
  own: boolean;
  week: Record<Day, DayHours>;
  /** The service's own special dates, over its week or the store's (checked as the store's). */
  special: SpecialEntry[];
  lastOrder: string;
}

export function serviceValuesOf(store: BusinessStore, key: ServiceKey): ServiceValues {
  const s = store.services[key];
  const own = (s.hours?.length ?? 0) > 0;
  return { own, week: weekOf(own && s.hours ? s.hours : store.workingHours), special: s.special_hours, lastOrder: String(s.last_order_minutes) };
}

export type ServiceField = `week.${Day}` | "lastOrder";

export function validateService(v: ServiceValues): Errors<ServiceField> {
  const errors: Errors<ServiceField> = v.own ? validateWeek(v.week) : {};
  const n = Number(v.lastOrder.trim() || "0");
  if (!Number.isInteger(n) || n < 0 || n > 240) errors.lastOrder = LAST_ORDER_RANGE;
  return errors;
}

/** The changed settings of one service, or null when nothing changed. */
export function servicePatch(store: BusinessStore, key: ServiceKey, v: ServiceValues): ServicePatch | null {
  const was = serviceValuesOf(store, key);
  const patch: ServicePatch = {};
  if (v.own !== was.own || (v.own && !sameWeek(v.week, was.week))) patch.hours = v.own ? weekEntries(v.week) : [];
  if (!sameEntries(v.special, was.special)) patch.special_hours = v.special;
  const n = Number(v.lastOrder.trim() || "0");
  if (n !== store.services[key].last_order_minutes) patch.last_order_minutes = n;
  return Object.keys(patch).length === 0 ? null : patch;
}

/** A one-click pause's end as the API takes it: an instant an hour ahead, "closing", or a date (through that day). */
export function pauseUntil(kind: "hour" | "closing" | "date", now: Date, date = ""): string {
  if (kind === "hour") return new Date(now.getTime() + 60 * 60_000).toISOString();
  return kind === "closing" ? "closing" : date;
}

/** Whether the service is paused at `now`. */
export function isPaused(store: BusinessStore, key: ServiceKey, now: Date): boolean {
  const until = store.services[key].paused_until;
  return until !== null && Date.parse(until) > now.getTime();
}

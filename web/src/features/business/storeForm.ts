import {
  ADDRESS_REQUIRED,
  CITY_REQUIRED,
  COORDINATES_BOTH,
  HOURS_TOO_LONG,
  hoursBoth,
  hoursFormat,
  LATITUDE_RANGE,
  LONGITUDE_RANGE,
  NAME_REQUIRED,
  NAME_TOO_LONG,
  PHONE_CHARACTERS,
  PHONE_TOO_LONG,
  POSTAL_CODE_REQUIRED,
  WEBSITE_INVALID,
  WEBSITE_TOO_LONG,
} from "./messages";
import type { WorkingHour } from "../../api/types";
import type { BusinessStore, StorePatch } from "./types";

// The dashboard's two forms as plain values, their checks (the server's rules and words,
// internal/business/stores.go) and the PATCH body each sends: only the fields the owner changed.

export const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export type Day = (typeof DAYS)[number];

/** One day of the week form: open with one opening and one closing time, or closed. */
export interface DayHours {
  open: boolean;
  start: string;
  end: string;
}

/** The fields an owner publishes at once. */
export interface DetailsValues {
  phone_number: string;
  website: string;
  hours: string;
  is_delivery_available: boolean;
  is_order_online_available: boolean;
  is_curbside_pickup_available: boolean;
  /** The store's kind (docs/rules.md): some rules exempt adult-only stores. */
  adult_only: boolean;
  week: Record<Day, DayHours>;
}

/** Name, address and position: a moderator publishes them. */
export interface LocationValues {
  name: string;
  address: string;
  city: string;
  state: string;
  postal_code: string;
  latitude: string;
  longitude: string;
}

export type Errors<K extends string> = Partial<Record<K, string>>;

/** Shows what a form's check found (an empty object: nothing); true when nothing was found and the form may go on. */
export function passes<E extends object>(found: E, show: (found: E) => void): boolean {
  show(found);
  return Object.keys(found).length === 0;
}

/** The form's week from weekly entries (the first entry of a day; none: closed). */
export function weekOf(hours: BusinessStore["workingHours"]): Record<Day, DayHours> {
  const week = {} as Record<Day, DayHours>;
  for (const day of DAYS) {
    const entry = hours.find((h) => h.weekDay === day);
    week[day] =
      entry?.startTime && entry.endTime ? { open: true, start: entry.startTime, end: entry.endTime } : { open: false, start: "", end: "" };
  }
  return week;
}

export function detailsOf(store: BusinessStore): DetailsValues {
  return {
    phone_number: store.phone_number,
    website: store.website,
    hours: store.hours,
    is_delivery_available: store.is_delivery_available,
    is_order_online_available: store.is_order_online_available,
    is_curbside_pickup_available: store.is_curbside_pickup_available,
    adult_only: store.adult_only,
    week: weekOf(store.workingHours),
  };
}

export function locationOf(store: BusinessStore): LocationValues {
  return {
    name: store.name,
    address: store.address,
    city: store.city,
    state: store.state,
    postal_code: store.postal_code,
    latitude: String(store.latitude),
    longitude: String(store.longitude),
  };
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** A web address as the server takes it: http(s), or a bare host that becomes https://host. */
export function normalizeWebsite(value: string): string {
  const v = value.trim();
  if (v === "" || v.includes("://")) return v;
  return `https://${v}`;
}

function websiteValid(v: string): boolean {
  const m = /^https?:\/\/([^/]*)/.exec(v);
  return (m?.[1]?.includes(".") ?? false) && !/[\s<>"]/.test(v);
}

export type DetailsField = Exclude<keyof DetailsValues, "week"> | `week.${Day}`;

export function validateDetails(v: DetailsValues): Errors<DetailsField> {
  const errors: Errors<DetailsField> = {};
  const phone = v.phone_number.trim();
  if ([...phone].length > 32) errors.phone_number = PHONE_TOO_LONG;
  else if (/[^0-9+\-(). ]/.test(phone)) errors.phone_number = PHONE_CHARACTERS;
  const website = normalizeWebsite(v.website);
  if (website.length > 2048) errors.website = WEBSITE_TOO_LONG;
  else if (website !== "" && !websiteValid(website)) errors.website = WEBSITE_INVALID;
  if ([...v.hours.trim()].length > 1000) errors.hours = HOURS_TOO_LONG;
  return { ...errors, ...validateWeek(v.week) };
}

/** A week form's errors, by `week.{Day}`. */
export function validateWeek(week: Record<Day, DayHours>): Errors<`week.${Day}`> {
  const errors: Errors<`week.${Day}`> = {};
  for (const day of DAYS) {
    const d = week[day];
    if (!d.open) continue;
    if (d.start === "" || d.end === "") errors[`week.${day}`] = hoursBoth(day);
    else if (!CLOCK.test(d.start) || !CLOCK.test(d.end)) errors[`week.${day}`] = hoursFormat(day);
  }
  return errors;
}

export const sameWeek = (a: Record<Day, DayHours>, b: Record<Day, DayHours>) =>
  DAYS.every((d) => a[d].open === b[d].open && (!a[d].open || (a[d].start === b[d].start && a[d].end === b[d].end)));

/** A week form as the API's seven entries. */
export function weekEntries(week: Record<Day, DayHours>): WorkingHour[] {
  return DAYS.map((day) =>
    week[day].open ? { weekDay: day, startTime: week[day].start, endTime: week[day].end } : { weekDay: day, startTime: null, endTime: null },
  );
}

/** The PATCH body of the details form: the changed fields only (the week as seven entries). */
export function detailsPatch(store: BusinessStore, v: DetailsValues): StorePatch {
  const was = detailsOf(store);
  const patch: StorePatch = {};
  if (v.phone_number.trim() !== was.phone_number) patch.phone_number = v.phone_number.trim();
  if (normalizeWebsite(v.website) !== was.website) patch.website = normalizeWebsite(v.website);
  if (v.hours.trim() !== was.hours) patch.hours = v.hours.trim();
  for (const flag of ["is_delivery_available", "is_order_online_available", "is_curbside_pickup_available", "adult_only"] as const) {
    if (v[flag] !== was[flag]) patch[flag] = v[flag];
  }
  if (!sameWeek(v.week, was.week)) patch.workingHours = weekEntries(v.week);
  return patch;
}

export function validateLocation(v: LocationValues): Errors<keyof LocationValues> {
  const errors: Errors<keyof LocationValues> = {};
  if (v.name.trim() === "") errors.name = NAME_REQUIRED;
  else if ([...v.name.trim()].length > 255) errors.name = NAME_TOO_LONG;
  if (v.address.trim() === "") errors.address = ADDRESS_REQUIRED;
  if (v.city.trim() === "") errors.city = CITY_REQUIRED;
  if (v.postal_code.trim() === "") errors.postal_code = POSTAL_CODE_REQUIRED;
  const lat = v.latitude.trim();
  const lon = v.longitude.trim();
  if ((lat === "") !== (lon === "")) {
    errors.latitude = COORDINATES_BOTH;
  } else if (lat !== "") {
    const la = Number(lat);
    const lo = Number(lon);
    if (!Number.isFinite(la) || la < -90 || la > 90) errors.latitude = LATITUDE_RANGE;
    if (!Number.isFinite(lo) || lo < -180 || lo > 180) errors.longitude = LONGITUDE_RANGE;
  }
  return errors;
}

/** The PATCH body of the change-request form: the changed fields only (position as a pair). */
export function locationPatch(store: BusinessStore, v: LocationValues): StorePatch {
  const was = locationOf(store);
  const patch: StorePatch = {};
  for (const f of ["name", "address", "city", "state", "postal_code"] as const) {
    if (v[f].trim() !== was[f]) patch[f] = v[f].trim();
  }
  const la = Number(v.latitude.trim());
  const lo = Number(v.longitude.trim());
  if (v.latitude.trim() !== "" && (la !== store.latitude || lo !== store.longitude)) {
    patch.latitude = la;
    patch.longitude = lo;
  }
  return patch;
}

import type { components } from "./schema";

/** Shared API types, aliases of the generated schema (never hand-written). */
export type PhysicalStore = components["schemas"]["PhysicalStore"];
export type WorkingHour = components["schemas"]["WorkingHour"];
export type SpecialHour = components["schemas"]["SpecialHour"];
export type TemporaryClosure = components["schemas"]["TemporaryClosure"];
/** One service of a store now (delivery, curbside pickup, online orders). */
export type ServiceState = components["schemas"]["ServiceState"];
export type ServiceName = keyof PhysicalStore["services"];
/** Each offered service's state now (a list entry carries only the offered ones). */
export type ServicesNow = Partial<Record<ServiceName, ServiceState>>;
/** A search answer entry: the store plus its distance in miles. */
export type StoreWithDistance = PhysicalStore & { distance: number };
/** The search answer: the stores in the list's lighter form, and each rule they name once. */
export type StoreList = components["schemas"]["StoreList"];
/** A store as the search lists it (docs/api.md, "The list answer"); the panel fetches the whole store. */
export type StoreListItem = components["schemas"]["StoreListItem"];
/** What the store panel shows: the whole store, or the list's entry until it arrives. */
export type StoreView = PhysicalStore | StoreListItem;
export type ReviewList = components["schemas"]["ReviewList"];
export type Customer = components["schemas"]["Customer"];
export type AttributionSource = components["schemas"]["Source"];
/** A rule of the rulebook as a store or a place carries it (docs/rules.md). */
export type Rule = components["schemas"]["Rule"];
export type PlaceRules = components["schemas"]["PlaceRules"];

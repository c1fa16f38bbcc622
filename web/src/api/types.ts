import type { components } from "./schema";

/** Shared API types, aliases of the generated schema (never hand-written). */
export type PhysicalStore = components["schemas"]["PhysicalStore"];
export type WorkingHour = components["schemas"]["WorkingHour"];
export type SpecialHour = components["schemas"]["SpecialHour"];
export type TemporaryClosure = components["schemas"]["TemporaryClosure"];
/** One service of a store now (delivery, curbside pickup, online orders). */
export type ServiceState = components["schemas"]["ServiceState"];
export type ServiceName = keyof PhysicalStore["services"];
/** A search answer entry: the store plus its distance in miles. */
export type StoreWithDistance = PhysicalStore & { distance: number };
export type ReviewList = components["schemas"]["ReviewList"];
export type Customer = components["schemas"]["Customer"];
export type AttributionSource = components["schemas"]["Source"];
/** A rule of the rulebook as a store or a place carries it (docs/rules.md). */
export type Rule = components["schemas"]["Rule"];
export type PlaceRules = components["schemas"]["PlaceRules"];

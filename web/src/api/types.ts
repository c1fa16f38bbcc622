import type { components } from "./schema";

/** Shared API types, aliases of the generated schema (never hand-written). */
export type PhysicalStore = components["schemas"]["PhysicalStore"];
export type WorkingHour = components["schemas"]["WorkingHour"];
export type StoreWithDistance = components["schemas"]["StoreList"]["physical_stores"][number];
export type ReviewList = components["schemas"]["ReviewList"];

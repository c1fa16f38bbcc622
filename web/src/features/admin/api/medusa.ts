import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type MedusaLocation = components["schemas"]["MedusaLocation"];
export type MedusaProposal = components["schemas"]["MedusaProposal"];
export type MedusaSyncState = components["schemas"]["MedusaSyncState"];

/** GET admin/medusa/locations: the stock locations a sync read, with their stores, and the sync's state. */
export function medusaLocationsOptions() {
  return queryOptions({
    queryKey: [...adminKeys.medusa, "locations"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/medusa/locations", { credentials: "include", signal })),
    staleTime: 0,
  });
}

/** GET admin/medusa/locations/{id}/proposals: the stores the location probably is, best first. */
export function medusaProposalsOptions(id: string) {
  return queryOptions({
    queryKey: [...adminKeys.medusa, "proposals", id] as const,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/medusa/locations/{id}/proposals", { params: { path: { id } }, credentials: "include", signal })).proposals,
    staleTime: 0,
  });
}

/** PUT admin/medusa/locations/{id}/store: map the location to a store (null unmaps it). */
export async function mapMedusaLocation(id: string, storeId: number | null) {
  return unwrap(
    await api.PUT("/admin/medusa/locations/{id}/store", { params: { path: { id } }, body: { store_id: storeId }, credentials: "include" }),
  ).location;
}

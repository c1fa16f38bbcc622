import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import type { paths } from "../../../api/schema";

/** Query key of the stores to place (signed-out removes it with the other admin keys). */
export const approximateKey = ["admin", "approximate"] as const;

export type ApproximateStore =
  paths["/admin/stores/approximate"]["get"]["responses"]["200"]["content"]["application/json"]["stores"][number];

/** GET admin/stores/approximate: published stores standing only at a ZIP or city centre, oldest first, and how many. */
export function approximateStoresOptions() {
  return queryOptions({
    queryKey: approximateKey,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/stores/approximate", { credentials: "include", signal })),
    staleTime: 0,
  });
}

/** POST admin/stores/{id}/position: the moderator's pin; the store then stands there, precision exact. */
export async function placeStore(id: number, at: { latitude: number; longitude: number }) {
  return unwrap(await api.POST("/admin/stores/{id}/position", { params: { path: { id } }, body: at, credentials: "include" }));
}

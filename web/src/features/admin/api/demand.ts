import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";
import { apiBase } from "../../../lib/config";

export type Demand = components["schemas"]["Demand"];

/** GET admin/insights/demand: searches and zero-result searches by cell, place and postal code over the last days. */
export function demandOptions(days: number) {
  return queryOptions({
    queryKey: adminKeys.demand(days),
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/insights/demand", { params: { query: { days } }, credentials: "include", signal })),
    staleTime: 0,
  });
}

/** The CSV export's address (a plain link: the moderator's cookie goes with it). */
export const demandCsvUrl = (days: number) => `${apiBase}/admin/insights/demand.csv?days=${days}`;

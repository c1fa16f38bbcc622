import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type StoreInsights = components["schemas"]["StoreInsights"];
export type InsightPeriod = StoreInsights["days"];

/** GET business/stores/{id}/insights: the store's counts per day over 7, 30 or 90 days, with the period before. */
export function storeInsightsOptions(id: number, days: InsightPeriod) {
  return queryOptions({
    queryKey: businessKeys.insights(id, days),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/business/stores/{id}/insights", { params: { path: { id }, query: { days } }, credentials: "include", signal })),
    staleTime: 0,
  });
}

/** GET business/insights-mail: whether the monthly summary mail is on. */
export function insightsMailOptions() {
  return queryOptions({
    queryKey: businessKeys.insightsMail,
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/insights-mail", { credentials: "include", signal })).enabled,
  });
}

/** PUT business/insights-mail: switches the monthly summary mail on or off. */
export async function setInsightsMail(enabled: boolean): Promise<boolean> {
  return unwrap(await api.PUT("/business/insights-mail", { body: { enabled }, credentials: "include" })).enabled;
}

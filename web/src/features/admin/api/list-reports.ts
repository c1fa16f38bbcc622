import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";

/** GET admin/reports: stores with open reports, the most reported first, with their current data. */
export function reportsOptions() {
  return queryOptions({
    queryKey: adminKeys.reports,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/reports", { credentials: "include", signal })).stores,
    staleTime: 0,
  });
}

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";

/** GET admin/reports: one page of the stores with open reports, the most reported first, with their current data. */
export function reportsOptions(page: number) {
  return queryOptions({
    queryKey: [...adminKeys.reports, page] as const,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/reports", { params: { query: { page } }, credentials: "include", signal })),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

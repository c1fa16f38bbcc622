import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";

/** GET admin/change-requests: the pending name, address and position changes of owners, oldest first. */
export function changeRequestsOptions() {
  return queryOptions({
    queryKey: adminKeys.changes,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/change-requests", { params: { query: { status: "pending" } }, credentials: "include", signal })).change_requests,
    staleTime: 0,
  });
}

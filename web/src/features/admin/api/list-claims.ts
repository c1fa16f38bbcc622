import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { ClaimFilter } from "../types";

/** GET admin/claims?status=: claims, oldest first. */
export function claimsOptions(status: ClaimFilter) {
  return queryOptions({
    queryKey: adminKeys.list(status),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/claims", { params: { query: { status } }, credentials: "include", signal })).claims,
    staleTime: 0,
  });
}

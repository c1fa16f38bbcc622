import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";

/** GET admin/claims/{id}: one claim with its geocoded location (the list has it for pending only). */
export function claimOptions(id: number) {
  return queryOptions({
    queryKey: adminKeys.claim(id),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/claims/{id}", { params: { path: { id } }, credentials: "include", signal })),
    staleTime: 0,
  });
}

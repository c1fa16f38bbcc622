import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";

/** GET store/physical-store/{id}: the store whose reviews are shown. */
export function storeOptions(id: number) {
  return queryOptions({
    queryKey: ["physical-store", id],
    queryFn: async ({ signal }) => unwrap(await api.GET("/store/physical-store/{id}", { params: { path: { id } }, signal })),
  });
}

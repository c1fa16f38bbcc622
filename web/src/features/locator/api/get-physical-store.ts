import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";

/** GET store/physical-store/{id}: one store, for a deep link to a store not in the list. */
export function physicalStoreOptions(id: number) {
  return queryOptions({
    queryKey: ["physical-store", id],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/store/physical-store/{id}", { params: { path: { id } }, signal })),
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../client";
import { storeKeys } from "../keys";

/** GET store/physical-store/{id}: one store (a shared link or a favourite not in the list; the reviews page's title). */
export function physicalStoreOptions(id: number) {
  return queryOptions({
    queryKey: storeKeys.detail(id),
    queryFn: async ({ signal }) => unwrap(await api.GET("/store/physical-store/{id}", { params: { path: { id } }, signal })),
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../client";
import { storeKeys } from "../keys";

/**
 * GET store/physical-store/{id}: one store, whole (the store panel, over the list's lighter entry;
 * a shared link or a favourite; the reviews page's title). Fresh for 30 s, so a row's prefetch on
 * hover serves the click; the panel works its status out at the minute from the store's fields.
 */
export function physicalStoreOptions(id: number) {
  return queryOptions({
    queryKey: storeKeys.detail(id),
    queryFn: async ({ signal }) => unwrap(await api.GET("/store/physical-store/{id}", { params: { path: { id } }, signal })),
    staleTime: 30_000,
  });
}

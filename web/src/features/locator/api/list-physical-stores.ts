import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { SEARCH_RADIUS } from "../../../lib/constants";

export interface StoreSearch {
  latitude: number;
  longitude: number;
}

/** GET store/physical-store/list-physical-store/: the stores near a point. */
export function listPhysicalStoresOptions({ latitude, longitude }: StoreSearch) {
  return queryOptions({
    queryKey: ["physical-stores", { latitude, longitude, radius: SEARCH_RADIUS }],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/store/physical-store/list-physical-store/", {
          params: { query: { latitude, longitude, radius: SEARCH_RADIUS } },
          signal,
        }),
      ),
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { placeKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

/** A place search result. */
export type Place = components["schemas"]["Place"];

/**
 * GET store/physical-store/search-places?q=: success is code 200 with a list in data; anything
 * else (status or code) fails, and the search box then offers only the current location.
 */
export function searchPlacesOptions(q: string) {
  return queryOptions({
    queryKey: placeKeys.search(q),
    queryFn: async ({ signal }): Promise<Place[]> => {
      const answer = unwrap(await api.GET("/store/physical-store/search-places", { params: { query: { q } }, signal }));
      if ((answer.code as number) !== 200 || !Array.isArray(answer.data)) {
        throw new Error(`Place search failed: ${JSON.stringify(answer.data)}`);
      }
      return answer.data.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

import { queryOptions } from "@tanstack/react-query";
import { requestJson } from "../../../api/http";

/** A place search result (spec section 3); lat and lon may come as text. */
export interface Place {
  display_name: string;
  lat: number;
  lon: number;
}

interface Answer {
  code: number;
  data: { display_name: string; lat: string | number; lon: string | number }[] | { code?: unknown };
}

/**
 * GET store/physical-store/search-places?q= (typed here until api/openapi.yaml has it).
 * Success is code 200 with a list in data; anything else fails.
 */
export function searchPlacesOptions(q: string) {
  return queryOptions({
    queryKey: ["search-places", q],
    queryFn: async ({ signal }): Promise<Place[]> => {
      const answer = await requestJson<Answer>("/store/physical-store/search-places", { query: { q }, signal });
      if (answer.code !== 200 || !Array.isArray(answer.data)) {
        throw new Error(`Place search failed: ${JSON.stringify(answer.data)}`);
      }
      return answer.data
        .map((p) => ({ display_name: p.display_name, lat: Number(p.lat), lon: Number(p.lon) }))
        .filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { placeKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

/** A place search result. */
export type Place = components["schemas"]["Place"];

/** The suggestions, and the server's plain note when it could not look up what was typed (a street address without a geocoder). */
export interface PlaceAnswer {
  places: Place[];
  note: string;
}

/**
 * GET store/physical-store/search-places?q=&lat=&lon=: success is code 200 with a list in data;
 * anything else (status or code) fails, and the search box then offers only the current location.
 * `near` is the map's centre, which breaks near-ties between places of one name; it is rounded
 * to a tenth of a degree (about 10 km) so small moves of the map reuse the answer.
 */
export function searchPlacesOptions(q: string, near?: { latitude: number; longitude: number }) {
  const lat = near ? Math.round(near.latitude * 10) / 10 : undefined;
  const lon = near ? Math.round(near.longitude * 10) / 10 : undefined;
  return queryOptions({
    queryKey: placeKeys.search(q, near ? `${lat},${lon}` : ""),
    queryFn: async ({ signal }): Promise<PlaceAnswer> => {
      const answer = unwrap(await api.GET("/store/physical-store/search-places", { params: { query: { q, lat, lon } }, signal }));
      if ((answer.code as number) !== 200 || !Array.isArray(answer.data)) {
        throw new Error(`Place search failed: ${JSON.stringify(answer.data)}`);
      }
      return { places: answer.data.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon)), note: answer.note ?? "" };
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { attributionKeys } from "../../../api/keys";
import type { AttributionSource } from "../../../api/types";
import { BASEMAP_SOURCES } from "../../../components/map/basemapStyle";
import { nextTask } from "../../../lib/nextTask";

export type { AttributionSource };

/** The server's sources (place search) when /api/attribution is not available. */
export const DEFAULT_ATTRIBUTION: AttributionSource[] = [{ name: "GeoNames", license: "CC BY 4.0", url: "https://www.geonames.org/" }];

/** GET attribution: the data sources the server uses (GeoNames for places, ...). */
export async function fetchAttribution(): Promise<AttributionSource[]> {
  await nextTask(); // the basemap's credits show meanwhile: out of the first effects' task
  try {
    const { sources } = unwrap(await api.GET("/attribution"));
    return sources.length > 0 ? sources : DEFAULT_ATTRIBUTION;
  } catch {
    return DEFAULT_ATTRIBUTION;
  }
}

export function attributionOptions() {
  return queryOptions({ queryKey: attributionKeys.all, queryFn: fetchAttribution, staleTime: Infinity });
}

/** Sources to credit on the map: the basemap's (offline only) then the server's, each once. */
export function mapAttribution(server: AttributionSource[], offline: boolean): AttributionSource[] {
  const all = [...(offline ? BASEMAP_SOURCES : []), ...server];
  return all.filter((s, i) => all.findIndex((o) => o.name === s.name) === i);
}

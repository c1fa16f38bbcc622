import { api, unwrap } from "../../../api/client";
import type { AttributionSource } from "../../../api/types";

export type { AttributionSource };

/** The sources to credit when /api/attribution is not available. */
export const DEFAULT_ATTRIBUTION: AttributionSource[] = [
  { name: "Natural Earth", license: "Public domain", url: "https://www.naturalearthdata.com/" },
  { name: "US Census Bureau", license: "Public domain", url: "https://www.census.gov/geographies/mapping-files.html" },
  { name: "GeoNames", license: "CC BY 4.0", url: "https://www.geonames.org/" },
];

/** GET attribution: the data sources to credit on the map. */
export async function fetchAttribution(): Promise<AttributionSource[]> {
  try {
    const { sources } = unwrap(await api.GET("/attribution"));
    return sources.length > 0 ? sources : DEFAULT_ATTRIBUTION;
  } catch {
    return DEFAULT_ATTRIBUTION;
  }
}

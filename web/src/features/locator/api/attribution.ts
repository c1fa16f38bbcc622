import { requestJson } from "../../../api/http";

export interface AttributionSource {
  name: string;
  license: string;
  url: string;
}

/** The sources to credit when /api/attribution is not available. */
export const DEFAULT_ATTRIBUTION: AttributionSource[] = [
  { name: "Natural Earth", license: "Public domain", url: "https://www.naturalearthdata.com/" },
  { name: "US Census Bureau", license: "Public domain", url: "https://www.census.gov/geographies/mapping-files.html" },
  { name: "GeoNames", license: "CC BY 4.0", url: "https://www.geonames.org/" },
];

/** GET attribution: the data sources to credit on the map. */
export async function fetchAttribution(): Promise<AttributionSource[]> {
  try {
    const answer = await requestJson<{ sources: AttributionSource[] }>("/attribution");
    return Array.isArray(answer.sources) && answer.sources.length > 0 ? answer.sources : DEFAULT_ATTRIBUTION;
  } catch {
    return DEFAULT_ATTRIBUTION;
  }
}

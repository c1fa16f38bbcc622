// The offline basemap's addresses, first colour and credits, shared by the MapLibre maps, the
// locator's static preview (drawn in a worker) and the map credits. No MapLibre code here: the
// locator's initial bundle imports this file. The basemap itself (vector tiles and its style) is
// served by the binary (internal/maptiles): land, country, state and county lines from Natural
// Earth and the US Census Bureau, the seas and tidal rivers at street zooms from OpenStreetMap,
// place names from GeoNames.

/** The style the app's maps use: the offline basemap, or the street map of LOCATOR_PMTILES. */
export const MAP_STYLE_URL = "/map/style.json";
/** The offline basemap's style, always; the preview draws it. */
export const BASEMAP_STYLE_URL = "/map/basemap.json";

/**
 * Credits for the offline basemap's boundaries (both public domain). GeoNames and OpenStreetMap
 * (the basemap's water at street zooms, ODbL) come from /api/attribution: drawn a moment later,
 * they make the credits' first paint one line, smaller than the locator's heading (the LCP).
 */
export const BASEMAP_SOURCES: readonly { name: string; license: string; url: string }[] = [
  { name: "Natural Earth", license: "Public domain", url: "https://www.naturalearthdata.com/" },
  { name: "US Census Bureau", license: "Public domain", url: "https://www.census.gov/geographies/mapping-files.html" },
];

/** The basemap's water, shown under the preview before its first drawing. */
export const WATER_COLOR = "#cde3ef";
export const GRID_COLOR = "#7f9bb0";

// The offline basemap's data, colours and credits, shared by the MapLibre style (basemap.ts),
// the locator's static preview drawn in a worker and the map credits. No MapLibre code here:
// the locator's initial bundle imports this file. The TopoJSON files are served as static
// assets with the app: countries from Natural Earth (npm world-atlas), US states from the US
// Census Bureau (npm us-atlas).
import countriesUrl from "world-atlas/countries-110m.json?url";
import statesUrl from "us-atlas/states-10m.json?url";

export { countriesUrl, statesUrl };

/** Credits for the offline basemap's data (both public domain). */
export const BASEMAP_SOURCES: readonly { name: string; license: string; url: string }[] = [
  { name: "Natural Earth", license: "Public domain", url: "https://www.naturalearthdata.com/" },
  { name: "US Census Bureau", license: "Public domain", url: "https://www.census.gov/geographies/mapping-files.html" },
];

export const BASEMAP_COLORS = {
  water: "#cde3ef",
  countriesFill: "#f2efe6",
  statesFill: "#f6f4ee",
  statesLine: "#b9b3a4",
  countriesLine: "#9c968a",
  grid: "#7f9bb0",
} as const;

/** Line widths in CSS pixels: [zoom, width] stops, linear between them, constant outside. */
export const STATES_LINE_WIDTH: readonly [number, number, number, number] = [3, 0.5, 10, 1.5];
export const COUNTRIES_LINE_WIDTH: readonly [number, number, number, number] = [2, 0.6, 10, 2];

/** A line width at a zoom, as MapLibre's ["interpolate", ["linear"], ["zoom"], z0, w0, z1, w1]. */
export function lineWidth([z0, w0, z1, w1]: readonly [number, number, number, number], zoom: number): number {
  if (zoom <= z0) return w0;
  if (zoom >= z1) return w1;
  return w0 + ((zoom - z0) / (z1 - z0)) * (w1 - w0);
}

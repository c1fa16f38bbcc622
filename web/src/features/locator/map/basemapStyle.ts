// The offline basemap's data and colours, shared by the MapLibre style (basemap.ts) and the
// static preview drawn in a worker (previewWorker.ts). The TopoJSON files are served as static
// assets with the app: countries from Natural Earth (npm world-atlas), US states from the US
// Census Bureau (npm us-atlas).
import countriesUrl from "world-atlas/countries-110m.json?url";
import statesUrl from "us-atlas/states-10m.json?url";

export { countriesUrl, statesUrl };

export const BASEMAP_COLORS = {
  water: "#cde3ef",
  countriesFill: "#f2efe6",
  statesFill: "#f6f4ee",
  statesLine: "#b9b3a4",
  countriesLine: "#9c968a",
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

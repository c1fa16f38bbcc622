import type { Demand } from "../api/demand";

export type HeatField = "searches" | "zero_results";

/** The cells as GeoJSON points weighted 0..1 by field (the busiest cell is 1); cells without any are left out. */
export function heatPoints(cells: Demand["cells"], field: HeatField) {
  const max = Math.max(1, ...cells.map((c) => c[field]));
  return {
    type: "FeatureCollection" as const,
    features: cells
      .filter((c) => c[field] > 0)
      .map((c) => ({
        type: "Feature" as const,
        geometry: { type: "Point" as const, coordinates: [c.longitude, c.latitude] },
        properties: { weight: c[field] / max, count: c[field] },
      })),
  };
}

/** The view that shows every cell with some of field: [west, south, east, north], or null when none. */
export function heatBounds(cells: Demand["cells"], field: HeatField): [number, number, number, number] | null {
  const some = cells.filter((c) => c[field] > 0);
  if (some.length === 0) return null;
  const lons = some.map((c) => c.longitude);
  const lats = some.map((c) => c.latitude);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

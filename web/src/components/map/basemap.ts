import type { Feature, FeatureCollection, LineString } from "geojson";
import type { Map as MapLibreMap, StyleSpecification } from "maplibre-gl";
import { GRID_COLOR } from "./basemapStyle";

/** Grid lines every `step` degrees, so a position can be read without a street map. */
export function graticule(step = 10): FeatureCollection<LineString> {
  const features: Feature<LineString>[] = [];
  for (let lon = -180; lon <= 180; lon += step) {
    features.push({ type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: [[lon, -85], [lon, 85]] } });
  }
  for (let lat = -80; lat <= 80; lat += step) {
    const coordinates: [number, number][] = [];
    for (let lon = -180; lon <= 180; lon += 5) coordinates.push([lon, lat]);
    features.push({ type: "Feature", properties: {}, geometry: { type: "LineString", coordinates } });
  }
  return { type: "FeatureCollection", features };
}

/** Adds the 10-degree grid over the map's style (the moderation map, where a position is read off the map). */
export function addGrid(map: MapLibreMap): void {
  if (map.getSource("grid")) return;
  map.addSource("grid", { type: "geojson", data: graticule() });
  map.addLayer({ id: "grid", type: "line", source: "grid", paint: { "line-color": GRID_COLOR, "line-width": 0.5, "line-dasharray": [2, 2] } });
}

/** Resolves the style's root-relative URLs (tiles, sprites) against the page, so MapLibre's worker fetches them from this origin. */
export function absoluteUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * The style with its sprite URLs made absolute: MapLibre rejects a relative sprite URL before
 * transformRequest sees it, and the street style's (/map/sprites/streets) is root-relative.
 */
export function withAbsoluteSprites(style: StyleSpecification, base: string): StyleSpecification {
  const { sprite } = style;
  if (sprite === undefined) return style;
  return {
    ...style,
    sprite: typeof sprite === "string" ? absoluteUrl(sprite, base) : sprite.map((s) => ({ ...s, url: absoluteUrl(s.url, base) })),
  };
}

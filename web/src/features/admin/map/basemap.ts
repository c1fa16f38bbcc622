import type { Feature, FeatureCollection, LineString } from "geojson";
import type { StyleSpecification } from "maplibre-gl";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countriesUrl from "world-atlas/countries-110m.json?url";
import statesUrl from "us-atlas/states-10m.json?url";

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

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

/**
 * The offline basemap of the moderation map: the same data as the Locator page (countries from
 * Natural Earth via npm world-atlas, US states from the US Census Bureau via npm us-atlas, served
 * as static files with the app) plus a 10-degree grid. No tiles, no glyphs.
 */
export function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      countries: { type: "geojson", data: EMPTY },
      states: { type: "geojson", data: EMPTY },
      grid: { type: "geojson", data: graticule() },
    },
    layers: [
      { id: "water", type: "background", paint: { "background-color": "#cde3ef" } },
      { id: "countries-fill", type: "fill", source: "countries", paint: { "fill-color": "#f2efe6" } },
      { id: "states-fill", type: "fill", source: "states", paint: { "fill-color": "#f6f4ee" } },
      { id: "states-line", type: "line", source: "states", paint: { "line-color": "#b9b3a4", "line-width": 1 } },
      { id: "countries-line", type: "line", source: "countries", paint: { "line-color": "#9c968a", "line-width": 1.2 } },
      { id: "grid", type: "line", source: "grid", paint: { "line-color": "#7f9bb0", "line-width": 0.5, "line-dasharray": [2, 2] } },
    ],
  };
}

async function loadTopo(url: string, object: string): Promise<FeatureCollection> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`basemap ${url}: ${response.status}`);
  const topo = (await response.json()) as Topology;
  return feature(topo, topo.objects[object] as GeometryCollection);
}

/** Loads the basemap's countries and US states. */
export async function loadBasemapData(): Promise<{ countries: FeatureCollection; states: FeatureCollection }> {
  const [countries, states] = await Promise.all([loadTopo(countriesUrl, "countries"), loadTopo(statesUrl, "states")]);
  return { countries, states };
}

/** Credits for the offline basemap's data. */
export const OFFLINE_ATTRIBUTION = [
  '<a href="https://www.naturalearthdata.com/" target="_blank" rel="noopener">Natural Earth</a>',
  '<a href="https://www.census.gov/geographies/mapping-files.html" target="_blank" rel="noopener">US Census Bureau</a>',
];

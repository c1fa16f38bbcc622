import type { Feature, FeatureCollection, LineString } from "geojson";
import type { ExpressionSpecification, StyleSpecification } from "maplibre-gl";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { BASEMAP_COLORS, COUNTRIES_LINE_WIDTH, countriesUrl, STATES_LINE_WIDTH, statesUrl } from "./basemapStyle";

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

const widthByZoom = ([z0, w0, z1, w1]: readonly [number, number, number, number]): ExpressionSpecification => [
  "interpolate",
  ["linear"],
  ["zoom"],
  z0,
  w0,
  z1,
  w1,
];

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
 * The offline basemap: no tile server and no glyphs. The countries and states sources start
 * empty; `loadBasemapData` fills them (createMap does it once the style is loaded). `grid` adds
 * a 10-degree grid (the moderation map, where a position is read off the map).
 */
export function offlineStyle({ grid = false }: { grid?: boolean } = {}): StyleSpecification {
  const style: StyleSpecification = {
    version: 8,
    sources: {
      countries: { type: "geojson", data: EMPTY },
      states: { type: "geojson", data: EMPTY },
    },
    layers: [
      { id: "water", type: "background", paint: { "background-color": BASEMAP_COLORS.water } },
      { id: "countries-fill", type: "fill", source: "countries", paint: { "fill-color": BASEMAP_COLORS.countriesFill } },
      { id: "states-fill", type: "fill", source: "states", paint: { "fill-color": BASEMAP_COLORS.statesFill } },
      {
        id: "states-line",
        type: "line",
        source: "states",
        paint: { "line-color": BASEMAP_COLORS.statesLine, "line-width": widthByZoom(STATES_LINE_WIDTH) },
      },
      {
        id: "countries-line",
        type: "line",
        source: "countries",
        paint: { "line-color": BASEMAP_COLORS.countriesLine, "line-width": widthByZoom(COUNTRIES_LINE_WIDTH) },
      },
    ],
  };
  if (grid) {
    style.sources.grid = { type: "geojson", data: graticule() };
    style.layers.push({
      id: "grid",
      type: "line",
      source: "grid",
      paint: { "line-color": BASEMAP_COLORS.grid, "line-width": 0.5, "line-dasharray": [2, 2] },
    });
  }
  return style;
}

async function loadTopo(url: string, object: string): Promise<FeatureCollection> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`basemap ${url}: ${response.status}`);
  const topo = (await response.json()) as Topology;
  return feature(topo, topo.objects[object] as GeometryCollection);
}

export interface BasemapData {
  countries: FeatureCollection;
  states: FeatureCollection;
}

let loading: Promise<BasemapData> | null = null;

/** The basemap's countries and US states as GeoJSON, fetched once (again after a failure). */
export function loadBasemapData(): Promise<BasemapData> {
  loading ??= Promise.all([loadTopo(countriesUrl, "countries"), loadTopo(statesUrl, "states")]).then(
    ([countries, states]) => ({ countries, states }),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

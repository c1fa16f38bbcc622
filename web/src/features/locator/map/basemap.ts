import type { FeatureCollection } from "geojson";
import type { StyleSpecification } from "maplibre-gl";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { BASEMAP_COLORS, COUNTRIES_LINE_WIDTH, countriesUrl, STATES_LINE_WIDTH, statesUrl } from "./basemapStyle";

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

const [sz0, sw0, sz1, sw1] = STATES_LINE_WIDTH;
const [cz0, cw0, cz1, cw1] = COUNTRIES_LINE_WIDTH;

/**
 * The offline basemap: no tile server and no glyphs. Countries from Natural Earth (npm
 * world-atlas) and US states from the US Census Bureau (npm us-atlas), both TopoJSON served as
 * static files with the app and turned into GeoJSON here.
 */
export function offlineStyle(): StyleSpecification {
  return {
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
        paint: { "line-color": BASEMAP_COLORS.statesLine, "line-width": ["interpolate", ["linear"], ["zoom"], sz0, sw0, sz1, sw1] },
      },
      {
        id: "countries-line",
        type: "line",
        source: "countries",
        paint: { "line-color": BASEMAP_COLORS.countriesLine, "line-width": ["interpolate", ["linear"], ["zoom"], cz0, cw0, cz1, cw1] },
      },
    ],
  };
}

async function loadTopo(url: string, object: string): Promise<FeatureCollection> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`basemap ${url}: ${response.status}`);
  const topo = (await response.json()) as Topology;
  const geometries = topo.objects[object] as GeometryCollection;
  return feature(topo, geometries);
}

/** Loads the basemap's GeoJSON: countries and US states. */
export async function loadBasemapData(): Promise<{ countries: FeatureCollection; states: FeatureCollection }> {
  const [countries, states] = await Promise.all([loadTopo(countriesUrl, "countries"), loadTopo(statesUrl, "states")]);
  return { countries, states };
}

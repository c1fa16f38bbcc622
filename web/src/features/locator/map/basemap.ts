import type { FeatureCollection } from "geojson";
import type { StyleSpecification } from "maplibre-gl";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countriesUrl from "world-atlas/countries-110m.json?url";
import statesUrl from "us-atlas/states-10m.json?url";

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

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
      { id: "water", type: "background", paint: { "background-color": "#cde3ef" } },
      { id: "countries-fill", type: "fill", source: "countries", paint: { "fill-color": "#f2efe6" } },
      { id: "states-fill", type: "fill", source: "states", paint: { "fill-color": "#f6f4ee" } },
      {
        id: "states-line",
        type: "line",
        source: "states",
        paint: { "line-color": "#b9b3a4", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.5, 10, 1.5] },
      },
      {
        id: "countries-line",
        type: "line",
        source: "countries",
        paint: { "line-color": "#9c968a", "line-width": ["interpolate", ["linear"], ["zoom"], 2, 0.6, 10, 2] },
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

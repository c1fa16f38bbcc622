import { AttributionControl, type GeoJSONSource, type Map as MapLibreMap } from "maplibre-gl";
import { useEffect, useRef, useState } from "react";
import { BASEMAP_SOURCES } from "../../../components/map/basemapStyle";
import { createMap } from "../../../components/map/createMap";
import { mapStyleUrl } from "../../../lib/config";
import type { Demand } from "../api/demand";
import { heatBounds, heatPoints, type HeatField } from "./heat";

const OFFLINE_ATTRIBUTION = BASEMAP_SOURCES.map((s) => `<a href="${s.url}" target="_blank" rel="noopener">${s.name}</a>`);
const SOURCE = "demand";

/** The demand's cells as a heat layer over the app's map (its own lazy chunk: it loads MapLibre). */
export default function DemandMap({ cells, field, onError }: { cells: Demand["cells"]; field: HeatField; onError: () => void }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const failed = useRef(onError);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    let map: MapLibreMap;
    try {
      const created = createMap({ container: node, center: [-98.35, 39.5], zoom: 3 });
      map = created.map;
      created.basemap
        .then(() => {
          map.addSource(SOURCE, { type: "geojson", data: heatPoints([], "searches") });
          map.addLayer({
            id: "demand-heat",
            type: "heatmap",
            source: SOURCE,
            paint: {
              "heatmap-weight": ["get", "weight"],
              "heatmap-radius": ["interpolate", ["linear"], ["zoom"], 3, 12, 12, 30],
              "heatmap-opacity": 0.8,
            },
          });
          setReady(true);
        })
        .catch((error: unknown) => console.error("Could not load the basemap", error));
    } catch (error) {
      console.error("Could not load the map", error);
      failed.current();
      return;
    }
    mapRef.current = map;
    map.addControl(new AttributionControl({ compact: true, customAttribution: mapStyleUrl() ? [] : OFFLINE_ATTRIBUTION }), "bottom-right");
    return () => {
      mapRef.current = null;
      map.remove();
    };
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    void map.getSource<GeoJSONSource>(SOURCE)?.setData(heatPoints(cells, field));
    const b = heatBounds(cells, field);
    if (b) map.fitBounds(b, { padding: 40, maxZoom: 11, duration: 0 });
  }, [cells, field, ready]);

  return <div ref={container} className="h-80 w-full rounded-md border border-gray-200" aria-label="Map of searches by area" role="region" />;
}

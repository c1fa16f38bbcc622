// MapLibre as both app maps use it (the locator's store map and the moderation page's location
// picker). Importing this file loads MapLibre: only lazily loaded chunks may import it.
import "maplibre-gl/dist/maplibre-gl.css";
import { type GeoJSONSource, Map as MapLibreMap, type MapOptions, NavigationControl, setWorkerUrl } from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import markerIcon from "../../assets/marker.svg";
import { mapStyleUrl } from "../../lib/config";
import { MARKER_SIZE, MAX_ZOOM } from "../../lib/constants";
import { loadBasemapData, offlineStyle } from "./basemap";

setWorkerUrl(workerUrl);

// Fetch the offline basemap's data as soon as the map code loads, alongside MapLibre's start-up.
if (!mapStyleUrl()) void loadBasemapData().catch(() => undefined);

export interface CreateMapOptions extends Omit<MapOptions, "container" | "style"> {
  container: HTMLElement;
  /** The offline basemap gets a 10-degree grid. */
  grid?: boolean;
}

/**
 * A map with the configured style (`mapStyleUrl`) or the offline basemap, north up and flat (no
 * rotation, no tilt), zoom buttons without a compass, no credits (each caller adds its own).
 * `basemap` settles once the offline basemap's data is on the map (at once with a configured
 * style); it rejects when the data cannot be loaded. Throws when MapLibre cannot start (no WebGL).
 */
export function createMap({ grid = false, ...options }: CreateMapOptions): { map: MapLibreMap; basemap: Promise<void> } {
  const styleUrl = mapStyleUrl();
  const map = new MapLibreMap({
    style: styleUrl ?? offlineStyle({ grid }),
    attributionControl: false,
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    maxZoom: MAX_ZOOM,
    ...options,
  });
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), "top-right");
  const basemap = styleUrl
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        map.once("load", () => {
          loadBasemapData()
            .then(({ countries, states }) => {
              void map.getSource<GeoJSONSource>("countries")?.setData(countries);
              void map.getSource<GeoJSONSource>("states")?.setData(states);
              resolve();
            })
            .catch(reject);
        });
      });
  return { map, basemap };
}

/** The store marker's icon (32 x 32 px), for a MapLibre marker's element; decorative (alt ""). */
export function markerImage(): HTMLImageElement {
  const img = document.createElement("img");
  img.src = markerIcon;
  img.alt = "";
  img.width = MARKER_SIZE;
  img.height = MARKER_SIZE;
  return img;
}

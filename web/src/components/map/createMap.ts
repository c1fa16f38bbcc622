// MapLibre as both app maps use it (the locator's store map and the moderation page's location
// picker). Importing this file loads MapLibre: only lazily loaded chunks may import it.
import "maplibre-gl/dist/maplibre-gl.css";
import { Map as MapLibreMap, type MapOptions, NavigationControl, setWorkerUrl } from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import markerIcon from "../../assets/marker.svg";
import { mapStyleUrl } from "../../lib/config";
import { MARKER_SIZE, MAX_ZOOM } from "../../lib/constants";
import { absoluteUrl, addGrid, withAbsoluteSprites } from "./basemap";
import { MAP_STYLE_URL } from "./basemapStyle";

setWorkerUrl(workerUrl);

export interface CreateMapOptions extends Omit<MapOptions, "container" | "style"> {
  container: HTMLElement;
  /** A 10-degree grid over the basemap. */
  grid?: boolean;
}

/**
 * A map with the configured style (`mapStyleUrl`) or the binary's own (`/map/style.json`: the
 * offline basemap, or the street map of LOCATOR_PMTILES), north up and flat (no rotation, no
 * tilt), zoom buttons without a compass, no credits (each caller adds its own). Labels are drawn
 * with the browser's fonts (the offline basemap) or the Noto Sans files the binary serves (the
 * street map's font-faces, fetched through transformRequest); neither style has a glyph server.
 * `basemap` settles once the style is loaded. Throws when MapLibre cannot start (no WebGL).
 */
export function createMap({ grid = false, ...options }: CreateMapOptions): { map: MapLibreMap; basemap: Promise<void> } {
  const map = new MapLibreMap({
    style: mapStyleUrl() ?? MAP_STYLE_URL,
    attributionControl: false,
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    maxZoom: MAX_ZOOM,
    transformRequest: (url) => ({ url: absoluteUrl(url, window.location.href) }),
    transformStyle: (_previous, next) => withAbsoluteSprites(next, window.location.href),
    ...options,
  });
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), "top-right");
  // A missing icon (a point of interest of the street style with no sprite image) is left blank.
  map.on("styleimagemissing", (e: { id: string }) => {
    if (!map.hasImage(e.id)) map.addImage(e.id, { width: 1, height: 1, data: new Uint8Array(4) });
  });
  const basemap = new Promise<void>((resolve) => {
    map.once("load", () => {
      if (grid) addGrid(map);
      resolve();
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

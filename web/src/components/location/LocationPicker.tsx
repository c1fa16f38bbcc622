import { AttributionControl, type Map as MapLibreMap, Marker } from "maplibre-gl";
import { useEffect, useRef } from "react";
import { BASEMAP_SOURCES } from "../map/basemapStyle";
import { createMap, markerImage } from "../map/createMap";
import { mapStyleUrl } from "../../lib/config";
import type { Coordinates } from "./coordinates";
import { hasStreets, STREETS_ZOOM } from "./streets";

/** The offline basemap's credits, as links in MapLibre's attribution control. */
const OFFLINE_ATTRIBUTION = BASEMAP_SOURCES.map((s) => `<a href="${s.url}" target="_blank" rel="noopener">${s.name}</a>`);

/** Centre of the contiguous United States, for a store with no position yet. */
const WORLD_VIEW = { center: [-98.35, 39.5] as [number, number], zoom: 3 };
const POSITION_ZOOM = 14;

export interface LocationPickerProps {
  /** The marker's position; null shows no marker until the map is clicked. */
  position: Coordinates | null;
  /** The marker was dragged or the map clicked. */
  onChange: (position: Coordinates) => void;
  /** The map could not start (e.g. no WebGL). */
  onError?: () => void;
  /** Where the map starts when there is no position yet (null: the whole country). */
  center?: Coordinates | null;
  /**
   * Whether the map shows streets around its centre once it has drawn at street zoom (null:
   * zoomed out too far to tell). The default basemap has none: a pin can then only be checked
   * against the address.
   */
  onStreets?: (streets: boolean | null) => void;
}

/**
 * A small MapLibre map (its own lazy chunk) with one draggable marker. Dragging it or clicking
 * the map reports the new position; a new `position` prop moves the marker. Keyboard users set
 * the position in the latitude and longitude fields next to it.
 */
export default function LocationPicker({ position, onChange, onError, center, onStreets }: LocationPickerProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const markerRef = useRef<Marker | null>(null);
  const callbacks = useRef({ onChange, onError, onStreets });
  const initial = useRef(position ?? center ?? null);

  useEffect(() => {
    callbacks.current = { onChange, onError, onStreets };
  }, [onChange, onError, onStreets]);

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const start = initial.current;
    let map: MapLibreMap;
    try {
      const created = createMap({
        container: node,
        grid: true,
        center: start ? [start.longitude, start.latitude] : WORLD_VIEW.center,
        zoom: start ? POSITION_ZOOM : WORLD_VIEW.zoom,
      });
      map = created.map;
      created.basemap.catch((error: unknown) => console.error("Could not load the basemap", error));
    } catch (error) {
      console.error("Could not load the map", error);
      callbacks.current.onError?.();
      return;
    }
    mapRef.current = map;
    map.addControl(new AttributionControl({ compact: true, customAttribution: mapStyleUrl() ? [] : OFFLINE_ATTRIBUTION }), "bottom-right");
    // Streets or none: asked each time the map settles, of what it drew around its centre.
    map.on("idle", () => {
      const report = callbacks.current.onStreets;
      if (!report) return;
      if (map.getZoom() < STREETS_ZOOM) {
        report(null);
        return;
      }
      const { x, y } = map.project(map.getCenter());
      report(hasStreets(map.queryRenderedFeatures([[x - 150, y - 150], [x + 150, y + 150]])));
    });
    map.on("click", (event) => {
      callbacks.current.onChange({ latitude: event.lngLat.lat, longitude: event.lngLat.lng });
    });
    return () => {
      markerRef.current?.remove();
      markerRef.current = null;
      mapRef.current = null;
      map.remove();
    };
  }, []);

  // Place or move the marker; bring it into view when it leaves the map.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !position) {
      markerRef.current?.remove();
      markerRef.current = null;
      return;
    }
    const lngLat: [number, number] = [position.longitude, position.latitude];
    const marker = markerRef.current;
    if (!marker) {
      const element = document.createElement("div");
      element.className = "cursor-grab active:cursor-grabbing";
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", "Store location (drag to move)");
      element.appendChild(markerImage());
      const created = new Marker({ element, anchor: "bottom", draggable: true }).setLngLat(lngLat).addTo(map);
      const report = () => {
        const at = created.getLngLat();
        callbacks.current.onChange({ latitude: at.lat, longitude: at.lng });
      };
      created.on("drag", report);
      created.on("dragend", report);
      markerRef.current = created;
    } else {
      const at = marker.getLngLat();
      if (at.lat !== position.latitude || at.lng !== position.longitude) marker.setLngLat(lngLat);
    }
    if (!map.getBounds().contains(lngLat)) map.easeTo({ center: lngLat });
  }, [position]);

  // MapLibre's CSS makes its container position: relative, so the sizing box is a wrapper.
  return (
    <div className="absolute inset-0">
      <div ref={container} className="h-full w-full" role="region" aria-label="Map of the store's location" />
    </div>
  );
}

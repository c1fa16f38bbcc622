import "maplibre-gl/dist/maplibre-gl.css";
import { AttributionControl, type GeoJSONSource, Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl } from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import { useEffect, useRef } from "react";
import markerIcon from "../../../assets/marker.svg";
import { mapStyleUrl } from "../../../lib/config";
import { MARKER_SIZE } from "../../../lib/constants";
import type { Coordinates } from "../types";
import { loadBasemapData, OFFLINE_ATTRIBUTION, offlineStyle } from "./basemap";

setWorkerUrl(workerUrl);

/** Centre of the contiguous United States, for a claim with no position yet. */
const WORLD_VIEW = { center: [-98.35, 39.5] as [number, number], zoom: 3 };
const POSITION_ZOOM = 14;

export interface LocationPickerProps {
  /** The marker's position; null shows no marker until the moderator clicks the map. */
  position: Coordinates | null;
  /** The marker was dragged or the map clicked. */
  onChange: (position: Coordinates) => void;
  /** The map could not start (e.g. no WebGL). */
  onError?: () => void;
}

/**
 * A small MapLibre map (its own lazy chunk) with one draggable marker. Dragging it or clicking
 * the map reports the new position; a new `position` prop moves the marker. Keyboard users set
 * the position in the latitude and longitude fields next to it.
 */
export default function LocationPicker({ position, onChange, onError }: LocationPickerProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const markerRef = useRef<Marker | null>(null);
  const callbacks = useRef({ onChange, onError });
  const initial = useRef(position);

  useEffect(() => {
    callbacks.current = { onChange, onError };
  }, [onChange, onError]);

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const styleUrl = mapStyleUrl();
    const start = initial.current;
    let map: MapLibreMap;
    try {
      map = new MapLibreMap({
        container: node,
        style: styleUrl ?? offlineStyle(),
        center: start ? [start.longitude, start.latitude] : WORLD_VIEW.center,
        zoom: start ? POSITION_ZOOM : WORLD_VIEW.zoom,
        attributionControl: false,
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
        maxZoom: 18,
      });
    } catch (error) {
      console.error("Could not load the map", error);
      callbacks.current.onError?.();
      return;
    }
    mapRef.current = map;
    map.touchZoomRotate.disableRotation();
    map.keyboard.disableRotation();
    map.addControl(new NavigationControl({ showCompass: false }), "top-right");
    map.addControl(new AttributionControl({ compact: true, customAttribution: styleUrl ? [] : OFFLINE_ATTRIBUTION }), "bottom-right");
    if (!styleUrl) {
      map.on("load", () => {
        loadBasemapData()
          .then(({ countries, states }) => {
            void map.getSource<GeoJSONSource>("countries")?.setData(countries);
            void map.getSource<GeoJSONSource>("states")?.setData(states);
          })
          .catch((error: unknown) => console.error("Could not load the basemap", error));
      });
    }
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
      const img = document.createElement("img");
      img.src = markerIcon;
      img.alt = "";
      img.width = MARKER_SIZE;
      img.height = MARKER_SIZE;
      element.appendChild(img);
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
      <div ref={container} className="h-full w-full" role="region" aria-label="Map of the claimed store's location" />
    </div>
  );
}

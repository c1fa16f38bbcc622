import type { Feature, FeatureCollection, Point } from "geojson";
import { AttributionControl, type GeoJSONSource, type Map as MapLibreMap, Marker } from "maplibre-gl";
import { useEffect, useRef } from "react";
import type { PhysicalStore } from "../../../api/types";
import { createMap, markerImage } from "../../../components/map/createMap";
import { mapStyleUrl } from "../../../lib/config";
import { MAX_ZOOM } from "../../../lib/constants";
import { MAP_LOAD_MESSAGE } from "../messages";
import type { Camera } from "./projection";
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, type StoreMapProps } from "./types";

const SOURCE = "stores";

function toGeoJson(stores: readonly PhysicalStore[]): FeatureCollection<Point> {
  return {
    type: "FeatureCollection",
    features: stores.map((s) => ({
      type: "Feature",
      id: s.id,
      geometry: { type: "Point", coordinates: [s.longitude, s.latitude] },
      properties: { id: s.id, name: s.name },
    })),
  };
}

const OSM_ATTRIBUTION = '<a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">© OpenStreetMap contributors</a>';

export interface InteractiveMapProps extends StoreMapProps {
  /** Where the map starts (the preview's camera when the user started the map). */
  start: Camera;
  /** While set, the map follows this camera (the preview's, as the user moves it). */
  camera?: Camera;
  /** Hidden: drawn but invisible and without markers, under the preview, until it takes over. */
  hidden: boolean;
  /** The map, its basemap and its first frame are ready. */
  onReady: () => void;
  /** Focus the map's canvas when it is shown (the preview had the focus). */
  focusOnShow?: boolean;
}

/**
 * The MapLibre map (its own lazily loaded chunk). Stores are one clustered GeoJSON source; every
 * visible cluster and store is an HTML button marker (32 x 32 px icon for stores), so markers are
 * reachable by keyboard and named for screen readers.
 */
export default function StoreMap({ stores, selectedId, view, focus, onSelect, onCenterChange, onError, start, camera, hidden, onReady, focusOnShow }: InteractiveMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const callbacks = useRef({ onSelect, onCenterChange, onError, onReady });
  const storesRef = useRef(stores);
  const selectedRef = useRef(selectedId);
  const syncRef = useRef<() => void>(() => {});
  const initialView = useRef<Camera>(start);
  const hiddenRef = useRef(hidden);
  const viewKey = useRef(view.key);

  useEffect(() => {
    callbacks.current = { onSelect, onCenterChange, onError, onReady };
  }, [onSelect, onCenterChange, onError, onReady]);

  // Create the map once.
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const styleUrl = mapStyleUrl();
    let loaded = false;
    // Ready once loaded, the basemap's data is in and a frame with everything has been drawn.
    let basemapSet = false;
    let ready = false;
    let map: MapLibreMap;
    const fail = (detail: unknown) => {
      console.error(MAP_LOAD_MESSAGE, detail);
      callbacks.current.onError?.();
    };
    try {
      const start = initialView.current;
      const created = createMap({
        container: node,
        center: [start.longitude, start.latitude],
        zoom: start.zoom,
        fadeDuration: 0,
        pixelRatio: Math.min(window.devicePixelRatio || 1, 2),
      });
      map = created.map;
      created.basemap
        .catch((error: unknown) => console.error(MAP_LOAD_MESSAGE, error))
        .finally(() => {
          basemapSet = true;
        });
    } catch (error) {
      fail(error);
      return;
    }
    mapRef.current = map;
    // The offline basemap's credits are drawn by MapArea (MapAttribution) at first paint; a
    // configured style brings its sources' own attribution, shown by MapLibre's control.
    if (styleUrl) {
      map.addControl(new AttributionControl({ compact: true, customAttribution: OSM_ATTRIBUTION }), "bottom-right");
    }

    map.on("error", (event) => {
      if (!loaded) fail(event.error);
    });

    const markers = new Map<string, { marker: Marker; element: HTMLButtonElement }>();

    const sync = () => {
      if (hiddenRef.current) return;
      if (!map.getSource(SOURCE) || !map.isSourceLoaded(SOURCE)) return;
      const seen = new Set<string>();
      for (const f of map.querySourceFeatures(SOURCE) as Feature<Point>[]) {
        const props = f.properties ?? {};
        const isCluster = Boolean(props.cluster);
        const key = isCluster ? `c${String(props.cluster_id)}` : `s${String(props.id)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const existing = markers.get(key);
        if (existing) {
          if (!isCluster) existing.element.setAttribute("aria-pressed", String(props.id === selectedRef.current));
          continue;
        }
        const element = document.createElement("button");
        element.type = "button";
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (isCluster) {
          const count = Number(props.point_count);
          element.className = "locator-cluster";
          element.textContent = String(props.point_count_abbreviated ?? count);
          element.setAttribute("aria-label", `${count} stores here, zoom in`);
          element.addEventListener("click", (e) => {
            e.stopPropagation();
            const source = map.getSource<GeoJSONSource>(SOURCE);
            void source
              ?.getClusterExpansionZoom(Number(props.cluster_id))
              .then((zoom) => map.easeTo({ center: [lon, lat], zoom: Math.min(zoom, MAX_ZOOM) }))
              .catch(() => undefined);
          });
        } else {
          element.className = "locator-marker";
          element.setAttribute("aria-label", String(props.name));
          element.setAttribute("aria-pressed", String(props.id === selectedRef.current));
          element.dataset.storeId = String(props.id);
          element.appendChild(markerImage());
          const id = Number(props.id);
          element.addEventListener("click", (e) => {
            e.stopPropagation();
            callbacks.current.onSelect(id);
          });
        }
        const marker = new Marker({ element, anchor: isCluster ? "center" : "bottom" }).setLngLat([lon, lat]).addTo(map);
        markers.set(key, { marker, element });
      }
      for (const [key, { marker }] of markers) {
        if (!seen.has(key)) {
          marker.remove();
          markers.delete(key);
        }
      }
    };
    syncRef.current = sync;

    map.on("load", () => {
      loaded = true;
      map.addSource(SOURCE, {
        type: "geojson",
        data: toGeoJson(storesRef.current),
        cluster: true,
        clusterRadius: CLUSTER_RADIUS,
        clusterMaxZoom: CLUSTER_MAX_ZOOM,
      });
      // Invisible layer: makes MapLibre tile the source so clusters can be queried.
      map.addLayer({ id: "stores-hidden", type: "circle", source: SOURCE, paint: { "circle-radius": 0, "circle-opacity": 0 } });
      callbacks.current.onCenterChange({ latitude: map.getCenter().lat, longitude: map.getCenter().lng }, false);
    });
    map.on("moveend", (event: { originalEvent?: unknown }) => {
      const c = map.getCenter();
      callbacks.current.onCenterChange({ latitude: c.lat, longitude: c.lng }, Boolean(event.originalEvent));
    });
    // Markers follow the map by themselves while it moves; which clusters and stores show only
    // changes when a move ends or the data is tiled, so sync then (not on every frame).
    let pending = 0;
    const schedule = () => {
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        sync();
      });
    };
    map.on("moveend", schedule);
    map.on("sourcedata", (e) => {
      if (e.sourceId === SOURCE && map.isSourceLoaded(SOURCE)) schedule();
    });
    map.on("idle", schedule);
    map.on("idle", () => {
      if (ready || !loaded || !basemapSet) return;
      ready = true;
      callbacks.current.onReady();
    });

    return () => {
      cancelAnimationFrame(pending);
      for (const { marker } of markers.values()) marker.remove();
      markers.clear();
      syncRef.current = () => {};
      mapRef.current = null;
      map.remove();
    };
  }, []);

  // New stores: replace the source's data.
  useEffect(() => {
    storesRef.current = stores;
    void mapRef.current?.getSource<GeoJSONSource>(SOURCE)?.setData(toGeoJson(stores));
  }, [stores]);

  // Selection: highlight the marker.
  useEffect(() => {
    selectedRef.current = selectedId;
    syncRef.current();
  }, [selectedId]);

  // Shown: markers appear; the focus moves to the map when the preview had it.
  useEffect(() => {
    hiddenRef.current = hidden;
    if (hidden) return;
    syncRef.current();
    if (focusOnShow) mapRef.current?.getCanvas().focus();
  }, [hidden, focusOnShow]);

  // While hidden under the preview, the map follows the preview's camera.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !camera) return;
    map.jumpTo({ center: [camera.longitude, camera.latitude], zoom: camera.zoom });
  }, [camera]);

  // A new search centre moves the map (a Redo search passes the map's own centre and no zoom).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || view.key === viewKey.current) return;
    viewKey.current = view.key;
    const c = map.getCenter();
    const zoom = view.zoom ?? map.getZoom();
    if (Math.abs(c.lat - view.latitude) < 1e-6 && Math.abs(c.lng - view.longitude) < 1e-6 && zoom === map.getZoom()) return;
    map.jumpTo({ center: [view.longitude, view.latitude], zoom });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- moves only when the view's key changes
  }, [view.key]);

  // A selected store off screen (e.g. chosen from favourites) is brought into view.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !focus) return;
    if (!map.getBounds().contains([focus.longitude, focus.latitude])) {
      map.easeTo({ center: [focus.longitude, focus.latitude] });
    }
  }, [focus]);

  // MapLibre's CSS makes its container position: relative, so the sizing box is a wrapper.
  return (
    <div className="absolute inset-0" style={hidden ? { visibility: "hidden" } : undefined} aria-hidden={hidden || undefined}>
      <div ref={container} className="h-full w-full" />
    </div>
  );
}

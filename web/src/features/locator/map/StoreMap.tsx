import type { Feature, FeatureCollection, Point } from "geojson";
import { AttributionControl, type GeoJSONSource, type Map as MapLibreMap, Marker } from "maplibre-gl";
import { useEffect, useRef } from "react";
import type { MapStore } from "./types";
import { createMap, markerImage } from "../../../components/map/createMap";
import { mapStyleUrl } from "../../../lib/config";
import { MAX_ZOOM } from "../../../lib/constants";
import { highlighted, setHighlighted, subscribeHighlight } from "../highlight";
import { MAP_LOAD_MESSAGE } from "../messages";
import type { Camera } from "./projection";
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, clusteredStores, clusterLabel, clusterText, numberedStores, type SelectedStore, type StoreMapProps } from "./types";

const SOURCE = "stores";

/**
 * The stores for the clustered source, without the opened one (it has its own marker) nor the
 * page's numbered rows (always pins of their own, so a row's pin is never hidden in a cluster).
 */
function toGeoJson(stores: readonly MapStore[], selectedId: number | null, numbers: ReadonlyMap<number, number> | undefined): FeatureCollection<Point> {
  return {
    type: "FeatureCollection",
    features: clusteredStores(stores, selectedId, numbers).map((s) => ({
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
  /** The preview's camera: the map follows it while hidden under the preview, and in the render that shows it. */
  camera?: Camera;
  /** Hidden: drawn but invisible and without markers, under the preview, until it takes over. */
  hidden: boolean;
  /** The map, its basemap and its first frame are ready. */
  onReady: () => void;
  /** Focus the map's canvas when it is shown (the preview had the focus). */
  focusOnShow?: boolean;
  /** The map eases to this camera each time its key changes (a store opened or closed). */
  target?: { camera: Camera; key: number } | null;
  /** The camera after each move. */
  onCamera?: (camera: Camera) => void;
}

/**
 * The MapLibre map (its own lazily loaded chunk). Stores are one clustered GeoJSON source; every
 * visible cluster and store is an HTML button marker (32 x 32 px icon for stores), so markers are
 * reachable by keyboard and named for screen readers.
 */
/**
 * Puts the row number on a store's marker, or takes it off (stores not on the current page). It is
 * drawn by CSS from the attribute (index.css), so the button's name stays the store's name.
 */
function setNumber(element: HTMLElement, number: number | undefined) {
  if (number === undefined) delete element.dataset.number;
  else element.dataset.number = String(number);
}

export default function StoreMap({ stores, selected, numbers, view, onSelect, onCenterChange, onError, start, camera, hidden, onReady, focusOnShow, target, onCamera }: InteractiveMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const callbacks = useRef({ onSelect, onCenterChange, onError, onReady, onCamera });
  const storesRef = useRef(stores);
  const numbersRef = useRef(numbers);
  const selectedRef = useRef<SelectedStore | null>(selected);
  const syncRef = useRef<() => void>(() => {});
  const initialView = useRef<Camera>(start);
  const hiddenRef = useRef(hidden);
  const viewKey = useRef(view.key);

  useEffect(() => {
    callbacks.current = { onSelect, onCenterChange, onError, onReady, onCamera };
  }, [onSelect, onCenterChange, onError, onReady, onCamera]);

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
    // The end-to-end tests read what MapLibre drew (queryRenderedFeatures) through the container.
    (node as HTMLDivElement & { locatorMap?: MapLibreMap }).locatorMap = map;
    // The offline basemap's credits are drawn by MapArea (MapAttribution) at first paint; a
    // configured style brings its sources' own attribution, shown by MapLibre's control.
    if (styleUrl) {
      map.addControl(new AttributionControl({ compact: true, customAttribution: OSM_ATTRIBUTION }), "bottom-right");
    }

    map.on("error", (event) => {
      if (!loaded) fail(event.error);
    });

    const markers = new Map<string, { marker: Marker; element: HTMLButtonElement }>();

    /** A store's pin: numbered while its row is on the page shown, lit with its row. */
    const storeMarker = (id: number, name: string, lon: number, lat: number) => {
      const element = document.createElement("button");
      element.type = "button";
      element.className = "locator-marker";
      element.setAttribute("aria-label", name);
      element.setAttribute("aria-pressed", "false");
      element.dataset.storeId = String(id);
      element.appendChild(markerImage());
      setNumber(element, numbersRef.current?.get(id));
      element.classList.toggle("locator-marker-highlighted", highlighted() === id);
      element.addEventListener("click", (e) => {
        e.stopPropagation();
        callbacks.current.onSelect(id);
      });
      const on = () => setHighlighted(id);
      const off = () => {
        if (highlighted() === id) setHighlighted(null);
      };
      element.addEventListener("mouseenter", on);
      element.addEventListener("focus", on);
      element.addEventListener("mouseleave", off);
      element.addEventListener("blur", off);
      const marker = new Marker({ element, anchor: "bottom" }).setLngLat([lon, lat]).addTo(map);
      return { marker, element };
    };

    const sync = () => {
      if (hiddenRef.current) return;
      if (!map.getSource(SOURCE) || !map.isSourceLoaded(SOURCE)) return;
      const seen = new Set<string>();
      // The page's rows first (row 1 first in the focus order), then what the clusters show.
      for (const s of numberedStores(storesRef.current, selectedRef.current?.id ?? null, numbersRef.current)) {
        const key = `s${s.id}`;
        seen.add(key);
        if (!markers.has(key)) markers.set(key, storeMarker(s.id, s.name, s.longitude, s.latitude));
      }
      for (const f of map.querySourceFeatures(SOURCE) as Feature<Point>[]) {
        const props = f.properties ?? {};
        const isCluster = Boolean(props.cluster);
        const key = isCluster ? `c${String(props.cluster_id)}` : `s${String(props.id)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const existing = markers.get(key);
        if (existing) continue;
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (!isCluster) {
          markers.set(key, storeMarker(Number(props.id), String(props.name), lon, lat));
          continue;
        }
        const count = Number(props.point_count);
        const element = document.createElement("button");
        element.type = "button";
        element.className = "locator-cluster";
        element.textContent = clusterText(String(props.point_count_abbreviated ?? count));
        element.setAttribute("aria-label", clusterLabel(count));
        element.dataset.count = String(count);
        element.addEventListener("click", (e) => {
          e.stopPropagation();
          const source = map.getSource<GeoJSONSource>(SOURCE);
          void source
            ?.getClusterExpansionZoom(Number(props.cluster_id))
            // A move the user asked for (the event rides along), so "Redo search in this area" shows.
            .then((zoom) => map.easeTo({ center: [lon, lat], zoom: Math.min(zoom, MAX_ZOOM) }, { originalEvent: e }))
            .catch(() => undefined);
        });
        const marker = new Marker({ element, anchor: "center" }).setLngLat([lon, lat]).addTo(map);
        markers.set(key, { marker, element });
      }
      // The opened store: its own marker, over the others.
      const sel = selectedRef.current;
      if (sel) {
        const key = `selected${sel.id}`;
        seen.add(key);
        if (!markers.has(key)) {
          const element = document.createElement("button");
          element.type = "button";
          element.className = "locator-marker locator-marker-selected";
          element.setAttribute("aria-label", sel.name);
          element.setAttribute("aria-pressed", "true");
          element.dataset.storeId = String(sel.id);
          element.dataset.selected = "";
          element.appendChild(markerImage());
          element.addEventListener("click", (e) => {
            e.stopPropagation();
            callbacks.current.onSelect(sel.id);
          });
          const marker = new Marker({ element, anchor: "bottom" }).setLngLat([sel.longitude, sel.latitude]).addTo(map);
          markers.set(key, { marker, element });
        }
      }
      for (const [key, { marker }] of markers) {
        if (!seen.has(key)) {
          marker.remove();
          markers.delete(key);
        }
      }
    };
    syncRef.current = sync;
    // A row pointed at in the list lights its pin (and the reverse, through the handlers above).
    const unsubscribe = subscribeHighlight(() => {
      const id = highlighted();
      for (const { element } of markers.values()) {
        if (element.dataset.selected !== undefined) continue;
        element.classList.toggle("locator-marker-highlighted", id !== null && element.dataset.storeId === String(id));
      }
    });

    map.on("load", () => {
      loaded = true;
      map.addSource(SOURCE, {
        type: "geojson",
        data: toGeoJson(storesRef.current, selectedRef.current?.id ?? null, numbersRef.current),
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
      callbacks.current.onCamera?.({ latitude: c.lat, longitude: c.lng, zoom: map.getZoom() });
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
      unsubscribe();
      cancelAnimationFrame(pending);
      for (const { marker } of markers.values()) marker.remove();
      markers.clear();
      syncRef.current = () => {};
      mapRef.current = null;
      map.remove();
    };
  }, []);

  // New stores, another page or another opened store: replace the source's data (the opened
  // store and the page's rows leave the clusters for markers of their own); the pins shown take
  // their rows' new numbers.
  const selectedId = selected?.id ?? null;
  const selectedLat = selected?.latitude;
  const selectedLon = selected?.longitude;
  const selectedName = selected?.name;
  useEffect(() => {
    storesRef.current = stores;
    numbersRef.current = numbers;
    selectedRef.current =
      selectedId !== null && selectedLat !== undefined && selectedLon !== undefined
        ? { id: selectedId, name: selectedName ?? "", latitude: selectedLat, longitude: selectedLon }
        : null;
    void mapRef.current?.getSource<GeoJSONSource>(SOURCE)?.setData(toGeoJson(stores, selectedId, numbers));
    const node = container.current;
    if (node) {
      for (const element of node.querySelectorAll<HTMLElement>(".locator-marker[data-store-id]:not([data-selected])")) {
        setNumber(element, numbers?.get(Number(element.dataset.storeId)));
      }
    }
    syncRef.current();
  }, [stores, numbers, selectedId, selectedLat, selectedLon, selectedName]);

  // A store opened or closed: ease to the camera MapArea chose.
  const targetKey = target?.key;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !target || hiddenRef.current) return;
    const { camera: to } = target;
    map.easeTo({ center: [to.longitude, to.latitude], zoom: to.zoom, duration: 600 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- moves only when the target's key changes
  }, [targetKey]);

  // Shown: markers appear; the focus moves to the map when the preview had it.
  useEffect(() => {
    hiddenRef.current = hidden;
    if (hidden) return;
    syncRef.current();
    if (focusOnShow) mapRef.current?.getCanvas().focus();
  }, [hidden, focusOnShow]);

  // While hidden under the preview, the map follows the preview's camera. The render that shows
  // the map still follows: a drag's end moves the preview's camera and hands over to the map at
  // once (one batched render), and the map must then stand where the drag left the preview, not
  // where it started. Once shown, the map moves by itself and reports (moveend).
  const following = useRef(hidden);
  useEffect(() => {
    const map = mapRef.current;
    const follow = following.current;
    following.current = hidden;
    if (!map || !camera || !follow) return;
    const c = map.getCenter();
    if (c.lat === camera.latitude && c.lng === camera.longitude && map.getZoom() === camera.zoom) return;
    map.jumpTo({ center: [camera.longitude, camera.latitude], zoom: camera.zoom });
  }, [camera, hidden]);

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

  // MapLibre's CSS makes its container position: relative, so the sizing box is a wrapper.
  return (
    <div className="absolute inset-0" style={hidden ? { visibility: "hidden" } : undefined} aria-hidden={hidden || undefined}>
      <div ref={container} className="h-full w-full" />
    </div>
  );
}

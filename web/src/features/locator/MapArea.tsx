import { lazy, memo, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent } from "react";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { mapStyleUrl } from "../../lib/config";
import { DEFAULT_ZOOM } from "../../lib/constants";
import { MapAttribution } from "./MapAttribution";
import { MAP_LOAD_MESSAGE } from "./messages";
import { MapPreview } from "./map/MapPreview";
import type { Camera } from "./map/projection";
import { SELECTED_ZOOM, type StoreMapProps } from "./map/types";

const loadStoreMap = () => import("./map/StoreMap");
const StoreMap = lazy(loadStoreMap);
// A mouse over the preview or the keyboard focus in it loads the map's code ahead of the first
// interaction (the import is cached; the map itself starts only on an interaction).
const warmUp = () => void loadStoreMap().catch(() => undefined);

const inPreview = (node: EventTarget | null) => node instanceof Element && node.closest("[data-map-preview]") !== null;

/**
 * The map. It opens as a static preview (MapPreview: the basemap drawn in a worker, the real
 * markers and clusters as buttons), which costs the main thread almost nothing; MapLibre GL (its
 * own chunk, WebGL) starts when the user first moves or zooms the map or opens a cluster, and
 * takes over, at the preview's camera, once its first frame is drawn. If MapLibre cannot start
 * (no WebGL, chunk failed), the preview stays.
 */
export const MapArea = memo(function MapArea(props: StoreMapProps) {
  const { view, onCenterChange, selected } = props;
  const [camera, setCamera] = useState<Camera>(() => ({ latitude: view.latitude, longitude: view.longitude, zoom: view.zoom ?? DEFAULT_ZOOM }));
  // A new search centre moves the preview (the map follows `view` itself once it runs).
  const [viewKey, setViewKey] = useState(view.key);
  if (view.key !== viewKey) {
    setViewKey(view.key);
    setCamera((c) => ({ latitude: view.latitude, longitude: view.longitude, zoom: view.zoom ?? c.zoom }));
  }
  const cameraRef = useRef(camera);
  useLayoutEffect(() => {
    cameraRef.current = camera;
  }, [camera]);
  // Where the map shown looks: the preview's camera, or MapLibre's after each of its moves.
  const shownCamera = useRef(camera);
  useLayoutEffect(() => {
    shownCamera.current = camera;
  }, [camera]);

  const [started, setStarted] = useState<Camera | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [previewFocused, setPreviewFocused] = useState(false);
  // The preview gives way once the map has drawn, but not in the middle of a drag.
  const interactive = ready && !failed && !dragging;

  const activate = useCallback(() => setStarted((s) => s ?? cameraRef.current), []);
  const onCameraChange = useCallback(
    (next: Camera, byUser: boolean) => {
      setCamera(next);
      onCenterChange({ latitude: next.latitude, longitude: next.longitude }, byUser);
    },
    [onCenterChange],
  );
  const onReady = useCallback(() => setReady(true), []);
  // MapLibre's camera after each move, for the credits' "no street data here" line.
  const [mapCamera, setMapCamera] = useState<Camera | null>(null);
  const onMapCamera = useCallback((c: Camera) => {
    shownCamera.current = c;
    setMapCamera(c);
  }, []);

  // Opening a store eases the map to it (at least SELECTED_ZOOM); closing it ("Back to results")
  // returns to the camera from before, unless a new search moved the map meanwhile.
  const [target, setTarget] = useState<{ camera: Camera; key: number } | null>(null);
  const saved = useRef<{ camera: Camera; viewKey: string } | null>(null);
  const shownId = useRef<number | null>(null);
  const selectedId = selected?.id ?? null;
  const selectedLat = selected?.latitude;
  const selectedLon = selected?.longitude;
  useEffect(() => {
    let next: Camera | null = null;
    if (selectedId !== null && selectedLat !== undefined && selectedLon !== undefined) {
      if (shownId.current === selectedId) return;
      shownId.current = selectedId;
      const current = shownCamera.current;
      saved.current ??= { camera: current, viewKey: view.key };
      next = { latitude: selectedLat, longitude: selectedLon, zoom: Math.max(current.zoom, SELECTED_ZOOM) };
    } else if (selectedId === null && shownId.current !== null) {
      shownId.current = null;
      const back = saved.current;
      saved.current = null;
      if (back && back.viewKey === view.key) next = back.camera;
    }
    if (!next) return;
    const to = next;
    setTarget((t) => ({ camera: to, key: (t?.key ?? 0) + 1 }));
    onCameraChange(to, false);
  }, [selectedId, selectedLat, selectedLon, view.key, onCameraChange]);
  const onFailed = useCallback(() => setFailed(true), []);

  return (
    <div
      className="absolute inset-0"
      role="region"
      aria-label="Map of stores"
      data-map={interactive ? "interactive" : "preview"}
      onFocus={(e: FocusEvent<HTMLDivElement>) => setPreviewFocused(inPreview(e.target))}
      onBlur={(e: FocusEvent<HTMLDivElement>) => {
        if (!inPreview(e.relatedTarget)) setPreviewFocused(false);
      }}
    >
      {started && !failed && (
        <ErrorBoundary
          fallback={null}
          onError={(error) => {
            console.error(MAP_LOAD_MESSAGE, error);
            setFailed(true);
          }}
        >
          <Suspense fallback={null}>
            <StoreMap
              {...props}
              start={started}
              camera={interactive ? undefined : camera}
              hidden={!interactive}
              focusOnShow={previewFocused}
              target={target}
              onCamera={onMapCamera}
              onReady={onReady}
              onError={onFailed}
            />
          </Suspense>
        </ErrorBoundary>
      )}
      {!interactive && (
        <MapPreview
          camera={camera}
          stores={props.stores}
          selected={selected}
          numbers={props.numbers}
          onSelect={props.onSelect}
          onCameraChange={onCameraChange}
          onActivate={activate}
          onDragChange={setDragging}
          onWarmUp={warmUp}
        />
      )}
      {/* The preview draws the offline basemap, so its credits show until a configured style takes over. */}
      {(!mapStyleUrl() || !interactive) && <MapAttribution camera={interactive ? (mapCamera ?? camera) : camera} />}
    </div>
  );
});

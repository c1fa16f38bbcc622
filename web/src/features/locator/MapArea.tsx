import { lazy, memo, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from "react";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { mapStyleUrl } from "../../lib/config";
import { DEFAULT_ZOOM } from "../../lib/constants";
import { MapAttribution } from "./MapAttribution";
import { MAP_LOAD_MESSAGE } from "./messages";
import { MapPreview } from "./map/MapPreview";
import { cameraAbove, fitCamera, FRAME_INSETS } from "./map/frame";
import { useElementSize } from "./map/useElementSize";
import type { Camera } from "./map/projection";
import { numberedStores, SELECTED_ZOOM, type StoreMapProps } from "./map/types";

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
 *
 * Each new page of results is framed: the camera fits the page's numbered pins (docs/product-rules.md,
 * "The list and the map"), unless a store is open. On a phone the opened store stands in the part
 * of the map the bottom sheet leaves free.
 */
export const MapArea = memo(function MapArea(props: StoreMapProps) {
  const { view, onCenterChange, selected, stores, numbers, coverBottom = 0 } = props;
  const root = useRef<HTMLDivElement>(null);
  const size = useElementSize(root);
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
  // Whether the user moved the map since the app last placed it (then the app leaves it alone).
  const userMoved = useRef(false);
  const onCameraChange = useCallback(
    (next: Camera, byUser: boolean) => {
      if (byUser) userMoved.current = true;
      setCamera(next);
      onCenterChange({ latitude: next.latitude, longitude: next.longitude }, byUser);
    },
    [onCenterChange],
  );
  // MapLibre reports its moves here too (it moves by itself once it runs).
  const onMapCenter = useCallback(
    (center: { latitude: number; longitude: number }, byUser: boolean) => {
      if (byUser) userMoved.current = true;
      onCenterChange(center, byUser);
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
  // On a phone the store stands above the sheet; when the sheet is hidden or shown again the
  // store is placed anew, unless the user has moved the map since.
  const [target, setTarget] = useState<{ camera: Camera; key: number } | null>(null);
  const moveTo = useCallback(
    (to: Camera) => {
      userMoved.current = false;
      setTarget((t) => ({ camera: to, key: (t?.key ?? 0) + 1 }));
      onCameraChange(to, false);
    },
    [onCameraChange],
  );
  const saved = useRef<{ camera: Camera; viewKey: string } | null>(null);
  const shownId = useRef<number | null>(null);
  const shownCover = useRef(coverBottom);
  const selectedId = selected?.id ?? null;
  const selectedLat = selected?.latitude;
  const selectedLon = selected?.longitude;
  useEffect(() => {
    let next: Camera | null = null;
    if (selectedId !== null && selectedLat !== undefined && selectedLon !== undefined) {
      const at = { latitude: selectedLat, longitude: selectedLon };
      if (shownId.current === selectedId) {
        if (shownCover.current === coverBottom) return;
        shownCover.current = coverBottom;
        if (!userMoved.current) next = cameraAbove(at, shownCamera.current.zoom, coverBottom);
      } else {
        shownId.current = selectedId;
        shownCover.current = coverBottom;
        const current = shownCamera.current;
        saved.current ??= { camera: current, viewKey: view.key };
        next = cameraAbove(at, Math.max(current.zoom, SELECTED_ZOOM), coverBottom);
      }
    } else if (selectedId === null && shownId.current !== null) {
      shownId.current = null;
      const back = saved.current;
      saved.current = null;
      if (back && back.viewKey === view.key) next = back.camera;
    }
    if (next) moveTo(next);
  }, [selectedId, selectedLat, selectedLon, view.key, coverBottom, moveTo]);

  // A new page of results (new ids, in order) is framed once, when the map has a size; with a
  // store open it is not (the store keeps the map), and that page is left as it is.
  const rows = useMemo(() => numberedStores(stores, null, numbers), [stores, numbers]);
  const rowsKey = rows.map((s) => s.id).join(",");
  const framedKey = useRef("");
  // The page whose frame is done (the map's data-framed: the end-to-end tests wait for it).
  const [framed, setFramed] = useState("");
  useEffect(() => {
    if (!size || rowsKey === "" || rowsKey === framedKey.current) return;
    framedKey.current = rowsKey;
    setFramed(rowsKey);
    if (selectedId !== null) return;
    const to = fitCamera(rows, size.width, size.height, { ...FRAME_INSETS, bottom: FRAME_INSETS.bottom + coverBottom });
    if (to) moveTo(to);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- frames each page once, at its first answer (not on each resize or sheet change)
  }, [rowsKey, size]);
  const onFailed = useCallback(() => setFailed(true), []);

  return (
    <div
      ref={root}
      className="absolute inset-0"
      role="region"
      aria-label="Map of stores"
      data-map={interactive ? "interactive" : "preview"}
      data-framed={framed !== "" && framed === rowsKey ? "" : undefined}
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
              onCenterChange={onMapCenter}
              start={started}
              camera={camera}
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

import { Minus, Plus } from "lucide-react";
import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from "react";
import type Supercluster from "supercluster";
import type { ClusterProperties } from "supercluster";
import type { MapStore } from "./types";
import markerIcon from "../../../assets/marker.svg";
import { MARKER_SIZE, MAX_ZOOM } from "../../../lib/constants";
import { nextTask } from "../../../lib/nextTask";
import { BASEMAP_STYLE_URL } from "../../../components/map/basemapStyle";
import type { PreviewDraw, PreviewDrawn } from "./previewMessages";
import { useElementSize, type Size } from "./useElementSize";
import { bitmapTransform, bounds, panBy, toScreen, zoomAround, type Camera } from "./projection";
import { highlightHandlers, useHighlighted } from "../highlight";
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, clusteredStores, clusterLabel, clusterText, numberedStores, type SelectedStore } from "./types";

export interface MapPreviewProps {
  camera: Camera;
  stores: readonly MapStore[];
  /** The opened store: drawn apart from the clusters, as its own larger marker. */
  selected: SelectedStore | null;
  /** Store id -> its row's number on the current page of results, drawn on its pin. */
  numbers?: ReadonlyMap<number, number>;
  onSelect: (id: number) => void;
  /** The camera after a pan or zoom (`byUser`) or after the preview moved to show the selection. */
  onCameraChange: (camera: Camera, byUser: boolean) => void;
  /** The user interacts with the map: start the interactive map. */
  onActivate: () => void;
  onDragChange: (dragging: boolean) => void;
  /** A mouse is over the preview or the focus is in it: the interactive map may be needed soon. */
  onWarmUp?: () => void;
}

const PAN_STEP = 100;

type StoreFeature = GeoJSON.Feature<GeoJSON.Point, { id: number; name: string }>;

// Supercluster (with kdbush, ~4 KB gzip) is not needed for the first paint (the server's frame)
// nor before the stores' answer: asked for when this module loads, in its own chunk, it is in
// long before the list answers, and the markers wait for it only if it is not.
let Cluster: typeof Supercluster | null = null;
const clusterLoaded = import("supercluster").then((m) => {
  Cluster = m.default;
});

/**
 * A static preview of the map, shown until the user interacts with it: the offline basemap drawn
 * in a worker (canvas 2D, off the main thread) and the same markers and clusters as the MapLibre
 * map (Supercluster with MapLibre's settings), as buttons. Clicking a store opens it; dragging,
 * the wheel, the arrow and +/- keys, the zoom buttons or a cluster move the preview and start
 * the interactive map, which takes over at the preview's camera.
 */
export function MapPreview({ camera, stores, selected, numbers, onSelect, onCameraChange, onActivate, onDragChange, onWarmUp }: MapPreviewProps) {
  const root = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useElementSize(root);
  const [drawn, setDrawn] = useState<{ camera: Camera; size: Size } | null>(null);
  const cameraRef = useRef(camera);
  const sizeRef = useRef(size);
  useLayoutEffect(() => {
    cameraRef.current = camera;
    sizeRef.current = size;
  });

  // The basemap, drawn by a worker for each camera and size; where workers cannot draw on a
  // canvas (OffscreenCanvas), the preview shows the water colour and the markers only.
  const worker = useRef<{ post: (draw: Omit<PreviewDraw, "id" | "styleUrl">) => void } | null>(null);
  useEffect(() => {
    if (typeof Worker === "undefined" || typeof OffscreenCanvas === "undefined") return;
    // Started in a task of its own (starting a worker costs the main thread a few ms), then
    // asked for the view the preview has by then.
    let w: Worker | null = null;
    let cancelled = false;
    const start = () => {
      const started = new Worker(new URL("./previewWorker.ts", import.meta.url), { type: "module" });
      const pending = new Map<number, { camera: Camera; size: Size }>();
      let next = 0;
      started.onmessage = (event: MessageEvent<PreviewDrawn>) => {
        const answer = event.data;
        const view = pending.get(answer.id);
        for (const id of pending.keys()) if (id <= answer.id) pending.delete(id);
        if ("error" in answer) {
          console.error("map preview:", answer.error);
          return;
        }
        const node = canvas.current;
        const ctx = node?.getContext("bitmaprenderer");
        if (!node || !ctx || !view) {
          answer.bitmap.close();
          return;
        }
        node.width = answer.bitmap.width;
        node.height = answer.bitmap.height;
        ctx.transferFromImageBitmap(answer.bitmap);
        setDrawn(view);
      };
      worker.current = {
        post: (draw) => {
          const id = ++next;
          pending.set(id, { camera: draw.camera, size: { width: draw.width, height: draw.height } });
          started.postMessage({ ...draw, id, styleUrl: BASEMAP_STYLE_URL } satisfies PreviewDraw);
        },
      };
      return started;
    };
    void nextTask().then(() => {
      if (cancelled) return;
      w = start();
      const s = sizeRef.current;
      if (s && s.width > 0 && s.height > 0) worker.current?.post({ camera: cameraRef.current, width: s.width, height: s.height, pixelRatio: Math.min(window.devicePixelRatio || 1, 2) });
    });
    return () => {
      cancelled = true;
      worker.current = null;
      w?.terminate();
    };
  }, []);
  useEffect(() => {
    if (!size || size.width === 0 || size.height === 0) return;
    worker.current?.post({ camera, width: size.width, height: size.height, pixelRatio: Math.min(window.devicePixelRatio || 1, 2) });
  }, [camera, size]);

  // A drag moves the layer with the pointer; the camera changes when it ends.
  const drag = useRef<{ id: number; x: number; y: number; dx: number; dy: number } | null>(null);
  useLayoutEffect(() => {
    if (layer.current) layer.current.style.transform = "";
  }, [camera]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!e.isPrimary || e.button !== 0 || (e.target as HTMLElement).closest("button")) return;
    onActivate();
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, dx: 0, dy: 0 };
    e.currentTarget.setPointerCapture?.(e.pointerId);
    onDragChange(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    d.dx = e.clientX - d.x;
    d.dy = e.clientY - d.y;
    if (layer.current) layer.current.style.transform = `translate(${d.dx}px, ${d.dy}px)`;
  };
  const endDrag = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    drag.current = null;
    if (Math.abs(d.dx) + Math.abs(d.dy) > 2) onCameraChange(panBy(cameraRef.current, d.dx, d.dy), true);
    else if (layer.current) layer.current.style.transform = "";
    onDragChange(false);
  };

  const lastWheel = useRef(0);
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    onActivate();
    const now = Date.now();
    const s = sizeRef.current;
    if (!s || e.deltaY === 0 || now - lastWheel.current < 250) return;
    lastWheel.current = now;
    const box = e.currentTarget.getBoundingClientRect();
    onCameraChange(zoomAround(cameraRef.current, s.width, s.height, e.clientX - box.left, e.clientY - box.top, e.deltaY < 0 ? 1 : -1, 0, MAX_ZOOM), true);
  };
  const zoomBy = (dz: number) => {
    onActivate();
    const s = sizeRef.current;
    if (s) onCameraChange(zoomAround(cameraRef.current, s.width, s.height, s.width / 2, s.height / 2, dz, 0, MAX_ZOOM), true);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const pans: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    const pan = pans[e.key];
    if (pan) {
      e.preventDefault();
      onActivate();
      onCameraChange(panBy(cameraRef.current, pan[0], pan[1]), true);
    } else if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      zoomBy(1);
    } else if (e.key === "-") {
      e.preventDefault();
      zoomBy(-1);
    }
  };

  // The same clusters as the map's source (MapLibre clusters each tile at its integer zoom),
  // without the opened store, which has its own marker, nor the page's rows, which always stand
  // as numbered pins. New stores are drawn in a render of their own, after the results list's.
  const shown = useDeferredValue(stores);
  const selectedId = selected?.id ?? null;
  const [clusterReady, setClusterReady] = useState(Cluster !== null);
  useEffect(() => {
    if (clusterReady) return;
    let live = true;
    void clusterLoaded.then(() => live && setClusterReady(true));
    return () => {
      live = false;
    };
  }, [clusterReady]);
  const index = useMemo(() => {
    if (!clusterReady || Cluster === null) return null;
    const sc = new Cluster<{ id: number; name: string }>({ radius: CLUSTER_RADIUS, maxZoom: CLUSTER_MAX_ZOOM, minPoints: 2, extent: 512 });
    sc.load(
      clusteredStores(shown, selectedId, numbers).map(
        (s): StoreFeature => ({ type: "Feature", geometry: { type: "Point", coordinates: [s.longitude, s.latitude] }, properties: { id: s.id, name: s.name } }),
      ),
    );
    return sc;
  }, [shown, selectedId, numbers, clusterReady]);
  const view = size && size.width > 0 ? bounds(camera, size.width, size.height, 48) : null;
  const points = index && view ? index.getClusters(view, Math.floor(camera.zoom)) : [];
  // The rows' pins within the same margin, first in the focus order (row 1 first).
  const rows = useMemo(() => numberedStores(shown, selectedId, numbers), [shown, selectedId, numbers]);
  const rowsShown = view ? rows.filter((s) => s.longitude >= view[0] && s.longitude <= view[2] && s.latitude >= view[1] && s.latitude <= view[3]) : [];
  const pin = (id: number, name: string, [x, y]: [number, number]) => (
    <button
      key={`s${id}`}
      type="button"
      className={`locator-marker absolute -translate-x-1/2 -translate-y-full${lit === id ? " locator-marker-highlighted" : ""}`}
      style={{ left: x, top: y }}
      aria-label={name}
      aria-pressed={false}
      data-store-id={id}
      data-number={numbers?.get(id)}
      onClick={() => onSelect(id)}
      {...highlightHandlers(id)}
    >
      <img src={markerIcon} alt="" width={MARKER_SIZE} height={MARKER_SIZE} />
    </button>
  );

  const lit = useHighlighted();
  const selectedAt = selected && size ? toScreen(camera, size.width, size.height, selected.longitude, selected.latitude) : null;

  return (
    <div
      ref={root}
      className="absolute inset-0 overflow-hidden bg-[#cde3ef]"
      data-map-preview=""
      data-zoom={camera.zoom}
      onPointerEnter={(e) => {
        if (e.pointerType === "mouse") onWarmUp?.();
      }}
      onFocus={onWarmUp}
    >
      <div
        role="region"
        aria-label="Map"
        tabIndex={0}
        className="absolute inset-0 cursor-grab touch-none select-none focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-amber-500"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
      >
        <div ref={layer} className="absolute inset-0">
          <canvas
            ref={canvas}
            aria-hidden="true"
            className="absolute top-0 left-0 origin-top-left"
            style={
              drawn && size
                ? { width: drawn.size.width, height: drawn.size.height, transform: bitmapTransform(drawn.camera, drawn.size.width, drawn.size.height, camera, size.width, size.height) }
                : { display: "none" }
            }
          />
          {size && rowsShown.map((s) => pin(s.id, s.name, toScreen(camera, size.width, size.height, s.longitude, s.latitude)))}
          {size &&
            points.map((p) => {
              const [lon = 0, lat = 0] = p.geometry.coordinates;
              const [x, y] = toScreen(camera, size.width, size.height, lon, lat);
              const props = p.properties as Partial<ClusterProperties> & { id?: number; name?: string };
              if (props.cluster) {
                const count = props.point_count ?? 0;
                const clusterId = props.cluster_id ?? 0;
                return (
                  <button
                    key={`c${clusterId}`}
                    type="button"
                    className="locator-cluster absolute -translate-x-1/2 -translate-y-1/2"
                    style={{ left: x, top: y }}
                    aria-label={clusterLabel(count)}
                    data-count={count}
                    onClick={() => {
                      onActivate();
                      const zoom = Math.min(index?.getClusterExpansionZoom(clusterId) ?? camera.zoom + 1, MAX_ZOOM);
                      onCameraChange({ latitude: lat, longitude: lon, zoom }, true);
                    }}
                  >
                    {clusterText(props.point_count_abbreviated ?? count)}
                  </button>
                );
              }
              return pin(Number(props.id), String(props.name), [x, y]);
            })}
          {selected && selectedAt && (
            <button
              key={`selected${selected.id}`}
              type="button"
              className="locator-marker locator-marker-selected absolute -translate-x-1/2 -translate-y-full"
              style={{ left: selectedAt[0], top: selectedAt[1] }}
              aria-label={selected.name}
              aria-pressed={true}
              data-store-id={selected.id}
              data-selected=""
              onClick={() => onSelect(selected.id)}
            >
              <img src={markerIcon} alt="" width={MARKER_SIZE} height={MARKER_SIZE} />
            </button>
          )}
        </div>
      </div>
      <div className="absolute top-2.5 right-2.5 flex flex-col overflow-hidden rounded bg-white shadow-[0_0_0_2px_rgb(0_0_0/0.1)]">
        <button type="button" aria-label="Zoom in" title="Zoom in" className="flex size-[29px] items-center justify-center text-gray-800 hover:bg-gray-100" onClick={() => zoomBy(1)}>
          <Plus aria-hidden="true" className="size-4" />
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out" className="flex size-[29px] items-center justify-center border-t border-gray-200 text-gray-800 hover:bg-gray-100" onClick={() => zoomBy(-1)}>
          <Minus aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}

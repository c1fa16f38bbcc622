// Draws the offline basemap for the static map preview, off the main thread: reads the style
// (/map/basemap.json) once, fetches and decodes the vector tiles of each view (the same tiles
// MapLibre draws, kept decoded for the next views) and answers each "draw" message with an
// ImageBitmap of the view (tileRender.ts).
import type { PreviewDraw, PreviewDrawn } from "./previewMessages";
import { decodeTile, drawStyle, tilesFor, tileUrl, type BasemapStyle, type DecodedTile } from "./tileRender";

const MAX_TILES = 64;

let style: Promise<BasemapStyle> | null = null;
const tiles = new Map<string, Promise<DecodedTile>>();

async function loadStyle(url: string): Promise<BasemapStyle> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`basemap style ${url}: ${response.status}`);
  return (await response.json()) as BasemapStyle;
}

function loadTile(url: string): Promise<DecodedTile> {
  const cached = tiles.get(url);
  if (cached) {
    // Most recently used last.
    tiles.delete(url);
    tiles.set(url, cached);
    return cached;
  }
  const loading = fetch(url).then(async (response) => {
    // 204: a tile with nothing in it.
    if (response.status === 204) return { layers: {} };
    if (!response.ok) throw new Error(`basemap tile ${url}: ${response.status}`);
    return decodeTile(await response.arrayBuffer());
  });
  loading.catch(() => tiles.delete(url));
  tiles.set(url, loading);
  for (const key of tiles.keys()) {
    if (tiles.size <= MAX_TILES) break;
    tiles.delete(key);
  }
  return loading;
}

async function draw(request: PreviewDraw): Promise<ImageBitmap | null> {
  const { width, height, pixelRatio, camera } = request;
  const s = await style!;
  const source = Object.values(s.sources).find((src) => src.type === "vector" && src.tiles?.[0]);
  const template = source?.tiles?.[0];
  const refs = template ? tilesFor(camera, width, height, source?.minzoom ?? 0, source?.maxzoom ?? 14) : [];
  const loaded = await Promise.all(refs.map(async (ref) => ({ ref, tile: await loadTile(tileUrl(template ?? "", ref)) })));
  if (request.id !== latest) return null;
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(width * pixelRatio)), Math.max(1, Math.round(height * pixelRatio)));
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2d context");
  drawStyle(ctx, s, loaded, camera, canvas.width, canvas.height, pixelRatio);
  return canvas.transferToImageBitmap();
}

// Only the newest request is drawn; older ones still waiting for tiles are dropped.
let latest = 0;
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PreviewDraw>) => void) | null;
  postMessage(message: PreviewDrawn, transfer?: Transferable[]): void;
};
scope.onmessage = (event) => {
  const request = event.data;
  latest = request.id;
  style ??= loadStyle(request.styleUrl);
  style.catch(() => {
    style = null;
  });
  draw(request)
    .then((bitmap) => {
      if (bitmap) scope.postMessage({ id: request.id, bitmap }, [bitmap]);
    })
    .catch((error: unknown) => scope.postMessage({ id: request.id, error: String(error) }));
};

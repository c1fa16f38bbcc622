// Draws the binary's offline basemap (vector tiles and the style of /map/basemap.json) on a
// canvas 2D context, for the map preview's worker: the same tiles and the same paint values as
// MapLibre, so the page reads the same before and after MapLibre takes over. Only what that
// style uses is understood: background, fill, line and symbol (text) layers; numbers, colours,
// ["get"], ["match"], ["literal"] and linear ["interpolate"] over ["zoom"].
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { mercator, worldSize, type Camera } from "./projection";

export interface StyleLayer {
  id: string;
  type: string;
  source?: string;
  "source-layer"?: string;
  minzoom?: number;
  maxzoom?: number;
  paint?: Record<string, unknown>;
  layout?: Record<string, unknown>;
}

export interface BasemapStyle {
  sources: Record<string, { type: string; tiles?: string[]; minzoom?: number; maxzoom?: number }>;
  layers: StyleLayer[];
}

type Props = Record<string, unknown>;

/** Evaluates a style value at a zoom for a feature's properties (undefined when not understood). */
export function evaluate(value: unknown, zoom: number, props: Props = {}): unknown {
  if (!Array.isArray(value)) return value;
  const [op, ...args] = value as [unknown, ...unknown[]];
  switch (op) {
    case "get":
      return props[String(args[0])];
    case "literal":
      return args[0];
    case "zoom":
      return zoom;
    case "match": {
      const input = evaluate(args[0], zoom, props);
      for (let i = 1; i + 1 < args.length; i += 2) {
        const label = args[i];
        if (Array.isArray(label) ? label.includes(input) : label === input) return evaluate(args[i + 1], zoom, props);
      }
      return evaluate(args.at(-1), zoom, props);
    }
    case "interpolate": {
      const x = Number(evaluate(args[1], zoom, props));
      const stops: [number, number][] = [];
      for (let i = 2; i + 1 < args.length; i += 2) stops.push([Number(args[i]), Number(evaluate(args[i + 1], zoom, props))]);
      const first = stops[0];
      const last = stops.at(-1);
      if (!first || !last) return undefined;
      if (x <= first[0]) return first[1];
      if (x >= last[0]) return last[1];
      for (let i = 1; i < stops.length; i++) {
        const [z1, v1] = stops[i] as [number, number];
        const [z0, v0] = stops[i - 1] as [number, number];
        if (x <= z1) return v0 + ((x - z0) / (z1 - z0)) * (v1 - v0);
      }
      return last[1];
    }
  }
  return undefined;
}

/** One decoded tile: its layers' features, geometry in tile units (0..extent). */
export interface DecodedTile {
  layers: Record<string, { extent: number; features: { type: number; rings: { x: number; y: number }[][]; props: Props }[] }>;
}

export function decodeTile(buffer: ArrayBuffer): DecodedTile {
  const tile = new VectorTile(new PbfReader(new Uint8Array(buffer)));
  const out: DecodedTile = { layers: {} };
  for (const [name, layer] of Object.entries(tile.layers)) {
    const features = [];
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      features.push({ type: f.type, rings: f.loadGeometry(), props: f.properties as Props });
    }
    out.layers[name] = { extent: layer.extent, features };
  }
  return out;
}

export interface TileRef {
  z: number;
  /** Where the tile is drawn (may lie outside 0..2^z when the view crosses the antimeridian). */
  x: number;
  y: number;
  /** The tile to fetch (x wrapped into 0..2^z). */
  wrappedX: number;
}

/**
 * The tiles a view needs, at the zoom MapLibre takes them for 512-pixel tiles (the integer part
 * of the camera's zoom, within the source's zooms).
 */
export function tilesFor(camera: Camera, width: number, height: number, minZoom: number, maxZoom: number): TileRef[] {
  const z = Math.max(minZoom, Math.min(maxZoom, Math.floor(camera.zoom)));
  const n = 2 ** z;
  const size = worldSize(camera.zoom);
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  const x0 = Math.floor((cx - width / 2 / size) * n);
  const x1 = Math.floor((cx + width / 2 / size) * n);
  const y0 = Math.max(0, Math.floor((cy - height / 2 / size) * n));
  const y1 = Math.min(n - 1, Math.floor((cy + height / 2 / size) * n));
  const out: TileRef[] = [];
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) out.push({ z, x, y, wrappedX: ((x % n) + n) % n });
  }
  return out;
}

export function tileUrl(template: string, t: TileRef): string {
  return template.replace("{z}", String(t.z)).replace("{x}", String(t.wrappedX)).replace("{y}", String(t.y));
}

/** The 2D context calls the renderer makes (OffscreenCanvasRenderingContext2D has them all). */
export type Ctx = Pick<
  OffscreenCanvasRenderingContext2D,
  "beginPath" | "moveTo" | "lineTo" | "closePath" | "fill" | "stroke" | "fillRect" | "fillText" | "strokeText" | "setLineDash" | "save" | "restore"
> & {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: CanvasLineJoin;
  lineCap: CanvasLineCap;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
};

/** Label font: the style's text-font stack as a CSS family (MapLibre's local glyphs use it too). */
function font(layer: StyleLayer, size: number): string {
  const stack = layer.layout?.["text-font"];
  const family = Array.isArray(stack) && typeof stack[0] === "string" ? stack[0] : "sans-serif";
  return `${size}px ${family}`;
}

/**
 * Draws the style's layers from the tiles onto a canvas of width x height device pixels for the
 * camera, in the style's order (each layer over every tile before the next layer).
 */
export function drawStyle(
  ctx: Ctx,
  style: BasemapStyle,
  tiles: { ref: TileRef; tile: DecodedTile }[],
  camera: Camera,
  width: number,
  height: number,
  pixelRatio: number,
): void {
  const zoom = camera.zoom;
  const scale = worldSize(zoom) * pixelRatio;
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  for (const layer of style.layers) {
    if ((layer.minzoom !== undefined && zoom < layer.minzoom) || (layer.maxzoom !== undefined && zoom >= layer.maxzoom)) continue;
    const paint = layer.paint ?? {};
    if (layer.type === "background") {
      ctx.fillStyle = String(evaluate(paint["background-color"], zoom));
      ctx.fillRect(0, 0, width, height);
      continue;
    }
    const sourceLayer = layer["source-layer"];
    if (!sourceLayer) continue;
    for (const { ref, tile } of tiles) {
      const data = tile.layers[sourceLayer];
      if (!data) continue;
      const n = 2 ** ref.z;
      const tilePx = scale / n;
      const k = tilePx / data.extent;
      const ox = (ref.x / n - cx) * scale + width / 2;
      const oy = (ref.y / n - cy) * scale + height / 2;
      if (layer.type === "fill" || layer.type === "line") {
        ctx.beginPath();
        for (const f of data.features) {
          if (f.type === 1) continue;
          for (const ring of f.rings) {
            ring.forEach((p, i) => (i === 0 ? ctx.moveTo(ox + p.x * k, oy + p.y * k) : ctx.lineTo(ox + p.x * k, oy + p.y * k)));
            if (f.type === 3) ctx.closePath();
          }
        }
        if (layer.type === "fill") {
          ctx.fillStyle = String(evaluate(paint["fill-color"], zoom));
          ctx.fill("nonzero");
        } else {
          ctx.strokeStyle = String(evaluate(paint["line-color"], zoom));
          ctx.lineWidth = Number(evaluate(paint["line-width"] ?? 1, zoom)) * pixelRatio;
          ctx.stroke();
        }
      } else if (layer.type === "symbol") {
        const layout = layer.layout ?? {};
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        for (const f of data.features) {
          const p = f.type === 1 ? f.rings[0]?.[0] : undefined;
          const text = evaluate(layout["text-field"], zoom, f.props);
          if (!p || typeof text !== "string" || text === "") continue;
          const x = ox + p.x * k;
          const y = oy + p.y * k;
          if (x < -200 || y < -50 || x > width + 200 || y > height + 50) continue;
          const size = Number(evaluate(layout["text-size"] ?? 16, zoom, f.props)) * pixelRatio;
          ctx.font = font(layer, size);
          const halo = Number(evaluate(paint["text-halo-width"] ?? 0, zoom, f.props)) * pixelRatio;
          if (halo > 0) {
            ctx.strokeStyle = String(evaluate(paint["text-halo-color"], zoom, f.props));
            ctx.lineWidth = halo * 2;
            ctx.strokeText(text, x, y);
          }
          ctx.fillStyle = String(evaluate(paint["text-color"] ?? "#000", zoom, f.props));
          ctx.fillText(text, x, y);
        }
      }
    }
  }
}

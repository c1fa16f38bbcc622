// Draws the offline basemap (countries, US states) for the static map preview, off the main
// thread: fetches and decodes the TopoJSON once, then answers each "draw" message with an
// ImageBitmap of the view, in the same colours and line widths as the MapLibre style.
import type { MultiPolygon, Polygon } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { BASEMAP_COLORS, COUNTRIES_LINE_WIDTH, lineWidth, STATES_LINE_WIDTH } from "../../../components/map/basemapStyle";
import { mercator, worldSize } from "./projection";
import type { PreviewDraw, PreviewDrawn } from "./previewMessages";

/** A shape as rings of Web Mercator coordinates (0..1), x and y interleaved, with its bounds. */
interface Shape {
  rings: Float64Array[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

async function loadShapes(url: string, object: string): Promise<Shape[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`basemap ${url}: ${response.status}`);
  const topo = (await response.json()) as Topology;
  const collection = feature(topo, topo.objects[object] as GeometryCollection);
  const shapes: Shape[] = [];
  for (const f of collection.features) {
    const geometry = f.geometry as Polygon | MultiPolygon | null;
    if (!geometry) continue;
    const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
    const shape: Shape = { rings: [], minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (const polygon of polygons) {
      for (const ring of polygon) {
        const out = new Float64Array(ring.length * 2);
        ring.forEach(([lon = 0, lat = 0], i) => {
          const [x, y] = mercator(lon, lat);
          out[i * 2] = x;
          out[i * 2 + 1] = y;
          if (x < shape.minX) shape.minX = x;
          if (x > shape.maxX) shape.maxX = x;
          if (y < shape.minY) shape.minY = y;
          if (y > shape.maxY) shape.maxY = y;
        });
        shape.rings.push(out);
      }
    }
    if (shape.rings.length) shapes.push(shape);
  }
  return shapes;
}

let data: Promise<{ countries: Shape[]; states: Shape[] }> | null = null;

function draw(request: PreviewDraw, countries: Shape[], states: Shape[]): ImageBitmap {
  const { width, height, pixelRatio, camera } = request;
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(width * pixelRatio)), Math.max(1, Math.round(height * pixelRatio)));
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2d context");
  const scale = worldSize(camera.zoom) * pixelRatio;
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  // Canvas pixel = (mercator - centre) * scale + half the canvas.
  const ox = canvas.width / 2 - cx * scale;
  const oy = canvas.height / 2 - cy * scale;
  const minX = -ox / scale;
  const maxX = (canvas.width - ox) / scale;
  const minY = -oy / scale;
  const maxY = (canvas.height - oy) / scale;
  const visible = (s: Shape) => s.maxX >= minX && s.minX <= maxX && s.maxY >= minY && s.minY <= maxY;
  const path = (shapes: Shape[]) => {
    ctx.beginPath();
    for (const s of shapes) {
      if (!visible(s)) continue;
      for (const ring of s.rings) {
        for (let i = 0; i < ring.length; i += 2) {
          const x = (ring[i] ?? 0) * scale + ox;
          const y = (ring[i + 1] ?? 0) * scale + oy;
          if (i === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
        ctx.closePath();
      }
    }
  };
  ctx.fillStyle = BASEMAP_COLORS.water;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineJoin = "round";
  path(countries);
  ctx.fillStyle = BASEMAP_COLORS.countriesFill;
  ctx.fill("evenodd");
  path(states);
  ctx.fillStyle = BASEMAP_COLORS.statesFill;
  ctx.fill("evenodd");
  ctx.strokeStyle = BASEMAP_COLORS.statesLine;
  ctx.lineWidth = lineWidth(STATES_LINE_WIDTH, camera.zoom) * pixelRatio;
  ctx.stroke();
  path(countries);
  ctx.strokeStyle = BASEMAP_COLORS.countriesLine;
  ctx.lineWidth = lineWidth(COUNTRIES_LINE_WIDTH, camera.zoom) * pixelRatio;
  ctx.stroke();
  return canvas.transferToImageBitmap();
}

// Only the newest request is drawn; older ones still waiting for the data are dropped.
let latest = 0;
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PreviewDraw>) => void) | null;
  postMessage(message: PreviewDrawn, transfer?: Transferable[]): void;
};
scope.onmessage = (event) => {
  const request = event.data;
  latest = request.id;
  data ??= Promise.all([loadShapes(request.countriesUrl, "countries"), loadShapes(request.statesUrl, "states")]).then(
    ([countries, states]) => ({ countries, states }),
  );
  data
    .then(({ countries, states }) => {
      if (request.id !== latest) return;
      const bitmap = draw(request, countries, states);
      scope.postMessage({ id: request.id, bitmap }, [bitmap]);
    })
    .catch((error: unknown) => {
      data = null;
      scope.postMessage({ id: request.id, error: String(error) });
    });
};

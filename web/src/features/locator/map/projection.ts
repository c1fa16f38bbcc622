// Web Mercator as MapLibre draws it: 512-pixel tiles, so the world is 512 * 2^zoom CSS pixels wide.

export const TILE_SIZE = 512;
const MAX_LAT = 85.051129;

/** Where a point lies on the world square, 0..1 from the west and from the north. */
export function mercator(longitude: number, latitude: number): [number, number] {
  const lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, latitude));
  const sin = Math.sin((lat * Math.PI) / 180);
  return [(longitude + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)];
}

/** The inverse of `mercator`. */
export function unmercator(x: number, y: number): { longitude: number; latitude: number } {
  const longitude = x * 360 - 180;
  const latitude = (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
  return { longitude, latitude: Math.max(-MAX_LAT, Math.min(MAX_LAT, latitude)) };
}

/** The world's width in CSS pixels at a zoom. */
export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

export interface Camera {
  latitude: number;
  longitude: number;
  zoom: number;
}

/** A point's position in a view of `width` x `height` CSS pixels centred on the camera. */
export function toScreen(camera: Camera, width: number, height: number, longitude: number, latitude: number): [number, number] {
  const size = worldSize(camera.zoom);
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  const [x, y] = mercator(longitude, latitude);
  return [(x - cx) * size + width / 2, (y - cy) * size + height / 2];
}

/** The camera moved by a drag of (dx, dy) CSS pixels (the content follows the pointer). */
export function panBy(camera: Camera, dx: number, dy: number): Camera {
  const size = worldSize(camera.zoom);
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  let x = cx - dx / size;
  x -= Math.floor(x);
  const y = Math.max(0, Math.min(1, cy - dy / size));
  return { ...unmercator(x, y), zoom: camera.zoom };
}

/** The view's bounds as [west, south, east, north], widened by `margin` CSS pixels. */
export function bounds(camera: Camera, width: number, height: number, margin = 0): [number, number, number, number] {
  const size = worldSize(camera.zoom);
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  const nw = unmercator(cx - (width / 2 + margin) / size, Math.max(0, cy - (height / 2 + margin) / size));
  const se = unmercator(cx + (width / 2 + margin) / size, Math.min(1, cy + (height / 2 + margin) / size));
  return [Math.max(-180, nw.longitude), se.latitude, Math.min(180, se.longitude), nw.latitude];
}

/** The camera zoomed by `dz`, keeping the point at (px, py) of a width x height view in place. */
export function zoomAround(camera: Camera, width: number, height: number, px: number, py: number, dz: number, minZoom = 0, maxZoom = 18): Camera {
  const zoom = Math.max(minZoom, Math.min(maxZoom, camera.zoom + dz));
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  const before = worldSize(camera.zoom);
  const after = worldSize(zoom);
  const mx = cx + (px - width / 2) / before;
  const my = cy + (py - height / 2) / before;
  let x = mx - (px - width / 2) / after;
  x -= Math.floor(x);
  const y = Math.max(0, Math.min(1, my - (py - height / 2) / after));
  return { ...unmercator(x, y), zoom };
}

/**
 * The CSS transform (origin top left) that shows a bitmap drawn for `drawn` (a view of
 * drawnWidth x drawnHeight) at the right place in a view of the same content for `camera`.
 */
export function bitmapTransform(drawn: Camera, drawnWidth: number, drawnHeight: number, camera: Camera, width: number, height: number): string {
  const s = 2 ** (camera.zoom - drawn.zoom);
  const size = worldSize(camera.zoom);
  const [dx, dy] = mercator(drawn.longitude, drawn.latitude);
  const [cx, cy] = mercator(camera.longitude, camera.latitude);
  const tx = width / 2 - (s * drawnWidth) / 2 + (dx - cx) * size;
  const ty = height / 2 - (s * drawnHeight) / 2 + (dy - cy) * size;
  return `translate(${tx}px, ${ty}px) scale(${s})`;
}

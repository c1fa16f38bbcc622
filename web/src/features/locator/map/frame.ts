// Where the map looks so that the page of results shows: the camera that frames a set of stores,
// and the camera that shows one store above the phone's bottom sheet. Pure Web Mercator sums, the
// same for the static preview and for MapLibre (both are given the resulting camera).
import { mercator, panBy, unmercator, worldSize, type Camera } from "./projection";

/** CSS pixels kept free on each side of a view (a pin's height above, a sheet below, ...). */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * Room around the framed pins: a pin stands 32 px above its point with its number over its head,
 * the zoom buttons and "Redo search in this area" sit along the top, the credits along the bottom.
 */
export const FRAME_INSETS: Insets = { top: 56, right: 48, bottom: 28, left: 32 };

/** The deepest zoom a frame goes to (one store, or stores in one block, are not shown at street-door zoom). */
export const FRAME_MAX_ZOOM = 15;

/**
 * The camera that shows every point inside a `width` x `height` view less `insets`, as close as
 * `maxZoom` allows; null for no point or a view with no room left. The zoom is rounded down to a
 * quarter step so the preview's bitmap and MapLibre's tiles are drawn at the same scale.
 */
export function fitCamera(
  points: readonly { latitude: number; longitude: number }[],
  width: number,
  height: number,
  insets: Insets = FRAME_INSETS,
  maxZoom = FRAME_MAX_ZOOM,
  minZoom = 0,
): Camera | null {
  if (points.length === 0) return null;
  const roomX = width - insets.left - insets.right;
  const roomY = height - insets.top - insets.bottom;
  if (roomX <= 0 || roomY <= 0) return null;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    const [x, y] = mercator(p.longitude, p.latitude);
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  // The zoom at which the points' span fills the room: worldSize(z) * span = room.
  const fit = (room: number, span: number) => (span > 0 ? Math.log2(room / (span * worldSize(0))) : Infinity);
  const exact = Math.min(fit(roomX, x1 - x0), fit(roomY, y1 - y0), maxZoom);
  const zoom = Math.max(minZoom, Math.floor(exact * 4) / 4);
  // The points' middle goes to the middle of the room, which is off the view's centre when the
  // insets differ: the camera's centre moves the other way by half the difference.
  const size = worldSize(zoom);
  const cx = (x0 + x1) / 2 - (insets.left - insets.right) / 2 / size;
  const cy = (y0 + y1) / 2 - (insets.top - insets.bottom) / 2 / size;
  return { ...unmercator(cx, Math.max(0, Math.min(1, cy))), zoom };
}

/**
 * The camera that shows a point at `zoom` in the middle of the part of the view a bottom sheet
 * of `coverBottom` CSS pixels leaves free (its centre moves down by half the sheet, so the point
 * stands half a sheet above the view's centre).
 */
export function cameraAbove(point: { latitude: number; longitude: number }, zoom: number, coverBottom: number): Camera {
  const at: Camera = { latitude: point.latitude, longitude: point.longitude, zoom };
  return coverBottom > 0 ? panBy(at, 0, -coverBottom / 2) : at;
}

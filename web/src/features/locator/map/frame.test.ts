import { describe, expect, it } from "vitest";
import { cameraAbove, fitCamera, FRAME_MAX_ZOOM, type Insets } from "./frame";
import { toScreen } from "./projection";

// A page of results around lower Manhattan: a few kilometres apart.
const STORES = [
  { latitude: 40.7128, longitude: -74.006 },
  { latitude: 40.7306, longitude: -73.9866 },
  { latitude: 40.7033, longitude: -74.017 },
  { latitude: 40.7411, longitude: -73.9897 },
];
const INSETS: Insets = { top: 56, right: 48, bottom: 200, left: 32 };

describe("fitCamera", () => {
  it("puts every point inside the view less its insets, filling it on one side", () => {
    const [w, h] = [864, 744];
    const camera = fitCamera(STORES, w, h, INSETS);
    expect(camera).not.toBeNull();
    const xs: number[] = [];
    const ys: number[] = [];
    for (const s of STORES) {
      const [x, y] = toScreen(camera!, w, h, s.longitude, s.latitude);
      xs.push(x);
      ys.push(y);
      expect(x).toBeGreaterThanOrEqual(INSETS.left - 1e-6);
      expect(x).toBeLessThanOrEqual(w - INSETS.right + 1e-6);
      expect(y).toBeGreaterThanOrEqual(INSETS.top - 1e-6);
      expect(y).toBeLessThanOrEqual(h - INSETS.bottom + 1e-6);
    }
    // Not a far-away view: a quarter zoom step more would not fit, so the span covers over 84% of the room on one side.
    const spanX = (Math.max(...xs) - Math.min(...xs)) / (w - INSETS.left - INSETS.right);
    const spanY = (Math.max(...ys) - Math.min(...ys)) / (h - INSETS.top - INSETS.bottom);
    expect(Math.max(spanX, spanY)).toBeGreaterThan(2 ** -0.25 - 1e-9);
    expect(camera!.zoom * 4).toBe(Math.floor(camera!.zoom * 4));
  });

  it("stops at the deepest frame zoom for one store, centred in the room", () => {
    const one = fitCamera([STORES[0]!], 400, 600, INSETS);
    expect(one?.zoom).toBe(FRAME_MAX_ZOOM);
    const [x, y] = toScreen(one!, 400, 600, STORES[0]!.longitude, STORES[0]!.latitude);
    expect(x).toBeCloseTo((INSETS.left + 400 - INSETS.right) / 2, 6);
    expect(y).toBeCloseTo((INSETS.top + 600 - INSETS.bottom) / 2, 6);
  });

  it("gives nothing for no point or no room", () => {
    expect(fitCamera([], 400, 600)).toBeNull();
    expect(fitCamera(STORES, 60, 600, INSETS)).toBeNull();
  });
});

describe("cameraAbove", () => {
  it("shows the point in the middle of what the sheet leaves free", () => {
    const camera = cameraAbove(STORES[0]!, 14, 420);
    const [x, y] = toScreen(camera, 390, 680, STORES[0]!.longitude, STORES[0]!.latitude);
    expect(x).toBeCloseTo(195, 6);
    expect(y).toBeCloseTo((680 - 420) / 2, 6);
    expect(cameraAbove(STORES[0]!, 14, 0)).toEqual({ ...STORES[0], zoom: 14 });
  });
});

import { describe, expect, it } from "vitest";
import { bitmapTransform, bounds, mercator, panBy, toScreen, unmercator, worldSize, zoomAround } from "./projection";

const NYC = { latitude: 40.7128, longitude: -74.006, zoom: 10 };

describe("projection (Web Mercator, 512 px tiles like MapLibre)", () => {
  it("maps the world to the unit square and back", () => {
    expect(mercator(0, 0)).toEqual([0.5, 0.5]);
    expect(mercator(-180, 0)[0]).toBe(0);
    const [x, y] = mercator(NYC.longitude, NYC.latitude);
    const back = unmercator(x, y);
    expect(back.longitude).toBeCloseTo(NYC.longitude, 9);
    expect(back.latitude).toBeCloseTo(NYC.latitude, 9);
    expect(worldSize(0)).toBe(512);
    expect(worldSize(10)).toBe(512 * 1024);
  });

  it("puts the camera centre in the middle of the view", () => {
    expect(toScreen(NYC, 400, 300, NYC.longitude, NYC.latitude)).toEqual([200, 150]);
    // One degree of longitude east at zoom 10: 512 * 1024 / 360 pixels to the right.
    const [x, y] = toScreen(NYC, 400, 300, NYC.longitude + 1, NYC.latitude);
    expect(x).toBeCloseTo(200 + (512 * 1024) / 360, 6);
    expect(y).toBeCloseTo(150, 6);
  });

  it("pans so the content follows the pointer", () => {
    const moved = panBy(NYC, -100, 50);
    // The point that was 100 px right of and 50 px above the centre is now at the centre.
    const [x, y] = toScreen(NYC, 400, 300, moved.longitude, moved.latitude);
    expect(x).toBeCloseTo(300, 6);
    expect(y).toBeCloseTo(100, 6);
    expect(moved.zoom).toBe(10);
  });

  it("zooms around a point, which stays in place", () => {
    const z = zoomAround(NYC, 400, 300, 100, 60, 1);
    expect(z.zoom).toBe(11);
    const before = unmercator(...addPx(NYC, 100 - 200, 60 - 150));
    const [x, y] = toScreen(z, 400, 300, before.longitude, before.latitude);
    expect(x).toBeCloseTo(100, 6);
    expect(y).toBeCloseTo(60, 6);
    expect(zoomAround(NYC, 400, 300, 200, 150, 20).zoom).toBe(18);
  });

  it("bounds the view", () => {
    const [w, s, e, n] = bounds(NYC, 400, 300);
    expect(w).toBeLessThan(NYC.longitude);
    expect(e).toBeGreaterThan(NYC.longitude);
    expect(s).toBeLessThan(NYC.latitude);
    expect(n).toBeGreaterThan(NYC.latitude);
    expect(e - w).toBeCloseTo((400 / (512 * 1024)) * 360, 9);
  });

  it("places a bitmap drawn for another camera", () => {
    expect(bitmapTransform(NYC, 400, 300, NYC, 400, 300)).toBe("translate(0px, 0px) scale(1)");
    // Zoomed in by one around the centre: twice as large, anchored so the centre stays.
    expect(bitmapTransform(NYC, 400, 300, { ...NYC, zoom: 11 }, 400, 300)).toBe("translate(-200px, -150px) scale(2)");
    // Panned: the old bitmap moves with the content.
    const t = bitmapTransform(NYC, 400, 300, panBy(NYC, 30, -20), 400, 300);
    const [, tx, ty] = /translate\((.+)px, (.+)px\)/.exec(t) ?? [];
    expect(Number(tx)).toBeCloseTo(30, 6);
    expect(Number(ty)).toBeCloseTo(-20, 6);
  });
});

function addPx(camera: typeof NYC, dx: number, dy: number): [number, number] {
  const [x, y] = mercator(camera.longitude, camera.latitude);
  return [x + dx / worldSize(camera.zoom), y + dy / worldSize(camera.zoom)];
}

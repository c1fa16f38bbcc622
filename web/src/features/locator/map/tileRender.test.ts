import { describe, expect, it } from "vitest";
import { drawStyle, evaluate, tilesFor, tileUrl, type BasemapStyle, type Ctx, type DecodedTile } from "./tileRender";

describe("evaluate", () => {
  it("reads the expressions the basemap style uses", () => {
    const width = ["interpolate", ["linear"], ["zoom"], 3, 0.5, 10, 1.5];
    expect(evaluate(width, 2)).toBe(0.5);
    expect(evaluate(width, 6.5)).toBeCloseTo(1);
    expect(evaluate(width, 12)).toBe(1.5);
    expect(evaluate(["get", "size"], 10, { size: 13 })).toBe(13);
    const color = ["match", ["get", "kind"], ["village", "neighbourhood"], "#555", "#333"];
    expect(evaluate(color, 10, { kind: "neighbourhood" })).toBe("#555");
    expect(evaluate(color, 10, { kind: "city" })).toBe("#333");
    expect(evaluate("#cde3ef", 4)).toBe("#cde3ef");
    expect(evaluate(["literal", ["a"]], 4)).toEqual(["a"]);
  });
});

describe("tilesFor", () => {
  it("takes the tiles of the camera's integer zoom that cover the view, within the source's zooms", () => {
    // New York at zoom 10.5 in an 800 x 600 view: 724-pixel tiles, so 2-3 across and 1-2 down.
    const refs = tilesFor({ latitude: 40.7128, longitude: -74.006, zoom: 10.5 }, 800, 600, 0, 14);
    expect(new Set(refs.map((r) => r.z))).toEqual(new Set([10]));
    expect(refs.some((r) => r.x === 301 && r.y === 385)).toBe(true);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    expect(refs.length).toBeLessThanOrEqual(6);
    // Past the source's last zoom the last zoom's tiles are drawn larger.
    expect(tilesFor({ latitude: 40.7128, longitude: -74.006, zoom: 16 }, 800, 600, 0, 14)[0]?.z).toBe(14);
  });

  it("wraps x across the antimeridian", () => {
    const refs = tilesFor({ latitude: 0, longitude: 179.9, zoom: 2 }, 800, 200, 0, 14);
    expect(refs.some((r) => r.x === 4 && r.wrappedX === 0)).toBe(true);
    expect(tileUrl("/map/tiles/{z}/{x}/{y}.mvt", { z: 2, x: 4, y: 1, wrappedX: 0 })).toBe("/map/tiles/2/0/1.mvt");
  });
});

function recorder() {
  const calls: string[] = [];
  const values = new Map<string, unknown>();
  const ctx = new Proxy(
    {},
    {
      get: (_target, key: string): unknown => (values.has(key) ? values.get(key) : (...args: unknown[]) => calls.push(`${key}(${args.map(String).join(",")})`)),
      set: (_target, key: string, value: unknown) => {
        values.set(key, value);
        calls.push(`${key}=${String(value)}`);
        return true;
      },
    },
  );
  return { ctx: ctx as unknown as Ctx, calls };
}

describe("drawStyle", () => {
  const style: BasemapStyle = {
    sources: { basemap: { type: "vector", tiles: ["/map/tiles/{z}/{x}/{y}.mvt"], maxzoom: 14 } },
    layers: [
      { id: "water", type: "background", paint: { "background-color": "#cde3ef" } },
      { id: "land", type: "fill", source: "basemap", "source-layer": "land", paint: { "fill-color": "#f2efe6" } },
      { id: "county", type: "line", source: "basemap", "source-layer": "county", minzoom: 1, paint: { "line-color": "#d6d0c2", "line-width": 1 } },
      {
        id: "place",
        type: "symbol",
        source: "basemap",
        "source-layer": "place",
        layout: { "text-field": ["get", "name"], "text-font": ["sans-serif"], "text-size": ["get", "size"] },
        paint: { "text-color": "#333", "text-halo-color": "#fff", "text-halo-width": 1.5 },
      },
    ],
  };
  const tile: DecodedTile = {
    layers: {
      land: { extent: 4096, features: [{ type: 3, rings: [[{ x: 0, y: 0 }, { x: 4096, y: 0 }, { x: 4096, y: 4096 }, { x: 0, y: 0 }]], props: {} }] },
      county: { extent: 4096, features: [{ type: 2, rings: [[{ x: 0, y: 2048 }, { x: 4096, y: 2048 }]], props: {} }] },
      place: { extent: 4096, features: [{ type: 1, rings: [[{ x: 2048, y: 2048 }]], props: { name: "Brooklyn", size: 13 } }] },
    },
  };
  // The camera on the tile's centre: the label lands in the middle of the canvas.
  const camera = { latitude: 0, longitude: 0, zoom: 1 };

  it("draws the layers in the style's order with its colours, widths and label sizes", () => {
    const { ctx, calls } = recorder();
    drawStyle(ctx, style, [{ ref: { z: 1, x: 0, y: 0, wrappedX: 0 }, tile }], { ...camera, latitude: 66.51326, longitude: -90 }, 400, 400, 2);
    const order = ["fillStyle=#cde3ef", "fillStyle=#f2efe6", "fill(nonzero)", "strokeStyle=#d6d0c2", "lineWidth=2", "font=26px sans-serif", "strokeText(Brooklyn,200,", "fillText(Brooklyn,200,"];
    let at = -1;
    for (const call of order) {
      const next = calls.findIndex((c, i) => i > at && c.startsWith(call));
      expect(next, `${call} after ${calls[at] ?? "start"} in ${calls.join(" ")}`).toBeGreaterThan(at);
      at = next;
    }
  });

  it("leaves out layers below their minzoom", () => {
    const { ctx, calls } = recorder();
    drawStyle(ctx, style, [{ ref: { z: 1, x: 0, y: 0, wrappedX: 0 }, tile }], { ...camera, zoom: 0.5 }, 400, 400, 1);
    expect(calls).not.toContain("strokeStyle=#d6d0c2");
  });
});

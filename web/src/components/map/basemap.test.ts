import { describe, expect, it, vi } from "vitest";
import { absoluteUrl, addGrid, graticule } from "./basemap";

describe("graticule", () => {
  it("has a meridian every 10 degrees and a parallel every 10 degrees between 80 S and 80 N", () => {
    const lines = graticule().features;
    expect(lines).toHaveLength(37 + 17);
    expect(lines[0]?.geometry.coordinates).toEqual([[-180, -85], [-180, 85]]);
    expect(lines.at(-1)?.geometry.coordinates.every(([, lat]) => lat === 80)).toBe(true);
  });
});

describe("addGrid", () => {
  it("adds the grid source and its line layer once", () => {
    const sources = new Map<string, unknown>();
    const map = {
      getSource: (id: string) => sources.get(id),
      addSource: vi.fn((id: string, s: unknown) => sources.set(id, s)),
      addLayer: vi.fn(),
    };
    addGrid(map as never);
    addGrid(map as never);
    expect(map.addSource).toHaveBeenCalledTimes(1);
    expect(map.addLayer).toHaveBeenCalledWith(expect.objectContaining({ id: "grid", type: "line", source: "grid" }));
  });
});

describe("absoluteUrl", () => {
  it("resolves the style's root-relative URLs on the page's origin and keeps absolute ones", () => {
    expect(absoluteUrl("/map/tiles/10/301/385.mvt", "https://shop.example/?store=1")).toBe("https://shop.example/map/tiles/10/301/385.mvt");
    expect(absoluteUrl("https://tiles.example/a.pbf", "https://shop.example/")).toBe("https://tiles.example/a.pbf");
  });
});

import { describe, expect, it, vi } from "vitest";
import { absoluteUrl, addGrid, graticule, withAbsoluteSprites } from "./basemap";

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

describe("withAbsoluteSprites", () => {
  const base = "https://shop.example/?store=1";
  it("makes a root-relative sprite URL absolute and leaves the rest of the style alone", () => {
    const style = { version: 8 as const, sprite: "/map/sprites/streets", sources: {}, layers: [] };
    expect(withAbsoluteSprites(style, base)).toEqual({ ...style, sprite: "https://shop.example/map/sprites/streets" });
  });
  it("resolves each sprite of a list and keeps a style without sprites as it is", () => {
    const style = { version: 8 as const, sprite: [{ id: "a", url: "/s/a" }, { id: "b", url: "https://cdn.example/b" }], sources: {}, layers: [] };
    expect(withAbsoluteSprites(style, base).sprite).toEqual([
      { id: "a", url: "https://shop.example/s/a" },
      { id: "b", url: "https://cdn.example/b" },
    ]);
    const bare = { version: 8 as const, sources: {}, layers: [] };
    expect(withAbsoluteSprites(bare, base)).toBe(bare);
  });
});

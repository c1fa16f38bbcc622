import { describe, expect, it } from "vitest";
import { graticule, offlineStyle } from "./basemap";
import { COUNTRIES_LINE_WIDTH, lineWidth } from "./basemapStyle";

describe("offlineStyle", () => {
  it("draws water, countries and states, without a grid by default", () => {
    const style = offlineStyle();
    expect(style.layers.map((l) => l.id)).toEqual(["water", "countries-fill", "states-fill", "states-line", "countries-line"]);
    expect(Object.keys(style.sources)).toEqual(["countries", "states"]);
  });

  it("adds the 10-degree grid on top when asked", () => {
    const style = offlineStyle({ grid: true });
    expect(style.layers.at(-1)).toMatchObject({ id: "grid", source: "grid" });
    expect(style.sources.grid).toEqual({ type: "geojson", data: graticule() });
  });

  it("gives MapLibre the line widths the preview draws with", () => {
    const layer = offlineStyle().layers.find((l) => l.id === "countries-line");
    const [z0, w0, z1, w1] = COUNTRIES_LINE_WIDTH;
    expect(layer?.paint).toMatchObject({ "line-width": ["interpolate", ["linear"], ["zoom"], z0, w0, z1, w1] });
    expect(lineWidth(COUNTRIES_LINE_WIDTH, (z0 + z1) / 2)).toBeCloseTo((w0 + w1) / 2);
  });
});

describe("graticule", () => {
  it("has a meridian every 10 degrees and a parallel every 10 degrees between 80 S and 80 N", () => {
    const lines = graticule().features;
    expect(lines).toHaveLength(37 + 17);
    expect(lines[0]?.geometry.coordinates).toEqual([[-180, -85], [-180, 85]]);
    expect(lines.at(-1)?.geometry.coordinates.every(([, lat]) => lat === 80)).toBe(true);
  });
});

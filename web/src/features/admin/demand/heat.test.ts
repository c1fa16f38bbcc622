import { describe, expect, it } from "vitest";
import { heatBounds, heatPoints } from "./heat";

const cells = [
  { latitude: 40.71, longitude: -74.01, searches: 10, zero_results: 0 },
  { latitude: 10.5, longitude: -20.5, searches: 5, zero_results: 5 },
];

describe("demand heat layer", () => {
  it("weights each cell by the busiest one and leaves out empty cells", () => {
    const all = heatPoints(cells, "searches");
    expect(all.features.map((f) => f.properties.weight)).toEqual([1, 0.5]);
    const zero = heatPoints(cells, "zero_results");
    expect(zero.features).toHaveLength(1);
    expect(zero.features[0]?.geometry.coordinates).toEqual([-20.5, 10.5]);
    expect(zero.features[0]?.properties).toEqual({ weight: 1, count: 5 });
  });

  it("frames the cells that have some", () => {
    expect(heatBounds(cells, "searches")).toEqual([-74.01, 10.5, -20.5, 40.71]);
    expect(heatBounds(cells, "zero_results")).toEqual([-20.5, 10.5, -20.5, 10.5]);
    expect(heatBounds([], "searches")).toBeNull();
  });
});

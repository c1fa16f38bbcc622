import { describe, expect, it } from "vitest";
import { areaNames, hasStreetsAt, noStreetsMessage, streetAreasOf, type StreetArea } from "./streets";

const AREAS: StreetArea[] = [
  { name: "Chicago", bounds: [-87.8027, 41.7713, -87.583, 41.9677] },
  { name: "San Francisco", bounds: [-122.4646, 37.7533, -122.4316, 37.7794] },
];

describe("street areas", () => {
  it("reads the offline basemap's metadata, and nothing from a style without it", () => {
    expect(streetAreasOf({ version: 8, metadata: { "locator:streets": AREAS } })).toEqual(AREAS);
    expect(streetAreasOf({ version: 8, metadata: { "locator:streets": [{ name: "x" }, ...AREAS] } })).toEqual(AREAS);
    expect(streetAreasOf({ version: 8, name: "Protomaps" })).toBeNull();
    expect(streetAreasOf(null)).toBeNull();
  });

  it("finds the Loop in Chicago and not Austin or Manhattan", () => {
    expect(hasStreetsAt(AREAS, 41.8819, -87.6278)).toBe(true);
    expect(hasStreetsAt(AREAS, 37.7694, -122.4481)).toBe(true);
    expect(hasStreetsAt(AREAS, 30.2672, -97.7431)).toBe(false);
    expect(hasStreetsAt(AREAS, 40.758, -73.9855)).toBe(false);
  });

  it("says where the streets are", () => {
    expect(areaNames(AREAS)).toBe("Chicago and San Francisco");
    expect(areaNames([...AREAS, { name: "Boston", bounds: [0, 0, 1, 1] }])).toBe("Chicago, San Francisco and Boston");
    expect(noStreetsMessage(AREAS)).toBe("No street data here: this map shows streets only in Chicago and San Francisco. Use the store's address for directions.");
    expect(noStreetsMessage([])).toBe("No street data on this map: use the store's address for directions.");
  });
});

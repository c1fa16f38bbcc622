import { describe, expect, it } from "vitest";
import { formatCoordinate, parseCoordinate, parseCoordinates } from "./coordinates";

describe("coordinates", () => {
  it("parses numbers within range and refuses the rest", () => {
    expect(parseCoordinate(" 40.5 ", 90)).toBe(40.5);
    expect(parseCoordinate("-74", 180)).toBe(-74);
    expect(parseCoordinate(".5", 90)).toBe(0.5);
    expect(parseCoordinate("90.0001", 90)).toBeUndefined();
    expect(parseCoordinate("", 90)).toBeUndefined();
    expect(parseCoordinate("1e3", 180)).toBeUndefined();
    expect(parseCoordinate("12abc", 90)).toBeUndefined();
    expect(parseCoordinates("40.7", "")).toBeUndefined();
    expect(parseCoordinates("40.7", "-74")).toEqual({ latitude: 40.7, longitude: -74 });
  });

  it("shows six decimals", () => {
    expect(formatCoordinate(40.7127753)).toBe("40.712775");
  });
});

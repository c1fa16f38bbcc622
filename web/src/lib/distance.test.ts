import { describe, expect, it } from "vitest";
import { formatDistance, usesMiles } from "./distance";

describe("formatDistance", () => {
  it("uses miles in the US and the UK, kilometres elsewhere", () => {
    expect(usesMiles("en-US")).toBe(true);
    expect(usesMiles("en")).toBe(true); // en maximizes to en-Latn-US
    expect(usesMiles("en-GB")).toBe(true);
    expect(usesMiles("de-DE")).toBe(false);
    expect(usesMiles("fr-CA")).toBe(false);
    expect(usesMiles("not a locale")).toBe(true);
  });

  it("writes one decimal under 10, whole numbers above, and a floor for the very near", () => {
    expect(formatDistance(0.44, "en-US")).toBe("0.4 mi");
    expect(formatDistance(3, "en-US")).toBe("3 mi");
    expect(formatDistance(12.6, "en-US")).toBe("13 mi");
    expect(formatDistance(0.02, "en-US")).toBe("< 0.1 mi");
    expect(formatDistance(1, "en-CA")).toBe("1.6 km");
    expect(formatDistance(10, "de-DE")).toBe("16 km");
  });
});

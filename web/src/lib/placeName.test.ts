import { describe, expect, it } from "vitest";
import cases from "../../../internal/places/testdata/short-names.json?raw";
import { shortPlaceName } from "./placeName";

describe("shortPlaceName", () => {
  it("names places as the server's first frame does (internal/places.ShortName's cases)", () => {
    for (const c of JSON.parse(cases) as { display: string; short: string }[]) expect(shortPlaceName(c.display), c.display).toBe(c.short);
  });
});

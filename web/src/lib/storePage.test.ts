import { describe, expect, it } from "vitest";
import cases from "../../../internal/slug/testdata/slugs.json?raw";
import { slugify, storePagePath } from "./storePage";

describe("slugify", () => {
  it.each(JSON.parse(cases) as { in: string; want: string }[])("slugs $in as the server does", ({ in: name, want }) => {
    expect(slugify(name)).toBe(want);
  });
});

describe("storePagePath", () => {
  it("puts the state, city and name slugs before the id", () => {
    expect(storePagePath({ id: 3613, name: "Manhattan Vape Shop", state: "NY", city: "New York" })).toBe(
      "/stores/ny/new-york/manhattan-vape-shop-3613",
    );
  });
  it("falls back when a part has no slug", () => {
    expect(storePagePath({ id: 7, name: "東京", state: "", city: "" })).toBe("/stores/other/other/store-7");
  });
});

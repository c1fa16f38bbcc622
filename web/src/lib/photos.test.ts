import { describe, expect, it } from "vitest";
import { photoSrcset } from "./photos";

describe("photoSrcset", () => {
  it("lists the three slots of an uploaded photo", () => {
    expect(photoSrcset("/photos/42/640.jpg")).toBe("/photos/42/320.jpg 320w, /photos/42/640.jpg 640w, /photos/42/1280.jpg 1280w");
  });
  it("leaves other images alone", () => {
    for (const src of [null, undefined, "", "/demo/store-1.svg", "https://cdn.example/photos/1/640.jpg", "/photos/1/500.jpg", "/photos/x/640.jpg"]) {
      expect(photoSrcset(src)).toBeUndefined();
    }
  });
});

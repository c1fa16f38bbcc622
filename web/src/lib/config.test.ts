import { afterEach, describe, expect, it } from "vitest";
import { placeSearchHint, resolveApiBase } from "./config";

const page = "https://locator.example/claim";

describe("resolveApiBase", () => {
  it("defaults to same-origin /api", () => {
    expect(resolveApiBase(undefined, undefined, page)).toBe("https://locator.example/api");
  });

  it("uses the build-time base when there is no runtime config", () => {
    expect(resolveApiBase({}, "https://api.example/v1/", page)).toBe("https://api.example/v1");
  });

  it("prefers the runtime base over the build-time one", () => {
    expect(resolveApiBase({ apiBase: "/backend" }, "https://api.example", page)).toBe("https://locator.example/backend");
  });

  it("ignores empty values", () => {
    expect(resolveApiBase({ apiBase: " " }, "", page)).toBe("https://locator.example/api");
  });
});

describe("placeSearchHint", () => {
  afterEach(() => {
    delete window.__LOCATOR_CONFIG__;
  });

  it("promises addresses only with a geocoder", () => {
    expect(placeSearchHint()).toBe("Search city, ZIP code or neighbourhood");
    window.__LOCATOR_CONFIG__ = { addressSearch: true };
    expect(placeSearchHint()).toBe("Search city, ZIP code or address");
  });
});

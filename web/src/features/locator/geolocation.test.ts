import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { locateVisitor } from "./geolocation";

// A browser that refuses the position (permission denied: not retried).
const denied = {
  getCurrentPosition: (_ok: PositionCallback, fail?: PositionErrorCallback | null) => fail?.({ code: 1, message: "denied" } as GeolocationPositionError),
} as Geolocation;

describe("locateVisitor", () => {
  it("asks the server's IP location only when the runtime config says it has one", async () => {
    const calls = stubApi({ "GET /api/geo/ip-location": { body: { latitude: 51.5, longitude: -0.1 } } });
    expect(await locateVisitor(denied, false)).toBeNull();
    expect(calls).toEqual([]);
    expect(await locateVisitor(denied, true)).toEqual({ latitude: 51.5, longitude: -0.1 });
    expect(calls.map((c) => c.path)).toEqual(["/api/geo/ip-location"]);
  });
});

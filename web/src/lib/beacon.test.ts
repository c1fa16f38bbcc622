import { afterEach, describe, expect, it, vi } from "vitest";
import { sendEvent } from "./beacon";

afterEach(() => vi.unstubAllGlobals());

describe("sendEvent", () => {
  it("sends the kind and the store as JSON with sendBeacon", async () => {
    const beacon = vi.fn(() => true);
    vi.stubGlobal("navigator", { ...navigator, sendBeacon: beacon });
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    sendEvent("call", 42);
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toMatch(/\/api\/events$/);
    expect(blob.type).toBe("application/json");
    expect(JSON.parse(await blob.text())).toEqual({ kind: "call", store_id: 42 });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("does nothing without beacons, and never throws", () => {
    vi.stubGlobal("navigator", { ...navigator, sendBeacon: undefined });
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    expect(() => sendEvent("directions", 7)).not.toThrow();
    vi.stubGlobal("navigator", {
      ...navigator,
      sendBeacon: () => {
        throw new TypeError("refused");
      },
    });
    expect(() => sendEvent("directions", 7)).not.toThrow();
    expect(fetch).not.toHaveBeenCalled();
  });
});

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

  it("falls back to a keepalive fetch without cookies when the beacon is refused", () => {
    vi.stubGlobal("navigator", { ...navigator, sendBeacon: () => false });
    const fetch = vi.fn(() => Promise.reject(new Error("offline")));
    vi.stubGlobal("fetch", fetch);
    expect(() => sendEvent("directions", 7)).not.toThrow();
    expect(fetch).toHaveBeenCalledWith(expect.stringMatching(/\/api\/events$/), expect.objectContaining({ keepalive: true, credentials: "omit", body: '{"kind":"directions","store_id":7}' }));
  });
});

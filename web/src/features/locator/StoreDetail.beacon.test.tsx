import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStore, whole } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { StoreDetail } from "./StoreDetail";

const follow = (e: Event) => e.preventDefault();
afterEach(() => {
  vi.unstubAllGlobals();
  document.removeEventListener("click", follow, true);
  document.cookie = "locator_age=; max-age=0; path=/";
});

/** The kinds the panel sent with sendBeacon, in order. */
async function sentKinds(beacon: ReturnType<typeof vi.fn>): Promise<string[]> {
  return Promise.all(beacon.mock.calls.map(async ([, blob]) => (JSON.parse(await (blob as Blob).text()) as { kind: string }).kind));
}

describe("StoreDetail beacons (docs/insights.md)", () => {
  it("counts the panel, then Call, Directions, Share and the online store, each for this store", async () => {
    const beacon = vi.fn<(url: string, blob: Blob) => boolean>(() => true);
    vi.stubGlobal("navigator", { ...navigator, sendBeacon: beacon, share: undefined, clipboard: { writeText: () => Promise.resolve() } });
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response("{}", { status: 404 }))));
    // Links are not followed in jsdom: only the click handlers run.
    document.addEventListener("click", follow, true);
    // An age already checked (21 and over): "Go to online store" opens the store at once.
    document.cookie = "locator_age=ok:21; path=/";
    renderAt(<StoreDetail {...whole(makeStore({ id: 7, name: "Cloud Nine", store_id: "st_7" }))} onBack={() => {}} now={new Date()} />);
    expect(await sentKinds(beacon)).toEqual(["panel"]);
    const user = userEvent.setup();
    await user.click(screen.getByRole("link", { name: "Call" }));
    await user.click(screen.getByRole("link", { name: "Directions" }));
    await user.click(screen.getByRole("button", { name: "Share" }));
    await user.click(await screen.findByRole("link", { name: "Go to online store" }));
    expect(await sentKinds(beacon)).toEqual(["panel", "call", "directions", "share", "online_store"]);
    for (const [url, blob] of beacon.mock.calls) {
      expect(url).toMatch(/\/api\/events$/);
      expect(JSON.parse(await blob.text())).toMatchObject({ store_id: 7 });
    }
  });
});

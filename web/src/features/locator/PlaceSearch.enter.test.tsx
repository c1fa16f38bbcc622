import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render";
import { PlaceSearch } from "./PlaceSearch";

// A debounce no test outlives: whatever Enter finds, it found without waiting for it (m4).
vi.mock("../../lib/constants", async (importOriginal) => ({ ...(await importOriginal<object>()), PLACE_SEARCH_DEBOUNCE_MS: 600_000 }));

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });

function Box({ onChoose }: { onChoose: () => void }) {
  const [value, setValue] = useState("");
  return <PlaceSearch value={value} onValueChange={setValue} onChoose={onChoose} onCurrentLocation={vi.fn()} />;
}

describe("PlaceSearch, Enter", () => {
  it("searches at once, without waiting out the debounce, and goes to the best place", async () => {
    const fetch = vi.fn<(request: Request) => Promise<Response>>(() =>
      Promise.resolve(json({ code: 200, data: [{ display_name: "Brooklyn, NY, United States", lat: 40.65, lon: -73.95 }] })),
    );
    vi.stubGlobal("fetch", fetch);
    const onChoose = vi.fn();
    const user = userEvent.setup();
    renderAt(<Box onChoose={onChoose} />);

    await user.type(screen.getByRole("combobox", { name: "Search for a place" }), "Brooklyn{Enter}");
    await vi.waitFor(() => expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ display_name: "Brooklyn, NY, United States" })));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new URL(fetch.mock.calls[0]![0].url).searchParams.get("q")).toBe("Brooklyn");
  });

  it("says so when the entered text finds no place", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(json({ code: 200, data: [] }))));
    const onChoose = vi.fn();
    const user = userEvent.setup();
    renderAt(<Box onChoose={onChoose} />);
    await user.type(screen.getByRole("combobox", { name: "Search for a place" }), "Qwxz{Enter}");
    expect(await screen.findByText("No places found")).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
  });
});

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render";
import { PlaceSearch } from "./PlaceSearch";
import { useState } from "react";

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });

function Box({ onChoose = vi.fn() }: { onChoose?: () => void }) {
  const [value, setValue] = useState("");
  return <PlaceSearch value={value} onValueChange={setValue} onChoose={onChoose} onCurrentLocation={vi.fn()} near={{ latitude: 40.7128, longitude: -74.006 }} />;
}

describe("PlaceSearch", () => {
  it("is a text combobox, sends the map's centre, and shows the server's note with the best place", async () => {
    const note = "Street addresses can't be looked up here: showing the ZIP code or city of this address.";
    const fetch = vi.fn<(request: Request) => Promise<Response>>(() =>
      Promise.resolve(json({ code: 200, data: [{ display_name: "11211, Brooklyn, NY, United States", lat: 40.71, lon: -73.95 }], note })),
    );
    vi.stubGlobal("fetch", fetch);
    const user = userEvent.setup();
    renderAt(<Box />);

    const box = screen.getByRole("combobox", { name: "Search for a place" });
    expect(box).toHaveAttribute("type", "text");
    expect(box).toHaveAttribute("enterkeyhint", "search");
    // No geocoder configured: the box says what it can find.
    expect(box).toHaveAttribute("placeholder", "Search city, ZIP code or neighbourhood");
    await user.type(box, "100 Bedford Ave 11211");
    expect(await screen.findByText(note, {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole("option", { name: "11211, Brooklyn, NY, United States" })).toBeInTheDocument();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const url = new URL(fetch.mock.calls.at(-1)![0].url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: "100 Bedford Ave 11211", lat: "40.7", lon: "-74" });
  });
});

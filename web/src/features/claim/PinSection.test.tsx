import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hasStreets } from "../../components/location/streets";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ClaimPage } from "./ClaimPage";
import { PIN_NO_STREETS } from "./messages";

// The real map needs WebGL (the end-to-end run covers it). This stand-in reports what the default
// basemap gives under a pin, no streets, and "drags" the marker to 200 Bedford Ave when clicked.
vi.mock("../../components/location/LocationPicker", async () => {
  const { useEffect } = await import("react");
  return {
    default: function Picker({
      onChange,
      onStreets,
      center,
    }: {
      onChange: (at: { latitude: number; longitude: number }) => void;
      onStreets?: (streets: boolean | null) => void;
      center?: { latitude: number; longitude: number } | null;
    }) {
      useEffect(() => onStreets?.(false), [onStreets]);
      return (
        <button type="button" data-center={center ? `${center.latitude},${center.longitude}` : ""} onClick={() => onChange({ latitude: 40.71783, longitude: -73.95773 })}>
          Drag the marker
        </button>
      );
    },
  };
});

type User = ReturnType<typeof userEvent.setup>;

async function fill(user: User, label: string, value: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(value);
}

/** Steps 1-3, then step 4's address in Williamsburg, Brooklyn (the walk's case). */
async function toBrooklynAddress(user: User) {
  const steps: [string, string][] = [
    ["Business name", "Bedford Smoke"],
    ["Email", "owner@bedford.test"],
    ["Phone", "+17185550199"],
  ];
  for (const [label, value] of steps) {
    await fill(user, label, value);
    await user.click(screen.getByRole("button", { name: "Continue" }));
  }
  await fill(user, "Country", "United States");
  await fill(user, "State (optional)", "NY");
  await fill(user, "City", "Brooklyn");
  await fill(user, "Postal code", "11249");
  await fill(user, "Address", "200 Bedford Ave");
}

async function submit(user: User) {
  await user.click(screen.getByRole("button", { name: "Add business" }));
  await fill(user, "Password", "dash-secret");
  await user.click(screen.getByRole("button", { name: "Submit" }));
  expect(await screen.findByRole("heading", { name: "Thank You!" })).toBeInTheDocument();
}

const answers = {
  "POST /api/store/claim/locate": {
    body: { found: true, latitude: 40.6451, longitude: -73.945, precision: "postal_code", precision_text: "ZIP centre only", approximate: true },
  },
  "POST /api/store/claim": { status: 201, body: { message: "ok", claim: { id: 7, status: "pending" } } },
  "POST /api/store/create-user": { status: 201, body: { message: "ok" } },
};

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe("the claim wizard's pin", { timeout: 20_000 }, () => {
  it("says the address is only a ZIP centre and that the map has no streets; the pin placed on the map goes with the claim", async () => {
    const calls = stubApi(answers);
    renderAt(<ClaimPage />, "/claim");
    const user = userEvent.setup();
    await toBrooklynAddress(user);
    await user.click(screen.getByRole("button", { name: "Place the pin on the map" }));
    expect(await screen.findByText(/only at the centre of the ZIP code, which may be miles from your door/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/store/claim/locate")?.body).toEqual({
      country: "United States",
      state: "NY",
      city: "Brooklyn",
      postal_code: "11249",
      address1: "200 Bedford Ave",
    });
    // The map starts at the ZIP's centre, and says it shows no streets there.
    expect(await screen.findByText(PIN_NO_STREETS)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Drag the marker" })).toHaveAttribute("data-center", "40.6451,-73.945");
    await user.click(screen.getByRole("button", { name: "Drag the marker" }));
    expect(screen.getByText(/Pin placed on the map: 40\.717830, -73\.957730/)).toBeInTheDocument();
    expect(screen.getByLabelText("Latitude")).toHaveValue("40.717830");
    await submit(user);
    expect(calls.find((c) => c.path === "/api/store/claim")?.body).toMatchObject({
      address1: "200 Bedford Ave",
      pin_latitude: 40.71783,
      pin_longitude: -73.95773,
      pin_source: "map",
    });
  });

  it("takes the device's location with I'm at the store now, and sends no pin once removed", async () => {
    const calls = stubApi(answers);
    const getCurrentPosition = vi.fn((...args: [PositionCallback, PositionErrorCallback?, PositionOptions?]) =>
      args[0]({ coords: { latitude: 40.71791, longitude: -73.95766, accuracy: 250 } } as GeolocationPosition),
    );
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator) as Navigator, { geolocation: { getCurrentPosition } }));
    renderAt(<ClaimPage />, "/claim");
    const user = userEvent.setup();
    await toBrooklynAddress(user);
    await user.click(screen.getByRole("button", { name: "I'm at the store now" }));
    expect(await screen.findByText(/Pin placed from your device at the store: 40\.717910, -73\.957660/)).toBeInTheDocument();
    expect(screen.getByText(/only to within 250 m/)).toBeInTheDocument();
    expect(getCurrentPosition.mock.calls[0]?.[2]).toMatchObject({ enableHighAccuracy: true });
    await user.click(screen.getByRole("button", { name: "Add business" }));
    await user.click(screen.getByRole("button", { name: "Back" }));
    // Back on step 4 the pin is still there; removed, nothing is sent.
    await waitFor(() => expect(screen.getByLabelText("Latitude")).toHaveValue("40.717910"));
    await user.click(screen.getByRole("button", { name: "Remove the pin" }));
    await submit(user);
    const body = calls.find((c) => c.path === "/api/store/claim")?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("pin_latitude");
    expect(body).not.toHaveProperty("pin_source");
  });
});

describe("hasStreets", () => {
  it("finds roads by source layer (Protomaps, OpenMapTiles) or style layer, and none on the default basemap", () => {
    expect(hasStreets([{ sourceLayer: "roads" }])).toBe(true);
    expect(hasStreets([{ sourceLayer: "transportation" }])).toBe(true);
    expect(hasStreets([{ layer: { id: "highway-primary" } }])).toBe(true);
    expect(hasStreets([{ sourceLayer: "land" }, { sourceLayer: "water" }, { sourceLayer: "place" }, { layer: { id: "county" } }])).toBe(false);
    expect(hasStreets([])).toBe(false);
  });
});

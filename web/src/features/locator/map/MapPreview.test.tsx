import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeStore } from "../../../test/fixtures";
import { MapPreview, type MapPreviewProps } from "./MapPreview";

const camera = { latitude: 40.7128, longitude: -74.006, zoom: 10 };
// Two stores a few metres apart (one cluster at zoom 10) and one on its own.
const stores = [
  makeStore({ id: 1, name: "Twin A", latitude: 40.7128, longitude: -74.006 }),
  makeStore({ id: 2, name: "Twin B", latitude: 40.7129, longitude: -74.0061 }),
  makeStore({ id: 3, name: "Alone", latitude: 40.65, longitude: -73.9 }),
];

function setup(overrides: Partial<MapPreviewProps> = {}) {
  const props: MapPreviewProps = {
    camera,
    stores,
    selected: null,
    onSelect: vi.fn(),
    onCameraChange: vi.fn(),
    onActivate: vi.fn(),
    onDragChange: vi.fn(),
    ...overrides,
  };
  render(<MapPreview {...props} />);
  return props;
}

describe("MapPreview", () => {
  // jsdom lays nothing out: give every element an 800 x 600 box.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows the stores and clusters as named buttons, clustered like the map", async () => {
    setup();
    // Supercluster comes in a chunk of its own (asked for when the module loads).
    expect(await screen.findByRole("button", { name: "2 stores, zoom in" })).toHaveClass("locator-cluster");
    const alone = screen.getByRole("button", { name: "Alone" });
    expect(alone).toHaveClass("locator-marker");
    expect(alone).toHaveAttribute("aria-pressed", "false");
    expect(alone.querySelector("img")).toHaveAttribute("width", "32");
    expect(screen.queryByRole("button", { name: "Twin A" })).toBeNull();
  });

  it("never hides a row of the page in a cluster: rows are numbered pins, clusters read +n", async () => {
    const three = [...stores, makeStore({ id: 4, name: "Twin C", latitude: 40.7127, longitude: -74.0059 })];
    setup({ stores: three, numbers: new Map([[1, 1]]) });
    // Twin A is row 1: its own pin with its number; B and C, not on the page, make a cluster of 2.
    const cluster = await screen.findByRole("button", { name: "2 stores, zoom in" });
    expect(cluster).toHaveTextContent(/^\+2$/);
    const row = screen.getByRole("button", { name: "Twin A" });
    expect(row).toHaveAttribute("data-number", "1");
    // Row pins come first in the focus order, before the clusters and the other stores.
    const buttons = screen.getAllByRole("button").map((b) => b.getAttribute("aria-label"));
    expect(buttons.indexOf("Twin A")).toBeLessThan(buttons.indexOf("2 stores, zoom in"));
  });

  it("draws the opened store apart from its cluster, as its own pressed marker", async () => {
    const props = setup({ selected: { id: 1, name: "Twin A", latitude: 40.7128, longitude: -74.006 } });
    // Twin A leaves the cluster: Twin B stands alone, Twin A is the selected marker.
    expect(await screen.findByRole("button", { name: "Twin B" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.queryByRole("button", { name: /stores, zoom in/ })).toBeNull();
    const opened = screen.getByRole("button", { name: "Twin A" });
    expect(opened).toHaveClass("locator-marker-selected");
    expect(opened).toHaveAttribute("aria-pressed", "true");
    // Keyboard-reachable: a button in the tab order.
    opened.focus();
    expect(opened).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(props.onSelect).toHaveBeenCalledWith(1);
  });

  it("opens a store without starting the interactive map", async () => {
    const props = setup();
    await userEvent.click(await screen.findByRole("button", { name: "Alone" }));
    expect(props.onSelect).toHaveBeenCalledWith(3);
    expect(props.onActivate).not.toHaveBeenCalled();
  });

  it("zooms into a cluster and starts the interactive map", async () => {
    const props = setup();
    await userEvent.click(await screen.findByRole("button", { name: "2 stores, zoom in" }));
    expect(props.onActivate).toHaveBeenCalled();
    const [next, byUser] = vi.mocked(props.onCameraChange).mock.calls[0] ?? [];
    expect(byUser).toBe(true);
    expect(next?.zoom).toBeGreaterThan(10);
  });

  it("pans with the arrow keys and zooms with the buttons, starting the map", async () => {
    const props = setup();
    fireEvent.keyDown(screen.getByRole("region", { name: "Map" }), { key: "ArrowRight" });
    expect(props.onActivate).toHaveBeenCalledTimes(1);
    const [east] = vi.mocked(props.onCameraChange).mock.calls[0] ?? [];
    expect(east?.longitude).toBeGreaterThan(camera.longitude);
    await userEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    const [zoomed] = vi.mocked(props.onCameraChange).mock.calls[1] ?? [];
    expect(zoomed?.zoom).toBe(11);
  });

  it("pans with a drag", () => {
    const props = setup();
    const surface = screen.getByRole("region", { name: "Map" });
    fireEvent.pointerDown(surface, { pointerId: 1, isPrimary: true, button: 0, clientX: 400, clientY: 300 });
    expect(props.onActivate).toHaveBeenCalled();
    expect(props.onDragChange).toHaveBeenLastCalledWith(true);
    fireEvent.pointerMove(surface, { pointerId: 1, clientX: 300, clientY: 300 });
    fireEvent.pointerUp(surface, { pointerId: 1, clientX: 300, clientY: 300 });
    expect(props.onDragChange).toHaveBeenLastCalledWith(false);
    const [moved, byUser] = vi.mocked(props.onCameraChange).mock.calls[0] ?? [];
    expect(byUser).toBe(true);
    expect(moved?.longitude).toBeGreaterThan(camera.longitude);
  });
});

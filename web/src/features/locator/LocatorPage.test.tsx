import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeLicence, makeStore } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { stubStoreApi } from "../../test/storeApi";
import { LocatorPage } from "./LocatorPage";

// The real map needs WebGL; the end-to-end suite covers it.
vi.mock("./map/StoreMap", () => ({ default: () => null }));
// No browser position and no IP location: the default centre stays.
vi.mock("./geolocation", () => ({ locateVisitor: () => Promise.resolve(null) }));

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

describe("LocatorPage", () => {
  it("asks for the stores near New York and lists the first 20 names", async () => {
    const stores = Array.from({ length: 25 }, (_, i) => makeStore({ id: i + 1, distance: i }));
    const fetch = stubStoreApi(stores, { hasMore: true });

    renderAt(<LocatorPage />);

    expect(screen.getByRole("status")).toHaveTextContent("Loading stores");
    const list = await screen.findByRole("list", { name: "Stores" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(20);
    expect(items[0]).toHaveTextContent("Store 1");
    expect(items[19]).toHaveTextContent("Store 20");
    expect(screen.queryByRole("status")).not.toBeInTheDocument();

    const lists = fetch.mock.calls.map(([r]) => new URL(r.url)).filter((u) => u.pathname.includes("list-physical-store"));
    expect(lists).toHaveLength(1);
    const url = lists[0]!;
    expect(url.pathname).toBe("/api/store/physical-store/list-physical-store/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      latitude: "40.7128",
      longitude: "-74.006",
      radius: "30",
      limit: "200",
    });
  });

  it("opens a store from the list in the detail panel (its own chunk) and goes back to the same list", async () => {
    const stores = Array.from({ length: 3 }, (_, i) => makeStore({ id: i + 1, distance: i }));
    stubStoreApi(stores);
    const user = userEvent.setup();

    renderAt(<LocatorPage />);

    const list = await screen.findByRole("list", { name: "Stores" });
    await user.click(within(list).getByRole("button", { name: /Store 2/ }));
    expect(await screen.findByRole("heading", { name: "Store 2" })).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Stores" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: /back to results/i }));
    expect(within(await screen.findByRole("list", { name: "Stores" })).getAllByRole("listitem")).toHaveLength(3);
  });

  it("opens the panel at once from the list's entry, fetches the whole store and adds its lines when it arrives", async () => {
    const stores = Array.from({ length: 3 }, (_, i) => makeStore({ id: i + 1, distance: i, licence: makeLicence({ number: `LIC-${i + 1}` }) }));
    let arrive = () => {};
    const fetch = stubStoreApi(stores, { wholeAfter: new Promise<void>((resolve) => (arrive = resolve)) });
    const user = userEvent.setup();

    renderAt(<LocatorPage />);

    const list = await screen.findByRole("list", { name: "Stores" });
    await user.click(within(list).getByRole("button", { name: /Store 2/ }));
    // The list's entries carry no licence (stubStoreApi lists as the server does): its line waits for the whole store.
    const panel = await screen.findByRole("article", { name: "Store 2" });
    expect(panel).toHaveAttribute("aria-busy", "true");
    expect(screen.queryByTestId("licence")).not.toBeInTheDocument();
    expect(fetch.mock.calls.map(([r]) => new URL(r.url).pathname)).toContain("/api/store/physical-store/2");

    expect(within(panel).getByText("1 mi")).toBeInTheDocument();

    arrive();
    expect(await screen.findByTestId("licence")).toHaveTextContent("LIC-2");
    expect(panel).toHaveAttribute("aria-busy", "false");
    // The one-store answer has no distance: the list's stays.
    expect(within(panel).getByText("1 mi")).toBeInTheDocument();
  });

  it("has a main landmark and a skip link to the results; Escape closes the panel and gives the focus back to the row", async () => {
    const stores = Array.from({ length: 3 }, (_, i) => makeStore({ id: i + 1, distance: i }));
    stubStoreApi(stores);
    const user = userEvent.setup();

    renderAt(<LocatorPage />);

    expect(screen.getByRole("main")).toBeInTheDocument();
    const list = await screen.findByRole("list", { name: "Stores" });
    await user.click(screen.getByRole("link", { name: "Skip to results" }));
    expect(document.activeElement?.id).toBe("locator-results-body");

    await user.click(within(list).getByRole("button", { name: /Store 3/ }));
    expect(await screen.findByRole("heading", { name: "Store 3" })).toHaveFocus();
    await user.keyboard("{Escape}");
    const back = await screen.findByRole("list", { name: "Stores" });
    expect(within(back).getByRole("button", { name: /Store 3/ })).toHaveFocus();
  });

  it("says no licence registry covers the area instead of an empty list, and shows all stores again (M8)", async () => {
    const stores = Array.from({ length: 3 }, (_, i) => makeStore({ id: i + 1, distance: i }));
    const fetch = stubStoreApi([], { licenceRegistry: false });
    const user = userEvent.setup();

    renderAt(<LocatorPage />, "/?lat=40.758&lon=-73.9855&place=Manhattan&licensed=1");

    expect(await screen.findByText(/none we read lists the stores around here/)).toBeInTheDocument();
    expect(screen.getAllByText("No licence registry covers this area").length).toBeGreaterThan(0);
    expect(screen.queryByText("No Results Found")).not.toBeInTheDocument();
    const chip = within(screen.getByRole("group", { name: "Filters" })).getByRole("button", { name: /Licence verified/ });
    expect(chip).toHaveAccessibleDescription("No licence registry covers this area");

    stubStoreApi(stores, { licenceRegistry: false });
    await user.click(screen.getByRole("button", { name: "Show all stores" }));
    expect(within(await screen.findByRole("list", { name: "Stores" })).getAllByRole("listitem")).toHaveLength(3);
    expect(chip).toHaveAttribute("aria-pressed", "false");
    const last = new URL(fetch.mock.calls.at(-1)![0].url);
    expect(last.searchParams.get("is_licence_verified")).toBe("true");
  });

  it("keeps the plain empty state where a registry covers the area", async () => {
    stubStoreApi([], { licenceRegistry: true });

    renderAt(<LocatorPage />, "/?lat=40.758&lon=-73.9855&place=Manhattan&licensed=1");

    expect((await screen.findAllByText("No Results Found")).length).toBeGreaterThan(0);
    expect(screen.queryByText("No licence registry covers this area")).not.toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Filters" })).getByRole("button", { name: /Licence verified/ })).not.toHaveAccessibleDescription();
  });

  it("leaves the panel open on Escape inside a modal dialog (the age check closes alone, m15)", async () => {
    stubStoreApi(Array.from({ length: 2 }, (_, i) => makeStore({ id: i + 1, distance: i })));
    const user = userEvent.setup();
    renderAt(<LocatorPage />);
    await user.click(within(await screen.findByRole("list", { name: "Stores" })).getByRole("button", { name: /Store 2/ }));
    expect(await screen.findByRole("heading", { name: "Store 2" })).toBeInTheDocument();

    // A native modal <dialog> has no role attribute; its Escape is its own.
    const dialog = document.createElement("dialog");
    dialog.setAttribute("open", "");
    const field = document.createElement("input");
    dialog.append(field);
    document.body.append(dialog);
    field.focus();
    await user.keyboard("{Escape}");
    expect(screen.getByRole("heading", { name: "Store 2" })).toBeInTheDocument();
    dialog.remove();
  });

  it("says how many stores there are in all: a count, or 200+ when more matched", async () => {
    stubStoreApi(Array.from({ length: 25 }, (_, i) => makeStore({ id: i + 1, distance: i })));
    const { unmount } = renderAt(<LocatorPage />);
    expect(await screen.findByText("Showing results 1-20 of 25")).toBeInTheDocument();
    unmount();
    stubStoreApi(Array.from({ length: 200 }, (_, i) => makeStore({ id: i + 1, distance: i / 10 })), { hasMore: true });
    renderAt(<LocatorPage />);
    expect(await screen.findByText("Showing results 1-20 of 200+")).toBeInTheDocument();
  });

  it("says No Results Found once, with a way out: clear the filters, or search another place", async () => {
    const fetch = stubStoreApi([]);
    const user = userEvent.setup();
    renderAt(<LocatorPage />, "/?open=1&delivery=1");
    expect(await screen.findByText("Modify filters or adjust location to discover nearby stores.")).toBeInTheDocument();
    expect(screen.getAllByText("No Results Found")).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    // Asked again without a filter.
    await vi.waitFor(() => {
      const last = fetch.mock.calls.map(([r]) => new URL(r.url)).filter((u) => u.pathname.includes("list-physical-store")).at(-1)!;
      expect([...last.searchParams.keys()].sort()).toEqual(["latitude", "limit", "longitude", "radius"]);
    });
    expect(screen.queryByRole("button", { name: "Clear filters" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Search another place" }));
    // The box in view gets the focus (jsdom lays nothing out, so here the phone's menu opens first).
    await vi.waitFor(() => expect(document.activeElement).toHaveAccessibleName("Search for a place"));
  });

  it("shows an error when the call fails", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse({ message: "database down" }, 503))));

    renderAt(<LocatorPage />);

    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load stores: database down");
  });
});
